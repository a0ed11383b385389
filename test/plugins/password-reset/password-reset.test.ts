import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import {
  anonymous,
  createTestApp,
  createUser,
  json,
  login,
  sessionClient,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { passwordResetTokens } from '#src/db/schema.js'
import { hashToken } from '#src/auth/tokens.js'
import { runCli } from '#src/cli.js'
import { mailingTestApp } from '#test/smtp-sink.js'
import { RESET_LINKS_PER_HOUR } from '#src/repositories/password-resets.js'

const NEW_PASSWORD = 'a brand new passphrase, finally'
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '')

test('reset links: admin creates, member sets a new password once, sessions end', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const miaUser = await createUser(ctx.app, 'mia')
  const mia = await login(ctx.app, miaUser)
  const miaPhone = sessionClient(ctx.app, miaUser)

  const created = await admin.post(`/users/${miaUser.id}/reset-link`)
  assert.equal(created.statusCode, 201)
  const link = json<Ok<'/users/{id}/reset-link', 'post'>>(created)
  assert.equal(link.userId, miaUser.id)
  assert.equal(link.mail, 'not-configured')
  assert.match(link.url, /^http:\/\/localhost(:\d+)?\/app\/reset-password#token=[\w-]{43}$/)
  // an admin's link lasts 24 hours (ADMIN_RESET_LINK_HOURS); the command line's 15 minutes
  const life = Date.parse(link.expiresAt) - ctx.now().getTime()
  assert.ok(life <= 24 * 3600_000 && life > 24 * 3600_000 - 10_000, `${life} ms`)
  const token = tokenOf(link.url)
  // only the hash is stored
  const rows = ctx.app.db.select().from(passwordResetTokens).all()
  assert.equal(rows.length, 1)
  assert.equal(rows[0]!.tokenHash, hashToken(token))
  assert.ok(!JSON.stringify(rows).includes(token))

  const anon = anonymous(ctx.app)
  const info = await anon.post('/password-reset/verify', { token })
  assert.equal(info.statusCode, 200)
  assert.deepEqual(json<Ok<'/password-reset/verify', 'post'>>(info), {
    username: 'mia',
    displayName: 'Mia',
    expiresAt: link.expiresAt,
    kind: 'reset'
  })

  // the policy applies, and a refused password does not use the link up
  const weak = await anon.post('/password-reset', { token, newPassword: 'short' })
  assert.equal(weak.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
  const withName = await anon.post('/password-reset', { token, newPassword: 'mia mia mia mia mia' })
  assert.equal(json<ErrorResponseBody>(withName).code, 'WEAK_PASSWORD')

  assert.equal((await mia.get('/me')).statusCode, 200)
  const used = await anon.post('/password-reset', { token, newPassword: NEW_PASSWORD })
  assert.equal(used.statusCode, 204)
  // every session of the member ended; the new password works, the link does not any more
  assert.equal((await mia.get('/me')).statusCode, 401)
  assert.equal((await miaPhone.get('/me')).statusCode, 401)
  await login(ctx.app, miaUser, NEW_PASSWORD)
  const again = await anon.post('/password-reset', { token, newPassword: `${NEW_PASSWORD}!` })
  assert.equal(again.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(again).code, 'RESET_TOKEN_INVALID')
  assert.equal(json<ErrorResponseBody>(await anon.post('/password-reset/verify', { token })).code,
    'RESET_TOKEN_INVALID')

  // a newer link replaces the older one; links expire after 24 hours
  const firstRes = await admin.post(`/users/${miaUser.id}/reset-link`)
  assert.equal(firstRes.statusCode, 201, firstRes.body)
  const first = tokenOf(json<Ok<'/users/{id}/reset-link', 'post'>>(firstRes).url)
  const secondRes = await admin.post(`/users/${miaUser.id}/reset-link`)
  assert.equal(secondRes.statusCode, 201, secondRes.body)
  const second = tokenOf(json<Ok<'/users/{id}/reset-link', 'post'>>(secondRes).url)
  assert.equal((await anon.post('/password-reset/verify', { token: first })).statusCode, 400)
  assert.equal((await anon.post('/password-reset/verify', { token: second })).statusCode, 200)
  ctx.advance(24 * 3600_000 - 1000)
  assert.equal((await anon.post('/password-reset/verify', { token: second })).statusCode, 200)
  ctx.advance(2000)
  assert.equal((await anon.post('/password-reset/verify', { token: second })).statusCode, 400)
  // (fresh sessions: the access tokens above have expired with the clock)
  const admin2 = sessionClient(ctx.app, admin.user)
  const editor2 = sessionClient(ctx.app, editor.user)

  // inactive users get none, and a link dies with the deactivation
  const tom = await createUser(ctx.app, 'tom')
  const tomToken = tokenOf(json<Ok<'/users/{id}/reset-link', 'post'>>(
    await admin2.post(`/users/${tom.id}/reset-link`)).url)
  await admin2.delete(`/users/${tom.id}`)
  const inactive = await admin2.post(`/users/${tom.id}/reset-link`)
  assert.equal(inactive.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(inactive).code, 'USER_INACTIVE')
  const dead = await anon.post('/password-reset', { token: tomToken, newPassword: NEW_PASSWORD })
  assert.equal(json<ErrorResponseBody>(dead).code, 'RESET_TOKEN_INVALID')

  // 401, 403, 404, 400
  assert.equal((await anon.post(`/users/${miaUser.id}/reset-link`)).statusCode, 401)
  assert.equal((await editor2.post(`/users/${miaUser.id}/reset-link`)).statusCode, 403)
  assert.equal(json<ErrorResponseBody>(
    await admin2.post('/users/999/reset-link')).code, 'USER_NOT_FOUND')
  assert.equal((await admin2.post('/users/abc/reset-link')).statusCode, 400)
  assert.equal((await anon.post('/password-reset/verify', { token: 'x' })).statusCode, 400)
  assert.equal((await anon.post('/password-reset/verify', { token: 'not a token!' })).statusCode,
    400)
})

test('reset links are rate limited per member and per client', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const boss = await createUser(ctx.app, 'boss', 'admin')
  const admin = sessionClient(ctx.app, boss)
  const mia = await createUser(ctx.app, 'mia')
  for (let i = 0; i < RESET_LINKS_PER_HOUR; i++) {
    assert.equal((await admin.post(`/users/${mia.id}/reset-link`)).statusCode, 201)
  }
  const limited = await admin.post(`/users/${mia.id}/reset-link`)
  assert.equal(limited.statusCode, 429)
  assert.equal(json<ErrorResponseBody>(limited).code, 'RATE_LIMITED')
  assert.ok(limited.headers['retry-after'])
  ctx.advance(3600_000 + 1000)
  const later = sessionClient(ctx.app, boss)
  assert.equal((await later.post(`/users/${mia.id}/reset-link`)).statusCode, 201)

  // guessing tokens: 5 attempts a minute per client IP
  const anon = anonymous(ctx.app)
  const statuses = []
  for (let i = 0; i < 6; i++) {
    const token = `guess${i}`.padEnd(43, 'x')
    const r = await anon.post('/password-reset', { token, newPassword: NEW_PASSWORD })
    statuses.push(r.statusCode)
  }
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429])
})

