import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  client,
  createTestApp,
  createUser,
  json,
  PASSWORD
} from '#test/helpers.js'
import { cookie } from '#test/plugins/sessions/set-cookies.js'

// The session cookies: httpOnly, SameSite=Lax, Secure and __Host- prefixed behind HTTPS (a trusted
// proxy or COOKIE_SECURE), never a token in a body.

test(
  'login sets httpOnly SameSite=Lax cookies over plain http; the body carries no token',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const response = await anonymous(ctx.app).post('/login', {
      username: 'anna',
      password: PASSWORD
    })
    assert.equal(response.statusCode, 200)
    for (const [name, lifetime] of [
      ['access_token', 15 * 60],
      ['refresh_token', 30 * 24 * 3600]
    ] as const) {
      const c = cookie(response, name)
      assert.ok(c, name)
      assert.equal(c.httpOnly, true)
      assert.equal(c.sameSite, 'Lax')
      assert.equal(c.path, '/')
      assert.equal(c.secure, undefined)
      // Whole seconds until the token's own expiry: the lifetime, give or take the second the
      // request took.
      assert.ok(c.maxAge! >= lifetime - 1 && c.maxAge! <= lifetime, `${name} Max-Age ${c.maxAge}`)
      assert.ok(!response.body.includes(c.value), `${name} must not be in the body`)
    }
    const body = json<{ user: { id: number, passwordHash?: unknown }, accessExpiresAt: string }>(
      response)
    assert.equal(body.user.id, user.id)
    assert.equal(body.user.passwordHash, undefined)
    assert.ok(Date.parse(body.accessExpiresAt) > Date.now())
  }
)

test(
  'behind a trusted proxy with x-forwarded-proto https the cookies are Secure and __Host- prefixed',
  async (t) => {
    for (const trust of ['true', '127.0.0.1', '127.0.0.0/8']) {
      const ctx = await createTestApp({}, { TRUST_PROXY: trust })
      t.after(() => ctx.close())
      await createUser(ctx.app, 'anna')
      const https = { 'x-forwarded-proto': 'https', host: 'band.example' }
      const c = client(ctx.app, { id: 0, username: 'anna', role: 'member' })
      const response = await c.post('/login', { username: 'anna', password: PASSWORD }, https)
      assert.equal(response.statusCode, 200)
      for (const name of ['__Host-access_token', '__Host-refresh_token']) {
        const set = cookie(response, name)
        assert.ok(set, `${name} with TRUST_PROXY=${trust}`)
        assert.equal(set.secure, true)
        assert.equal(set.httpOnly, true)
        assert.equal(set.path, '/')
      }
      assert.equal(cookie(response, 'access_token'), undefined)
      assert.equal((await c.get('/me', https)).statusCode, 200)
      assert.equal((await c.post('/refresh', undefined, https)).statusCode, 200)
      // Same-origin browser write (Origin = the proxy's public origin) passes.
      assert.equal(
        (
          await c.put(
            '/update_user',
            { displayName: 'Anna' },
            { ...https, origin: 'https://band.example' }
          )
        ).statusCode,
        200
      )
    }
  }
)

test('an untrusted x-forwarded-proto does not make cookies Secure', async (t) => {
  const ctx = await createTestApp({}, { TRUST_PROXY: 'false' })
  t.after(() => ctx.close())
  await createUser(ctx.app, 'anna')
  const response = await anonymous(ctx.app).post(
    '/login',
    { username: 'anna', password: PASSWORD },
    { 'x-forwarded-proto': 'https' }
  )
  assert.ok(cookie(response, 'access_token'))
  assert.equal(cookie(response, 'access_token')!.secure, undefined)
})

test('COOKIE_SECURE=true forces Secure __Host- cookies; false never sets Secure', async (t) => {
  const forced = await createTestApp({}, { COOKIE_SECURE: 'true' })
  t.after(() => forced.close())
  await createUser(forced.app, 'anna')
  const c = client(forced.app, { id: 0, username: 'anna', role: 'member' })
  const response = await c.post('/login', { username: 'anna', password: PASSWORD })
  assert.equal(cookie(response, '__Host-access_token')?.secure, true)
  assert.equal(cookie(response, '__Host-refresh_token')?.secure, true)
  assert.equal((await c.get('/me')).statusCode, 200)

  const never = await createTestApp({}, { COOKIE_SECURE: 'false', TRUST_PROXY: 'true' })
  t.after(() => never.close())
  await createUser(never.app, 'anna')
  const plain = await anonymous(never.app).post(
    '/login',
    { username: 'anna', password: PASSWORD },
    { 'x-forwarded-proto': 'https' }
  )
  assert.equal(cookie(plain, 'access_token')?.secure, undefined)
})
