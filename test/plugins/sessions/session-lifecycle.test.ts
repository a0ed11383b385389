import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { eq } from '#src/db/orm.js'
import { EXTERNAL_CHANGES_CHECK_MS } from '#plugins/app/db.js'
import { buildApp } from '#src/app.js'
import { refreshTokenHistory, sessions } from '#src/db/schema.js'
import { deleteDeadSessions } from '#src/repositories/sessions.js'
import {
  anonymous,
  client,
  CookieJar,
  countStatements,
  createTestApp,
  createUser,
  json,
  login,
  PASSWORD,
  sessionClient,
  userClient,
  type ErrorResponseBody
} from '#test/helpers.js'
import { cookie, cookiesOf } from '#test/plugins/sessions/set-cookies.js'

test('refresh without or with an unknown token is 401', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  assert.equal((await anonymous(ctx.app).post('/refresh')).statusCode, 401)
  const c = anonymous(ctx.app)
  c.jar.set('refresh_token', 'not-a-token')
  const r = await c.post('/refresh')
  assert.equal(r.statusCode, 401)
  assert.equal(json<ErrorResponseBody>(r).code, 'SESSION_INVALID')
})

test('the access token expires after 15 minutes; refresh renews it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const c = await login(ctx.app, await createUser(ctx.app, 'anna'))
  ctx.advance(14 * 60_000)
  assert.equal((await c.get('/me')).statusCode, 200)
  ctx.advance(2 * 60_000)
  const expired = await c.get('/me')
  assert.equal(expired.statusCode, 401)
  assert.equal(json<ErrorResponseBody>(expired).code, 'SESSION_INVALID')
  assert.equal((await c.post('/refresh')).statusCode, 200)
  assert.equal((await c.get('/me')).statusCode, 200)
})

test('the session ends after 30 days without refresh', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const c = await login(ctx.app, await createUser(ctx.app, 'anna'))
  ctx.advance(30 * 24 * 3600_000 + 1000)
  assert.equal((await c.post('/refresh')).statusCode, 401)
})

test('logout revokes the session, clears the cookies and is idempotent', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const user = await createUser(ctx.app, 'anna')
  const c = await login(ctx.app, user)
  const access = c.jar.get('access_token')!
  const refresh = c.jar.get('refresh_token')!
  const out = await c.post('/logout')
  assert.equal(out.statusCode, 204)
  for (const name of ['access_token', 'refresh_token']) {
    const cleared = cookie(out, name)
    assert.ok(cleared, name)
    assert.equal(cleared.value, '')
  }
  // The old cookies, replayed, are dead.
  const replay = client(ctx.app, user)
  replay.jar.set('access_token', access)
  replay.jar.set('refresh_token', refresh)
  assert.equal((await replay.get('/me')).statusCode, 401)
  assert.equal((await replay.post('/refresh')).statusCode, 401)
  assert.equal((await replay.post('/logout')).statusCode, 204)
  assert.equal((await anonymous(ctx.app).post('/logout')).statusCode, 204)
})

test('logout with only an expired access token still ends the session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const user = await createUser(ctx.app, 'anna')
  const c = sessionClient(ctx.app, user)
  ctx.advance(20 * 60_000)
  assert.equal((await c.post('/logout')).statusCode, 204)
  const rows = ctx.app.db.select().from(sessions).where(eq(sessions.userId, user.id)).all()
  assert.equal(rows.length, 1)
  assert.ok(rows[0]!.revokedAt)
})

test('a forged or foreign-key access token is 401', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const user = await createUser(ctx.app, 'anna')
  const c = sessionClient(ctx.app, user)
  const [h, p] = c.jar.get('access_token')!.split('.')
  const forged = client(ctx.app, user)
  forged.jar.set('access_token', `${h}.${p}.AAAA`)
  assert.equal((await forged.get('/me')).statusCode, 401)
  const other = await createTestApp({ jwtSecret: 'another-secret-another-secret-another-1' })
  t.after(() => other.close())
  const stranger = client(other.app, user)
  stranger.jar.set('access_token', c.jar.get('access_token')!)
  assert.equal((await stranger.get('/me')).statusCode, 401)
})

