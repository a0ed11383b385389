import { test } from 'node:test'
import assert from 'node:assert/strict'
import { statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp, userClient } from '#test/helpers.js'
import { phoneKeys } from '#test/push-service.js'
import { ensureVapidKeys, VAPID_FILE, vapidSubject } from '#plugins/notifications/push-keys.js'
import { PUSH_LIMITS } from '#shared/limits.js'
import { ConfigError } from '#src/config.js'

const subscription = (endpoint: string, keys = phoneKeys().keys) =>
  ({ endpoint, expirationTime: null, keys })

test('the VAPID key pair is made once, kept 0600 in DATA_DIR, and a broken file stops the start',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-vapid-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const first = ensureVapidKeys(dir)
    assert.equal(statSync(join(dir, VAPID_FILE)).mode & 0o777, 0o600)
    assert.equal(Buffer.from(first.publicKey, 'base64url').length, 65)
    assert.deepEqual(ensureVapidKeys(dir), first, 'the same keys after a restart')
    writeFileSync(join(dir, VAPID_FILE), '{"publicKey":"short"}')
    assert.throws(() => ensureVapidKeys(dir), ConfigError)
    writeFileSync(join(dir, VAPID_FILE), 'not json')
    assert.throws(() => ensureVapidKeys(dir), /holds no VAPID key pair/)
    assert.equal(vapidSubject('https://band.example', 'x@y'), 'https://band.example')
    assert.equal(vapidSubject('http://10.0.0.2:3000', 'Band <band@example.org>'),
      'mailto:band@example.org')
    assert.equal(vapidSubject(undefined, 'band@example.org'), 'mailto:band@example.org')
  })

test('GET /push/key answers the kept public key to members only', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const key = await anna.get('/push/key')
  assert.equal(key.statusCode, 200)
  assert.equal(key.json().publicKey, ensureVapidKeys(ctx.dir).publicKey)
  assert.equal((await ctx.app.inject({ url: '/push/key' })).statusCode, 401)
})

test('a member subscribes a phone, lists it, and turns it off again', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const bert = await userClient(ctx.app, 'bert')
  const endpoint = 'https://push.example.net/send/abc'
  const made = await anna.post('/me/push-subscriptions', subscription(endpoint))
  assert.equal(made.statusCode, 201)
  assert.equal(made.json().endpoint, endpoint)
  const list = (await anna.get('/me/push-subscriptions')).json()
  assert.equal(list.limit, PUSH_LIMITS.perUser)
  assert.deepEqual(list.subscriptions.map((s: { endpoint: string }) => s.endpoint), [endpoint])
  assert.deepEqual((await bert.get('/me/push-subscriptions')).json().subscriptions, [])

  // Bert logs in on the same phone and turns push on: the subscription is his now.
  const again = await bert.post('/me/push-subscriptions', subscription(endpoint))
  assert.equal(again.statusCode, 201)
  assert.equal(again.json().id, made.json().id)
  assert.deepEqual((await anna.get('/me/push-subscriptions')).json().subscriptions, [])
  const foreign = await anna.request('DELETE', '/me/push-subscriptions', { endpoint })
  assert.equal(foreign.statusCode, 404)
  assert.equal(foreign.json().code, 'PUSH_SUBSCRIPTION_NOT_FOUND')
  assert.equal((await bert.request('DELETE', '/me/push-subscriptions', { endpoint })).statusCode,
    204)
  assert.equal((await bert.request('DELETE', '/me/push-subscriptions', { endpoint })).statusCode,
    404)

  assert.equal((await ctx.app.inject({ url: '/me/push-subscriptions' })).statusCode, 401)
  const anonymous = await ctx.app.inject({
    method: 'POST', url: '/me/push-subscriptions', payload: subscription(endpoint)
  })
  assert.equal(anonymous.statusCode, 401)
  const crossSite = await anna.post('/me/push-subscriptions', subscription(endpoint),
    { origin: 'https://evil.example' })
  assert.equal(crossSite.statusCode, 403)
})

test('a subscription must name an https push service and carry valid keys', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const refused = async (body: unknown, code = 'INVALID_PUSH_SUBSCRIPTION') => {
    const res = await anna.post('/me/push-subscriptions', body)
    assert.equal(res.statusCode, 400, JSON.stringify(body))
    assert.equal(res.json().code, code)
    return res.json().message as string
  }
  assert.match(await refused(subscription('http://push.example.net/x')), /https/)
  assert.match(await refused(subscription('http://127.0.0.1:9/x')), /https/)
  assert.match(await refused(subscription('https://localhost/x')), /push service/)
  assert.match(await refused(subscription('https://10.1.2.3/x')), /push service/)
  assert.match(await refused(subscription('https://[::1]/x')), /push service/)
  assert.match(await refused(subscription('not a url')), /no URL/)
  assert.match(await refused(subscription('https://u:p@push.example.net/x')), /user name/)
  const good = phoneKeys().keys
  assert.match(await refused(subscription('https://push.example.net/x',
    { ...good, p256dh: good.auth })), /p256dh/)
  assert.match(await refused(subscription('https://push.example.net/x',
    { ...good, auth: good.p256dh })), /auth/)
  await refused(subscription(`https://push.example.net/${'x'.repeat(PUSH_LIMITS.endpoint)}`),
    'VALIDATION_ERROR')
  await refused({ endpoint: 'https://push.example.net/x' }, 'VALIDATION_ERROR')
  await refused({ ...subscription('https://push.example.net/x'), extra: 1 }, 'VALIDATION_ERROR')
  await refused(subscription('https://push.example.net/x', { p256dh: 'a b', auth: 'c' }),
    'VALIDATION_ERROR')
  assert.equal((await anna.request('DELETE', '/me/push-subscriptions', {})).statusCode, 400)
  assert.deepEqual((await anna.get('/me/push-subscriptions')).json().subscriptions, [])
})

test('plain-HTTP endpoints on this machine only with PUSH_LOCAL_ENDPOINTS', async (t) => {
  const ctx = await createTestApp({}, { PUSH_LOCAL_ENDPOINTS: 'true' })
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  assert.equal((await anna.post('/me/push-subscriptions',
    subscription('http://127.0.0.1:9/x'))).statusCode, 201)
  assert.equal((await anna.post('/me/push-subscriptions',
    subscription('http://localhost:9/x'))).statusCode, 201)
  assert.equal((await anna.post('/me/push-subscriptions',
    subscription('http://push.example.net/x'))).statusCode, 400)
})

test('a member has at most the limit of subscriptions; renewing one is no new one', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  for (let i = 0; i < PUSH_LIMITS.perUser; i++) {
    const res = await anna.post('/me/push-subscriptions', subscription(`https://push.example.net/${i}`))
    assert.equal(res.statusCode, 201)
  }
  const over = await anna.post('/me/push-subscriptions', subscription('https://push.example.net/x'))
  assert.equal(over.statusCode, 409)
  assert.equal(over.json().code, 'LIMIT_REACHED')
  const renewed = await anna.post('/me/push-subscriptions',
    subscription('https://push.example.net/0'))
  assert.equal(renewed.statusCode, 201, 'new keys for a known phone')
})
