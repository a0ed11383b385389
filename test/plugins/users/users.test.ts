import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  countStatements,
  createTestApp,
  createUser,
  json,
  sessionClient,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'

const newUser = {
  username: 'carla',
  displayName: 'Carla',
  email: 'carla@band.example',
  role: 'member',
  password: 'a long enough passphrase here',
  instruments: ['Drums']
}

test(
  'GET /users: everyone, by display name; email only for admins and self; N+1 free',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anna = sessionClient(
      ctx.app,
      await createUser(ctx.app, 'anna', 'member', { email: 'anna@x.example', displayName: 'Anna' })
    )
    await createUser(ctx.app, 'zed', 'editor', { email: 'zed@x.example', displayName: 'Zed' })
    await createUser(ctx.app, 'old', 'member', {
      email: 'old@x.example',
      displayName: 'Old',
      status: 'inactive'
    })

    const asMember = json<Array<{ username: string; email?: string | null; status: string }>>(
      await anna.get('/users')
    )
    assert.deepEqual(
      asMember.map((u) => u.username),
      ['anna', 'boss', 'old', 'zed']
    )
    assert.equal(asMember.find((u) => u.username === 'anna')!.email, 'anna@x.example')
    for (const u of asMember.filter((u) => u.username !== 'anna')) {
      assert.ok(!('email' in u), `${u.username} email hidden`)
    }

    const asAdmin = json<Array<{ username: string; email?: string | null }>>(
      await admin.get('/users')
    )
    assert.equal(asAdmin.find((u) => u.username === 'zed')!.email, 'zed@x.example')
    assert.equal(asAdmin.find((u) => u.username === 'old')!.email, 'old@x.example')

    const active = json<Array<{ username: string }>>(await anna.get('/users?status=active'))
    assert.ok(!active.some((u) => u.username === 'old'))
    assert.equal(json<unknown[]>(await anna.get('/users?status=inactive')).length, 1)
    assert.equal((await anna.get('/users?status=gone')).statusCode, 400)
    assert.equal((await anonymous(ctx.app).get('/users')).statusCode, 401)

    for (let i = 0; i < 10; i++) await createUser(ctx.app, `extra${i}`)
    const { statements } = await countStatements(ctx.app, () => anna.get('/users'))
    assert.ok(statements <= 2, `${statements} statements for the list`)
  }
)

test('GET /users/{id}: email rule, 404, 400, 401', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const anna = sessionClient(
    ctx.app,
    await createUser(ctx.app, 'anna', 'member', { email: 'anna@x.example' })
  )
  const bert = sessionClient(
    ctx.app,
    await createUser(ctx.app, 'bert', 'member', { email: 'bert@x.example' })
  )
  assert.equal(json<Ok<'/users/{id}', 'get'>>(
    await anna.get(`/users/${anna.user.id}`)).email, 'anna@x.example')
  assert.ok(!('email' in json<Ok<'/users/{id}', 'get'>>(await bert.get(`/users/${anna.user.id}`))))
  assert.equal(json<Ok<'/users/{id}', 'get'>>(
    await admin.get(`/users/${anna.user.id}`)).email, 'anna@x.example')
  const missing = await anna.get('/users/9999')
  assert.equal(missing.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missing).code, 'USER_NOT_FOUND')
  assert.equal((await anna.get('/users/0')).statusCode, 400)
  assert.equal((await anna.get('/users/abc')).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get(`/users/${anna.user.id}`)).statusCode, 401)
})