test(
  'deactivation mid-session: the next request is 401, login then fails like a wrong password',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anna = await createUser(ctx.app, 'anna')
    const c = await login(ctx.app, anna)
    const other = sessionClient(ctx.app, anna)
    assert.equal((await c.get('/me')).statusCode, 200)
    assert.equal((await admin.patch(`/users/${anna.id}`, { status: 'inactive' })).statusCode, 200)
    assert.equal((await c.get('/me')).statusCode, 401)
    assert.equal((await other.get('/users')).statusCode, 401)
    assert.equal((await c.post('/refresh')).statusCode, 401)
    const inactive = await anonymous(ctx.app).post('/login', {
      username: 'anna',
      password: PASSWORD
    })
    const wrong = await anonymous(ctx.app).post('/login', {
      username: 'boss',
      password: 'not the right password at all'
    })
    assert.equal(inactive.statusCode, 401)
    assert.deepEqual(json(inactive), json(wrong))
    assert.equal(cookiesOf(inactive).length, 0)
  }
)

test('a role change mid-session takes effect on the next request', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const anna = await userClient(ctx.app, 'anna', 'member')
  assert.equal((await anna.delete('/admin/logo')).statusCode, 403)
  assert.equal((await admin.patch(`/users/${anna.user.id}`, { role: 'admin' })).statusCode, 200)
  assert.equal((await anna.delete('/admin/logo')).statusCode, 404) // allowed now; there is no logo
  assert.equal((await admin.patch(`/users/${anna.user.id}`, { role: 'editor' })).statusCode, 200)
  assert.equal((await anna.delete('/admin/logo')).statusCode, 403)
})

test(
  'the session check runs once per database revision: again after any write, an ended session ' +
    'is 401 at once, one ended by another process (the CLI) within the revision interval',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await userClient(ctx.app, 'anna', 'member')
    const sessionChecks = async (fn: () => Promise<unknown>) =>
      (await countStatements(ctx.app, fn)).sessionChecks

    assert.equal(await sessionChecks(() => anna.get('/me')), 1, 'first request after the login')
    assert.equal(await sessionChecks(() => anna.get('/songs')), 0, 'nothing was written since')
    assert.equal(await sessionChecks(() => anna.get('/me')), 0)
    assert.equal((await anna.put(`/songs/${9999}/vote`, { vote: 'yes' })).statusCode, 404)
    assert.equal(await sessionChecks(() => anna.get('/me')), 0, 'a write that changed no row')
    assert.equal((await anna.post('/songs', { title: 'Proposal' })).statusCode, 201)
    assert.equal(await sessionChecks(() => anna.get('/me')), 1, 'a write: checked again')

    // Ended by another process: no write of this server, seen once the interval has passed.
    const sessionId = ctx.app.db.select().from(sessions).all().at(-1)!.id
    const cli = new Database(ctx.config.databaseFile)
    cli.prepare("UPDATE sessions SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = ?")
      .run(sessionId)
    cli.close()
    await sleep(EXTERNAL_CHANGES_CHECK_MS)
    assert.equal((await anna.get('/me')).statusCode, 401)
  }
)

test('a remembered session still ends at its expiry time, without any write', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna', 'member')
  const soon = new Date(ctx.now().getTime() + 60_000).toISOString()
  ctx.app.db.update(sessions).set({ expiresAt: soon }).run()
  assert.equal((await anna.get('/me')).statusCode, 200, 'checked and remembered')
  ctx.advance(61_000) // the access token (15 minutes) is still valid
  const ended = await countStatements(ctx.app, () => anna.get('/me'))
  assert.equal(ended.result.statusCode, 401)
  assert.equal(ended.sessionChecks, 0, 'decided from the remembered check')
})

