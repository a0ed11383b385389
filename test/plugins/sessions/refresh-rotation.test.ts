import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import { sessions } from '#src/db/schema.js'
import {
  client,
  createTestApp,
  createUser,
  json,
  login,
  type ErrorResponseBody
} from '#test/helpers.js'
import { cookie } from '#test/plugins/sessions/set-cookies.js'

// Refresh token rotation: the grace window for a tab that raced another, and a token used again
// after it (theft) ending the whole session.

test(
  'refresh rotates; the old token inside the grace window gives an access ' +
    'token only; after it the session is revoked',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, user)
    const first = c.jar.get('refresh_token')!

    const rotated = await c.post('/refresh')
    assert.equal(rotated.statusCode, 200)
    const second = c.jar.get('refresh_token')!
    assert.notEqual(second, first)
    assert.ok(cookie(rotated, 'access_token'))
    assert.ok(!rotated.body.includes(second))

    // A second tab still holding the first token, within 10 s: a new access token, no new refresh
    // token.
    ctx.advance(5_000)
    const tab = client(ctx.app, user)
    tab.jar.set('refresh_token', first)
    const raced = await tab.post('/refresh')
    assert.equal(raced.statusCode, 200)
    assert.ok(cookie(raced, 'access_token'))
    assert.equal(cookie(raced, 'refresh_token'), undefined)
    assert.equal((await tab.get('/me')).statusCode, 200)

    // After the window the same replay is theft: the whole session ends, the newer token too.
    ctx.advance(6_000)
    const thief = client(ctx.app, user)
    thief.jar.set('refresh_token', first)
    const stolen = await thief.post('/refresh')
    assert.equal(stolen.statusCode, 401)
    assert.equal(json<ErrorResponseBody>(stolen).code, 'SESSION_INVALID')
    assert.equal((await c.post('/refresh')).statusCode, 401)
    assert.equal((await c.get('/me')).statusCode, 401)
    assert.equal((await tab.get('/me')).statusCode, 401)
  }
)

/** A client holding only the given refresh token (another tab, or a thief). */
const holding = (
  app: Parameters<typeof client>[0],
  user: Parameters<typeof client>[1],
  refreshToken: string
) => {
  const c = client(app, user)
  c.jar.set('refresh_token', refreshToken)
  return c
}

test(
  'a token rotated two or more rotations back is theft long after the grace ' +
    'window: the whole session ends',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, user)
    const r0 = c.jar.get('refresh_token')!
    assert.equal((await c.post('/refresh')).statusCode, 200)
    ctx.advance(11_000)
    assert.equal((await c.post('/refresh')).statusCode, 200)
    const r2 = c.jar.get('refresh_token')!
    ctx.advance(11_000)

    const stolen = await holding(ctx.app, user, r0).post('/refresh')
    assert.equal(stolen.statusCode, 401)
    assert.equal(json<ErrorResponseBody>(stolen).code, 'SESSION_INVALID')
    assert.equal(
      (await holding(ctx.app, user, r2).post('/refresh')).statusCode,
      401,
      'the newest refresh token died with the session'
    )
    assert.equal((await c.get('/me')).statusCode, 401, 'the access token died with the session')
    const [row] = ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id)).all()
    assert.ok(row?.revokedAt)
  }
)

test(
  'inside 10 s only the immediately previous token gets grace; an older one revokes the session',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, user)
    const r0 = c.jar.get('refresh_token')!
    assert.equal((await c.post('/refresh')).statusCode, 200)
    const r1 = c.jar.get('refresh_token')!
    ctx.advance(1_000)
    assert.equal((await c.post('/refresh')).statusCode, 200)
    ctx.advance(1_000)

    // The previous token (r1) races the rotation: an access token only, the session lives on.
    const tab = holding(ctx.app, user, r1)
    const raced = await tab.post('/refresh')
    assert.equal(raced.statusCode, 200)
    assert.equal(cookie(raced, 'refresh_token'), undefined)
    assert.equal((await c.get('/me')).statusCode, 200)

    // r0 was rotated away two rotations ago: no tab can legitimately still hold it.
    assert.equal((await holding(ctx.app, user, r0).post('/refresh')).statusCode, 401)
    assert.equal((await c.post('/refresh')).statusCode, 401)
    assert.equal((await tab.get('/me')).statusCode, 401)
  }
)

test(
  'many rotations later the very first token still revokes the session; other ' +
    'sessions are untouched',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, user)
    const other = await login(ctx.app, user)
    const r0 = c.jar.get('refresh_token')!
    for (let i = 0; i < 5; i++) {
      ctx.advance(15 * 60_000)
      assert.equal((await c.post('/refresh')).statusCode, 200)
    }
    assert.equal((await other.post('/refresh')).statusCode, 200)
    assert.equal((await holding(ctx.app, user, r0).post('/refresh')).statusCode, 401)
    assert.equal((await c.get('/me')).statusCode, 401)
    assert.equal(
      (await other.get('/me')).statusCode,
      200,
      'the thief only ends the session the token belonged to'
    )
  }
)

test(
  'a session rotated before the token history existed still detects reuse of its previous token',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'anna')
    const { hashToken } = await import('#src/auth/tokens.js')
    const { createSession } = await import('#src/repositories/sessions.js')
    const { session, refresh } = createSession(ctx.app.db, user.id, ctx.app.clock(), {})
    // As the row looked after a rotation done by the previous version: the old token only in the
    // row.
    ctx.app.db
      .update(sessions)
      .set({
        previousRefreshHash: hashToken('legacy-token'),
        rotatedAt: ctx.app.clock().toISOString()
      })
      .where(eq(sessions.id, session.id))
      .run()
    ctx.advance(11_000)
    const c = holding(ctx.app, user, refresh.token)
    assert.equal((await c.post('/refresh')).statusCode, 200)
    ctx.advance(11_000)
    assert.equal((await c.post('/refresh')).statusCode, 200)
    ctx.advance(11_000)
    assert.equal((await holding(ctx.app, user, 'legacy-token').post('/refresh')).statusCode, 401)
    assert.equal((await c.post('/refresh')).statusCode, 401)
  }
)