test(
  'POST /users (admin): 201, policy 400, duplicate username ignoring case 409, 403 for others',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const editor = await userClient(ctx.app, 'ed', 'editor')
    const member = await userClient(ctx.app, 'mo', 'member')

    const created = await admin.post('/users', newUser)
    assert.equal(created.statusCode, 201)
    const body = json<Ok<'/users', 'post'>>(created)
    assert.equal(body.username, 'carla')
    assert.equal(body.email, 'carla@band.example')
    assert.equal(body.status, 'active')
    assert.equal(body.isMusician, true)
    assert.equal(body.isSinger, false)
    assert.deepEqual(body.instruments, ['Drums'])
    assert.equal((body as Record<string, unknown>).password, undefined)
    assert.equal((body as Record<string, unknown>).passwordHash, undefined)
    // The new member can log in with that password.
    assert.equal(
      (await anonymous(ctx.app).post('/login', { username: 'carla', password: newUser.password }))
        .statusCode,
      200
    )

    const duplicate = await admin.post('/users', { ...newUser, username: 'CARLA' })
    assert.equal(duplicate.statusCode, 409)
    assert.equal(json<ErrorResponseBody>(duplicate).code, 'USERNAME_TAKEN')

    const weak = await admin.post('/users', { ...newUser, username: 'dora', password: 'too short' })
    assert.equal(weak.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
    assert.match(
      json<ErrorResponseBody>(
        await admin.post('/users', {
          ...newUser,
          username: 'dora',
          password: 'dora dora dora dora!'
        })
      ).message,
      /username/
    )
    for (const bad of [
      { ...newUser, username: 'x' },
      { ...newUser, username: 'has space' },
      { ...newUser, username: 'emil', role: 'owner' },
      { ...newUser, username: 'emil', status: 'active' },
      { ...newUser, username: 'emil', id: 99 },
      { ...newUser, username: 'emil', email: 'nope' },
      { username: 'emil', role: 'member', password: newUser.password }
    ]) {
      const r = await admin.post('/users', bad)
      assert.equal(r.statusCode, 400, JSON.stringify(bad))
    }
    assert.equal((await editor.post('/users', { ...newUser, username: 'emil' })).statusCode, 403)
    assert.equal((await member.post('/users', { ...newUser, username: 'emil' })).statusCode, 403)
    assert.equal(
      (await anonymous(ctx.app).post('/users', { ...newUser, username: 'emil' })).statusCode,
      401
    )
    assert.equal(json<unknown[]>(await admin.get('/users')).length, 4)
  }
)

test(
  'PATCH /users/{id} (admin): role, status, profile, password; 404, 400, 403, 401',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anna = await userClient(ctx.app, 'anna', 'member')
    const annaPhone = sessionClient(ctx.app, anna.user)

    const patched = await admin.patch(`/users/${anna.user.id}`, {
      role: 'editor',
      displayName: 'Anna E.',
      isMusician: false,
      isSinger: true,
      instruments: [],
      email: 'a@x.example'
    })
    assert.equal(patched.statusCode, 200)
    const body = json<Ok<'/users/{id}', 'patch'>>(patched)
    assert.equal(body.role, 'editor')
    assert.equal(body.displayName, 'Anna E.')
    assert.equal(body.isMusician, false)
    assert.equal(body.email, 'a@x.example')
    assert.equal((await anna.get('/me')).statusCode, 200, 'a profile change keeps sessions')

    const weak = await admin.patch(`/users/${anna.user.id}`, { password: 'anna-anna-anna-anna' })
    assert.equal(weak.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
    const reset = await admin.patch(`/users/${anna.user.id}`, {
      password: 'a fresh password from the admin'
    })
    assert.equal(reset.statusCode, 200)
    assert.equal(
      (await anna.get('/me')).statusCode,
      401,
      'a new password ends the user\u2019s sessions'
    )
    assert.equal((await annaPhone.get('/me')).statusCode, 401)
    assert.equal(
      (
        await anonymous(ctx.app).post('/login', {
          username: 'anna',
          password: 'a fresh password from the admin'
        })
      ).statusCode,
      200
    )

    const off = await admin.patch(`/users/${anna.user.id}`, { status: 'inactive' })
    assert.equal(json<Ok<'/users/{id}', 'patch'>>(off).status, 'inactive')
    const on = await admin.patch(`/users/${anna.user.id}`, { status: 'active' })
    assert.equal(json<Ok<'/users/{id}', 'patch'>>(on).status, 'active')

    for (const bad of [
      {},
      { username: 'new' },
      { role: 'boss' },
      { status: 'deleted' },
      { createdAt: '2020-01-01T00:00:00Z' }
    ]) {
      assert.equal(
        (await admin.patch(`/users/${anna.user.id}`, bad)).statusCode,
        400,
        JSON.stringify(bad)
      )
    }
    const missing = await admin.patch('/users/9999', { displayName: 'X' })
    assert.equal(missing.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(missing).code, 'USER_NOT_FOUND')
    const editor = await userClient(ctx.app, 'ed', 'editor')
    assert.equal(
      (await editor.patch(`/users/${anna.user.id}`, { displayName: 'X' })).statusCode,
      403
    )
    assert.equal(
      (await editor.patch(`/users/${editor.user.id}`, { role: 'admin' })).statusCode,
      403,
      'no self-promotion'
    )
    assert.equal(
      (await anonymous(ctx.app).patch(`/users/${anna.user.id}`, { displayName: 'X' })).statusCode,
      401
    )
  }
)

test('an admin changing their own password keeps their current session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const adminElsewhere = sessionClient(ctx.app, admin.user)
  assert.equal(
    (await admin.patch(`/users/${admin.user.id}`, { password: 'the admin picks a new one' }))
      .statusCode,
    200
  )
  assert.equal((await admin.get('/me')).statusCode, 200)
  assert.equal((await adminElsewhere.get('/me')).statusCode, 401)
})