test(
  'cross-origin writes: foreign Origin 403, CORS_ORIGINS passes with credentials, ' +
    'Sec-Fetch-Site cross-site 403, no Origin passes',
  async (t) => {
    const ctx = await createTestApp(
      {},
      { CORS_ORIGINS: 'https://spa.example, http://192.168.1.10:5173' }
    )
    t.after(() => ctx.close())
    const anna = await userClient(ctx.app, 'anna')

    const foreign = await anna.put(
      '/update_user',
      { displayName: 'X' },
      { origin: 'https://evil.example' }
    )
    assert.equal(foreign.statusCode, 403)
    assert.equal(json<ErrorResponseBody>(foreign).code, 'CROSS_SITE_REQUEST')
    assert.equal(foreign.headers['access-control-allow-origin'], undefined)
    assert.equal((await anna.post('/logout', undefined, { origin: 'null' })).statusCode, 403)
    assert.equal(
      (
        await anonymous(ctx.app).post(
          '/login',
          { username: 'a', password: 'b' },
          { origin: 'https://evil.example' }
        )
      ).statusCode,
      403
    )

    const fetchSite = await anna.put(
      '/update_user',
      { displayName: 'X' },
      { 'sec-fetch-site': 'cross-site' }
    )
    assert.equal(fetchSite.statusCode, 403)
    assert.equal(json<ErrorResponseBody>(fetchSite).code, 'CROSS_SITE_REQUEST')

    const allowed = await anna.put(
      '/update_user',
      { displayName: 'From SPA' },
      { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site' }
    )
    assert.equal(allowed.statusCode, 200)
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://spa.example')
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true')

    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/update_user',
      headers: {
        origin: 'http://192.168.1.10:5173',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type'
      }
    })
    assert.equal(preflight.statusCode, 204)
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://192.168.1.10:5173')
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true')
    assert.match(String(preflight.headers['access-control-allow-methods']), /PUT/)
    const foreignPreflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/update_user',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' }
    })
    assert.equal(foreignPreflight.headers['access-control-allow-origin'], undefined)

    // Same origin (the API's own host) and tools without Origin are not affected; reads are never
    // blocked.
    assert.equal(
      (await anna.put('/update_user', { displayName: 'Same' }, { origin: 'http://localhost:80' }))
        .statusCode,
      200
    )
    assert.equal(
      (await anna.put('/update_user', { displayName: 'Curl' }, { 'sec-fetch-site': 'same-origin' }))
        .statusCode,
      200
    )
    assert.equal((await anna.put('/update_user', { displayName: 'Curl' })).statusCode, 200)
    const read = await anna.get('/me', { origin: 'https://evil.example' })
    assert.equal(read.statusCode, 200)
    assert.equal(read.headers['access-control-allow-origin'], undefined)
  }
)

test('request logs never contain tokens, cookies or passwords', async (t) => {
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { loadConfig } = await import('#src/config.js')
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
  const lines: string[] = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    }
  })
  const config = loadConfig({
    DATA_DIR: dir,
    JWT_SECRET: 'log-secret-log-secret-log-secret-log-42'
  })
  const app = await buildApp({
    config,
    createFirstAdmin: false,
    logger: { level: 'trace', stream }
  })
  t.after(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const user = await createUser(app, 'anna')
  const c = client(app, user, new CookieJar())
  assert.equal((await c.post('/login', { username: 'anna', password: PASSWORD })).statusCode, 200)
  const secrets = [c.jar.get('access_token')!, c.jar.get('refresh_token')!]
  await c.post('/refresh')
  secrets.push(c.jar.get('access_token')!, c.jar.get('refresh_token')!)
  await c.get('/me')
  await c.put('/change_password', {
    currentPassword: 'wrong wrong wrong wrong',
    newPassword: 'another long passphrase here'
  })
  await c.post('/logout')
  const log = lines.join('')
  // One line per request (src/http/request-log.ts): all five were logged.
  assert.ok(lines.length >= 5, 'requests were logged')
  assert.match(log, /"url":"\/login"/)
  for (const secret of [
    ...secrets,
    PASSWORD,
    'wrong wrong wrong wrong',
    'another long passphrase here',
    'log-secret-log-secret'
  ]) {
    assert.ok(!log.includes(secret), 'a secret reached the log')
  }
  assert.ok(!/cookie/i.test(log), 'cookie headers reached the log')
})

test(
  'sessions that ended more than a week ago are pruned with their refresh history',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const user = await createUser(ctx.app, 'pruned')
    const old = await login(ctx.app, user)
    assert.equal((await old.post('/refresh')).statusCode, 200)
    assert.equal((await old.post('/logout')).statusCode, 204)
    const live = await login(ctx.app, user)
    assert.equal((await live.post('/refresh')).statusCode, 200)
    assert.equal(ctx.app.db.select().from(refreshTokenHistory).all().length, 2)

    assert.equal(
      deleteDeadSessions(ctx.app.db, ctx.now()),
      0,
      'a fresh logout is kept (recent history)'
    )
    ctx.advance(8 * 24 * 3600_000)
    // The live session's refresh token lasts 30 days: it is kept; the one logged out 8 days ago
    // goes.
    assert.equal(deleteDeadSessions(ctx.app.db, ctx.now()), 1)
    assert.equal(ctx.app.db.select().from(sessions).all().length, 1)
    assert.equal(ctx.app.db.select().from(refreshTokenHistory).all().length, 1)
    assert.equal((await live.post('/refresh')).statusCode, 200)
  }
)
