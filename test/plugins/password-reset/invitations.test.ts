import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  createTestApp,
  createUser,
  json,
  login,
  PASSWORD,
  sessionClient,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { mailingTestApp } from '#test/smtp-sink.js'
import { ConfigError, loadConfig } from '#src/config.js'

const FIRST_PASSWORD = 'my very own first passphrase'
const DAY = 24 * 3600_000
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '')
/** The app's clock runs on: made a moment ago, for this long. */
const assertLasts = (expiresAt: string, ms: number, now: Date) => {
  const life = Date.parse(expiresAt) - now.getTime()
  assert.ok(life <= ms && life > ms - 10_000, `${life} ms`)
}
const member = (username: string) => ({ username, displayName: username, role: 'member' })

test('a member created without a password gets a 7-day, single-use invite link', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const boss = await userClient(ctx.app, 'boss', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const anon = anonymous(ctx.app)

  const created = await boss.post('/users', member('mia'))
  assert.equal(created.statusCode, 201, created.body)
  const mia = json<Ok<'/users', 'post'>>(created)
  assert.equal(mia.username, 'mia')
  assert.equal(mia.passwordChangeRequired, false)
  assert.equal(mia.invite!.mail, 'not-configured')
  assert.match(mia.invite!.url, /^http:\/\/localhost(:\d+)?\/app\/reset-password#token=[\w-]{43}$/)
  assertLasts(mia.invite!.expiresAt, 7 * DAY, ctx.now())
  const token = tokenOf(mia.invite!.url)
  // nobody can log in as the member before they chose a password
  const guess = await anon.post('/login', { username: 'mia', password: PASSWORD })
  assert.equal(guess.statusCode, 401)

  const info = await anon.post('/password-reset/verify', { token })
  assert.equal(info.statusCode, 200)
  assert.deepEqual(json<Ok<'/password-reset/verify', 'post'>>(info), {
    username: 'mia',
    displayName: 'mia',
    expiresAt: mia.invite!.expiresAt,
    kind: 'invite'
  })
  // another member's reset link two days later does not clear the invitation away
  ctx.advance(2 * DAY)
  const other = await createUser(ctx.app, 'tom')
  const boss2 = sessionClient(ctx.app, boss.user)
  assert.equal((await boss2.post(`/users/${other.id}/reset-link`)).statusCode, 201)
  assert.equal((await anon.post('/password-reset/verify', { token })).statusCode, 200)

  // the policy applies; redeeming sets the first password, no change asked afterwards
  const weak = await anon.post('/password-reset', { token, newPassword: 'short' })
  assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
  const used = await anon.post('/password-reset', { token, newPassword: FIRST_PASSWORD })
  assert.equal(used.statusCode, 204, used.body)
  const miaClient = await login(ctx.app, { id: mia.id, username: 'mia', role: 'member' },
    FIRST_PASSWORD)
  const me = await miaClient.get('/me')
  assert.equal(me.statusCode, 200, me.body)
  // single use
  const again = await anon.post('/password-reset', { token, newPassword: `${FIRST_PASSWORD}!` })
  assert.equal(again.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(again).code, 'RESET_TOKEN_INVALID')

  // expiry: works until the seventh day is over, not a second longer
  const lea = json<Ok<'/users', 'post'>>(await boss2.post('/users', member('lea')))
  const leaToken = tokenOf(lea.invite!.url)
  ctx.advance(7 * DAY - 1000)
  assert.equal((await anon.post('/password-reset/verify', { token: leaToken })).statusCode, 200)
  ctx.advance(2000)
  const late = await anon.post('/password-reset', { token: leaToken, newPassword: FIRST_PASSWORD })
  assert.equal(late.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(late).code, 'RESET_TOKEN_INVALID')
  // the admin sends a new link (a reset link, 24 hours) to a member whose invitation expired
  const boss3 = sessionClient(ctx.app, boss.user)
  const renewed = await boss3.post(`/users/${lea.id}/reset-link`)
  assert.equal(renewed.statusCode, 201, renewed.body)
  const fresh = tokenOf(json<Ok<'/users/{id}/reset-link', 'post'>>(renewed).url)
  assert.equal(
    (await anon.post('/password-reset', { token: fresh, newPassword: FIRST_PASSWORD })).statusCode,
    204
  )

  // 401, 403, 400, 404
  assert.equal((await anon.post('/users', member('max'))).statusCode, 401)
  const editor2 = sessionClient(ctx.app, editor.user)
  assert.equal((await editor2.post('/users', member('max'))).statusCode, 403)
  const noName = await boss3.post('/users', { displayName: 'Max', role: 'member' })
  assert.equal(noName.statusCode, 400)
  const weakInitial = await boss3.post('/users', { ...member('max'), password: 'short' })
  assert.equal(json<ErrorResponseBody>(weakInitial).code, 'WEAK_PASSWORD')
  assert.equal(json<ErrorResponseBody>(
    await boss3.post('/users/999/reset-link')).code, 'USER_NOT_FOUND')
  // nothing half-written: the refused requests left no user behind
  const names = json<Ok<'/users', 'get'>>(
    await boss3.get('/users')).map((u: { username: string }) => u.username)
  assert.ok(!names.includes('max'))
  // a taken name: 409, and no stray invitation either
  assert.equal(json<ErrorResponseBody>(
    await boss3.post('/users', member('MIA'))).code, 'USERNAME_TAKEN')
})

test('a password an admin sets for someone else must be changed at first login', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const boss = await userClient(ctx.app, 'boss', 'admin')
  // even when an older client says otherwise
  const created = await boss.post('/users', {
    ...member('mia'),
    password: PASSWORD,
    passwordChangeRequired: false
  })
  assert.equal(created.statusCode, 201, created.body)
  const mia = json<Ok<'/users', 'post'>>(created)
  assert.equal(mia.passwordChangeRequired, true)
  assert.equal(mia.invite, undefined)
  const miaClient = await login(ctx.app, { id: mia.id, username: 'mia', role: 'member' })
  const held = await miaClient.get('/gigs')
  assert.equal(held.statusCode, 403)
  assert.equal(json<ErrorResponseBody>(held).code, 'PASSWORD_CHANGE_REQUIRED')

  // a new password set by the admin: required again; the admin's own: not
  const tom = await createUser(ctx.app, 'tom')
  const patched = await boss.patch(`/users/${tom.id}`, { password: `${PASSWORD} new` })
  assert.equal(patched.statusCode, 200, patched.body)
  assert.equal(json<Ok<'/users/{id}', 'patch'>>(patched).passwordChangeRequired, true)
  const own = await boss.patch(`/users/${boss.user.id}`, { password: `${PASSWORD} mine` })
  assert.equal(own.statusCode, 200, own.body)
  assert.equal(json<Ok<'/users/{id}', 'patch'>>(own).passwordChangeRequired, false)
})