/** A port nothing listens on. */
async function deadPort (): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

test('with SMTP_URL the link is also mailed (local SMTP sink); a dead server is reported', async (
  t
) => {
  const { sink, ctx } = await mailingTestApp(t, {
    SMTP_FROM: 'Band <band@example.org>',
    PUBLIC_URL: 'https://band.example.org/'
  })
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const mia = await createUser(ctx.app, 'mia', 'member', { email: 'mia@example.org' })
  const tom = await createUser(ctx.app, 'tom')
  const link = json<Ok<'/users/{id}/reset-link', 'post'>>(
    await admin.post(`/users/${mia.id}/reset-link`))
  assert.equal(link.mail, 'sent')
  assert.match(link.url, /^https:\/\/band\.example\.org\/app\/reset-password#token=/)
  assert.equal(sink.messages.length, 1)
  const mail = sink.messages[0]!.replace(/=\r\n/g, '')
  assert.match(mail, /^To: mia@example\.org/m)
  assert.match(mail, /^From: Band <band@example\.org>/m)
  assert.ok(mail.includes(tokenOf(link.url)), 'the mail carries the link')
  assert.equal(json<Ok<'/users/{id}/reset-link', 'post'>>(
    await admin.post(`/users/${tom.id}/reset-link`)).mail, 'no-email')

  const port = await deadPort()
  const down = await createTestApp({}, {
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    PUBLIC_URL: 'https://band.example.org'
  })
  t.after(() => down.close())
  const admin2 = await userClient(down.app, 'boss', 'admin')
  const mia2 = await createUser(down.app, 'mia', 'member', { email: 'mia@example.org' })
  const failed = await admin2.post(`/users/${mia2.id}/reset-link`)
  assert.equal(failed.statusCode, 201, 'the link is still given to the admin')
  assert.equal(json<Ok<'/users/{id}/reset-link', 'post'>>(failed).mail, 'failed')
})

test('the command line prints a reset link that the API accepts', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const mia = await createUser(ctx.app, 'mia')
  const out: string[] = []
  const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) }
  const env = { DATA_DIR: ctx.dir, PUBLIC_URL: 'https://band.example.org' }
  assert.equal(await runCli(['user:reset-link', 'mia'], env, io), 0)
  const url = out.find((l) => l.startsWith('https://'))!
  assert.match(url, /^https:\/\/band\.example\.org\/app\/reset-password#token=/)
  const reset = await anonymous(ctx.app).post('/password-reset', {
    token: tokenOf(url),
    newPassword: NEW_PASSWORD
  })
  assert.equal(reset.statusCode, 204)
  await login(ctx.app, mia, NEW_PASSWORD)
  assert.equal(await runCli(['user:reset-link', 'nobody'], env, io), 1)
  assert.equal(await runCli(['user:reset-link', 'mia', '--base-url', 'ftp://x'], env, io), 64)
})