test(
  'the last active admin cannot be demoted or deactivated (409); with two admins one can go',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const boss = await userClient(ctx.app, 'boss', 'admin')
    // inactive admins do not count
    await createUser(ctx.app, 'former', 'admin', { status: 'inactive' })
    for (const change of [{ role: 'editor' }, { role: 'member' }, { status: 'inactive' }]) {
      const r = await boss.patch(`/users/${boss.user.id}`, change)
      assert.equal(r.statusCode, 409, JSON.stringify(change))
      assert.equal(json<ErrorResponseBody>(r).code, 'LAST_ADMIN')
    }
    const del = await boss.delete(`/users/${boss.user.id}`)
    assert.equal(del.statusCode, 409)
    assert.equal(json<ErrorResponseBody>(del).code, 'LAST_ADMIN')
    assert.equal(json<Ok<'/me', 'get'>>(await boss.get('/me')).role, 'admin')
    assert.equal(
      (await boss.patch(`/users/${boss.user.id}`, { role: 'admin', displayName: 'Still Boss' }))
        .statusCode,
      200
    )

    const second = await userClient(ctx.app, 'second', 'admin')
    assert.equal((await second.patch(`/users/${boss.user.id}`, { role: 'editor' })).statusCode, 200)
    const last = await second.patch(`/users/${second.user.id}`, { role: 'member' })
    assert.equal(last.statusCode, 409)
    // A reactivated admin counts again.
    assert.equal((await second.patch(`/users/${boss.user.id}`, { role: 'admin' })).statusCode, 200)
    assert.equal((await second.delete(`/users/${second.user.id}`)).statusCode, 204)
    assert.equal((await second.get('/me')).statusCode, 401)
  }
)

test(
  'DELETE /users/{id} deactivates (204, idempotent): sessions end at once, the user stays',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anna = await userClient(ctx.app, 'anna', 'member')
    const annaPhone = sessionClient(ctx.app, anna.user)
    const del = await admin.delete(`/users/${anna.user.id}`)
    assert.equal(del.statusCode, 204)
    assert.equal(del.body, '')
    assert.equal((await anna.get('/me')).statusCode, 401)
    assert.equal((await annaPhone.get('/me')).statusCode, 401)
    const kept = json<Ok<'/users/{id}', 'get'>>(await admin.get(`/users/${anna.user.id}`))
    assert.equal(kept.status, 'inactive')
    assert.equal((await admin.delete(`/users/${anna.user.id}`)).statusCode, 204)
    assert.equal((await admin.delete('/users/9999')).statusCode, 404)
    assert.equal((await admin.delete('/users/x')).statusCode, 400)
    const member = await userClient(ctx.app, 'mo', 'member')
    assert.equal((await member.delete(`/users/${admin.user.id}`)).statusCode, 403)
    assert.equal(
      (await userClient(ctx.app, 'ed', 'editor').then((c) => c.delete(`/users/${member.user.id}`)))
        .statusCode,
      403
    )
    assert.equal((await anonymous(ctx.app).delete(`/users/${member.user.id}`)).statusCode, 401)
  }
)

test(
  'reactivating a member does not revive their old calendar URL (also one an older version kept)',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anna = await userClient(ctx.app, 'anna', 'member')
    const feedOf = async (c: typeof anna) =>
      new URL(json<{ url: string }>(await c.post('/me/calendar')).url).pathname
    const feed = (path: string) => anonymous(ctx.app).get(path)

    const path = await feedOf(anna)
    assert.equal((await feed(path)).statusCode, 200)
    for (const status of ['inactive', 'active']) {
      const r = await admin.patch(`/users/${anna.user.id}`, { status })
      assert.equal(r.statusCode, 200)
      assert.equal((await feed(path)).statusCode, 404, `after ${status}`)
    }
    const again = sessionClient(ctx.app, anna.user)
    assert.equal(json<Ok<'/me/calendar', 'get'>>(
      await again.get('/me/calendar')).enabled, false, 'she subscribes anew')
    const fresh = await feedOf(again)
    assert.notEqual(fresh, path)
    assert.equal((await feed(fresh)).statusCode, 200)

    // Deactivated by an older version, which left the token in place: reactivation ends it.
    ctx.app.sqlite.prepare("UPDATE users SET status = 'inactive' WHERE id = ?").run(anna.user.id)
    assert.equal((await feed(fresh)).statusCode, 404, 'an inactive member has no feed')
    assert.equal(
      (await admin.patch(`/users/${anna.user.id}`, { status: 'active' })).statusCode,
      200
    )
    assert.equal((await feed(fresh)).statusCode, 404, 'the kept URL stays dead')
  }
)
