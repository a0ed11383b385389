import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  client,
  createTestApp,
  createUser,
  json,
  login,
  PASSWORD,
  sessionClient,
  userClient,
  type ErrorResponseBody,
  type Ok
} from '#test/helpers.js'
import { passwordProblem } from '#src/auth/password.js'

test('GET /me: the current user with email; 401 without session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await createUser(ctx.app, 'anna', 'editor', {
    email: 'anna@band.example',
    instruments: ['Bass']
  })
  const c = sessionClient(ctx.app, anna)
  const me = await c.get('/me')
  assert.equal(me.statusCode, 200)
  const body = json<Ok<'/me', 'get'>>(me)
  assert.equal(body.username, 'anna')
  assert.equal(body.role, 'editor')
  assert.equal(body.email, 'anna@band.example')
  assert.deepEqual(body.instruments, ['Bass'])
  assert.equal((body as Record<string, unknown>).passwordHash, undefined)
  const anon = await anonymous(ctx.app).get('/me')
  assert.equal(anon.statusCode, 401)
  assert.equal(json<ErrorResponseBody>(anon).code, 'UNAUTHORIZED')
})

test(
  'GET /me/sessions lists own live sessions with the current flag; DELETE ends one',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await createUser(ctx.app, 'anna')
    const phone = sessionClient(ctx.app, anna)
    const laptop = sessionClient(ctx.app, anna)
    const bert = await userClient(ctx.app, 'bert')

    const list = await laptop.get('/me/sessions')
    assert.equal(list.statusCode, 200)
    const rows = json<Array<{ id: number; current: boolean; userAgent: string }>>(list)
    assert.equal(rows.length, 2)
    assert.equal(rows.filter((r) => r.current).length, 1)
    const current = rows.find((r) => r.current)!
    const other = rows.find((r) => !r.current)!

    // Another user's session id answers 404 like an unknown one, and stays alive.
    const bertSessions = json<Array<{ id: number }>>(await bert.get('/me/sessions'))
    const foreign = await laptop.delete(`/me/sessions/${bertSessions[0]!.id}`)
    assert.equal(foreign.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(foreign).code, 'SESSION_NOT_FOUND')
    assert.equal((await bert.get('/me')).statusCode, 200)
    assert.equal((await laptop.delete('/me/sessions/999999')).statusCode, 404)
    assert.equal((await laptop.delete('/me/sessions/abc')).statusCode, 400)
    assert.equal((await anonymous(ctx.app).get('/me/sessions')).statusCode, 401)
    assert.equal((await anonymous(ctx.app).delete(`/me/sessions/${other.id}`)).statusCode, 401)

    assert.equal((await laptop.delete(`/me/sessions/${other.id}`)).statusCode, 204)
    assert.equal((await phone.get('/me')).statusCode, 401)
    assert.equal(
      (await laptop.delete(`/me/sessions/${other.id}`)).statusCode,
      404,
      'an ended session is gone'
    )
    assert.equal(json<unknown[]>(await laptop.get('/me/sessions')).length, 1)

    const self = await laptop.delete(`/me/sessions/${current.id}`)
    assert.equal(self.statusCode, 204)
    assert.ok(
      (self.cookies as Array<{ name: string; value: string }>).some(
        (c) => c.name === 'access_token' && c.value === ''
      )
    )
    assert.equal((await laptop.get('/me')).statusCode, 401)
  }
)

test('PUT /update_user edits only the own profile fields; anything else is 400', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const ok = await anna.put('/update_user', {
    displayName: 'Anna B.',
    email: 'anna@band.example',
    instruments: ['Gesang', 'Gitarre'],
    isSinger: true
  })
  assert.equal(ok.statusCode, 200)
  const body = json<Ok<'/update_user', 'put'>>(ok)
  assert.equal(body.displayName, 'Anna B.')
  assert.equal(body.email, 'anna@band.example')
  assert.deepEqual(body.instruments, ['Gesang', 'Gitarre'])
  assert.equal(body.isSinger, true)
  assert.equal(json<Ok<'/me', 'get'>>(await anna.get('/me')).displayName, 'Anna B.')
  const cleared = await anna.put('/update_user', { email: null })
  assert.equal(json<Ok<'/update_user', 'put'>>(cleared).email, null)

  for (const bad of [
    { role: 'admin' },
    { username: 'x' },
    { status: 'inactive' },
    { isMusician: false },
    { id: 5 },
    {},
    { email: 'not-an-email' },
    { displayName: '' }
  ]) {
    const r = await anna.put('/update_user', bad)
    assert.equal(r.statusCode, 400, JSON.stringify(bad))
    assert.equal(json<ErrorResponseBody>(r).code, 'VALIDATION_ERROR')
  }
  assert.equal(json<Ok<'/me', 'get'>>(await anna.get('/me')).role, 'member')
  assert.equal((await anonymous(ctx.app).put('/update_user', { displayName: 'X' })).statusCode, 401)
  assert.equal(
    (await anna.put('/update_user', { displayName: 'X' }, { origin: 'https://evil.example' }))
      .statusCode,
    403
  )
})