test('ADMIN_RESET_LINK_HOURS sets how long an admin reset link lasts', async (t) => {
  assert.equal(loadConfig({ DATA_DIR: '/tmp/x' }).adminResetLinkHours, 24)
  assert.throws(() => loadConfig({ DATA_DIR: '/tmp/x', ADMIN_RESET_LINK_HOURS: '0' }), ConfigError)
  assert.throws(() => loadConfig({ DATA_DIR: '/tmp/x', ADMIN_RESET_LINK_HOURS: '2h' }), ConfigError)
  const ctx = await createTestApp({}, { ADMIN_RESET_LINK_HOURS: '2' })
  t.after(() => ctx.close())
  const boss = await userClient(ctx.app, 'boss', 'admin')
  const mia = await createUser(ctx.app, 'mia')
  const link = json<Ok<'/users/{id}/reset-link', 'post'>>(
    await boss.post(`/users/${mia.id}/reset-link`))
  assertLasts(link.expiresAt, 2 * 3600_000, ctx.now())
})

test('with SMTP_URL the invitation is mailed to the new member', async (t) => {
  const { sink, ctx } = await mailingTestApp(t)
  const boss = await userClient(ctx.app, 'boss', 'admin')
  const created = await boss.post('/users', { ...member('mia'), email: 'mia@example.org' })
  assert.equal(created.statusCode, 201, created.body)
  const { invite } = json<Ok<'/users', 'post'>>(created)
  assert.equal(invite!.mail, 'sent')
  assert.match(invite!.url, /^https:\/\/band\.example\.org\/app\/reset-password#token=/)
  assert.equal(sink.messages.length, 1)
  const mail = sink.messages[0]!.replace(/=\r\n/g, '')
  assert.match(mail, /^To: mia@example\.org/m)
  assert.ok(mail.includes(tokenOf(invite!.url)), 'the mail carries the link')
  assert.match(mail, /7 Tage/)
  const noMail = json<Ok<'/users', 'post'>>(await boss.post('/users', member('tom')))
  assert.equal(noMail.invite!.mail, 'no-email')
})