test(
  'PUT /change_password: 204, other sessions end, this one stays; wrong current 403; policy 400',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, anna)
    const other = sessionClient(ctx.app, anna)
    const bert = await userClient(ctx.app, 'bert')

    const wrong = await c.put('/change_password', {
      currentPassword: 'this is not my password',
      newPassword: 'a brand new long passphrase'
    })
    assert.equal(wrong.statusCode, 403)
    assert.equal(json<ErrorResponseBody>(wrong).code, 'WRONG_PASSWORD')

    const weak = await c.put('/change_password', {
      currentPassword: PASSWORD,
      newPassword: 'short'
    })
    assert.equal(weak.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
    assert.match(json<ErrorResponseBody>(weak).message, /at least 15/)
    const common = await c.put('/change_password', {
      currentPassword: PASSWORD,
      newPassword: 'passwordpassword'
    })
    assert.equal(common.statusCode, 400)
    assert.match(json<ErrorResponseBody>(common).message, /common/)
    const named = await c.put('/change_password', {
      currentPassword: PASSWORD,
      newPassword: 'I am ANNA and this is long'
    })
    assert.match(json<ErrorResponseBody>(named).message, /username/)
    assert.equal((await other.get('/me')).statusCode, 200, 'failed attempts change nothing')

    const changed = await c.put('/change_password', {
      currentPassword: PASSWORD,
      newPassword: 'a brand new long passphrase'
    })
    assert.equal(changed.statusCode, 204)
    assert.equal(changed.body, '')
    assert.equal((await c.get('/me')).statusCode, 200)
    assert.equal(
      (await c.post('/refresh')).statusCode,
      200,
      'the current session keeps its refresh token'
    )
    assert.equal((await other.get('/me')).statusCode, 401)
    assert.equal((await bert.get('/me')).statusCode, 200, 'other users are not affected')
    assert.equal(
      (await anonymous(ctx.app).post('/login', { username: 'anna', password: PASSWORD }))
        .statusCode,
      401
    )
    assert.equal(
      (
        await anonymous(ctx.app).post('/login', {
          username: 'anna',
          password: 'a brand new long passphrase'
        })
      ).statusCode,
      200
    )
  }
)

// A separate app: /change_password allows 5 requests a minute per IP.
test('PUT /change_password: 400 for a malformed body, 401 without session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const c = await userClient(ctx.app, 'anna')
  assert.equal((await c.put('/change_password', { currentPassword: PASSWORD })).statusCode, 400)
  const extra = await c.put('/change_password', {
    currentPassword: PASSWORD,
    newPassword: 'x'.repeat(20),
    extra: 1
  })
  assert.equal(extra.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(extra).details![0]!.field, 'body.extra')
  assert.equal(
    (await anonymous(ctx.app).put('/change_password', { currentPassword: 'x', newPassword: 'y' }))
      .statusCode,
    401
  )
})

test('password policy: 15–256 characters, not the username, not common; passphrases pass', () => {
  assert.match(passwordProblem('fourteen chars', 'anna')!, /at least 15/)
  assert.match(passwordProblem('x'.repeat(257), 'anna')!, /at most 256/)
  assert.equal(passwordProblem('xyz'.repeat(85) + 'x', 'anna'), null, '256 characters are fine')
  assert.equal(passwordProblem('fifteen chars!!', 'anna'), null, '15 characters are fine')
  // Characters, not bytes: 15 umlauts are 30 bytes but 15 characters.
  assert.equal(passwordProblem('äöüäöüäöüäöüäöü', 'anna'), null)
  assert.match(passwordProblem('äöüäöüäöüäöüäö', 'anna')!, /at least 15/)
  assert.match(passwordProblem('my name is Anna, hello world', 'anna')!, /username/)
  assert.match(passwordProblem('passwordpassword', 'anna')!, /common/)
  assert.match(passwordProblem('PasswordPassword', 'anna')!, /common/)
  assert.match(passwordProblem('1qaz2wsx3edc4rfv', 'anna')!, /common/)
  assert.equal(passwordProblem('correct horse battery staple', 'anna'), null)
  assert.equal(passwordProblem('Mein Bass klingt nach Sommer', 'anna'), null)
})

test(
  'login equalities: unknown user, wrong password and inactive user give the same 401',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    await createUser(ctx.app, 'anna')
    await createUser(ctx.app, 'gone', 'member', { status: 'inactive' })
    const answers = await Promise.all([
      anonymous(ctx.app).post('/login', { username: 'anna', password: 'wrong wrong wrong wrong' }),
      anonymous(ctx.app).post('/login', { username: 'nobody', password: PASSWORD }),
      anonymous(ctx.app).post('/login', { username: 'gone', password: PASSWORD })
    ])
    for (const answer of answers) {
      assert.equal(answer.statusCode, 401)
      assert.deepEqual(json(answer), json(answers[0]!))
      assert.equal(json<ErrorResponseBody>(answer).code, 'INVALID_CREDENTIALS')
    }
    // Usernames are case-insensitive at login.
    const c = client(ctx.app, { id: 0, username: 'anna', role: 'member' })
    assert.equal((await c.post('/login', { username: 'ANNA', password: PASSWORD })).statusCode, 200)
  }
)
