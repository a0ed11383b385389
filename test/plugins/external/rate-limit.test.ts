import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, createUser, json, PASSWORD, userClient, type ErrorResponseBody
} from '#test/helpers.js'
import type { LightMyRequestResponse } from 'fastify'

function assertLimited (response: LightMyRequestResponse, max: number) {
  assert.equal(response.statusCode, 429)
  const body = json<ErrorResponseBody>(response)
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'])
  assert.equal(body.statusCode, 429)
  assert.equal(body.error, 'Too Many Requests')
  assert.equal(body.code, 'RATE_LIMITED')
  assert.ok(Number(response.headers['retry-after']) > 0)
  assert.equal(response.headers['x-ratelimit-limit'], String(max))
  assert.equal(response.headers['x-ratelimit-remaining'], '0')
  assert.ok(Number(response.headers['x-ratelimit-reset']) > 0)
}

test(
  'the 11th login in a minute from one IP is 429, even with the right password; ' +
    'other IPs are not affected',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    await createUser(ctx.app, 'anna')
    const attempt = (password: string, remoteAddress = '203.0.113.7') =>
      ctx.app.inject({
        method: 'POST',
        url: '/login',
        remoteAddress,
        payload: { username: 'anna', password }
      })
    for (let i = 1; i <= 10; i++) {
      const r = await attempt('wrong password number ' + i)
      assert.equal(r.statusCode, 401)
      assert.equal(r.headers['x-ratelimit-remaining'], String(10 - i))
    }
    assertLimited(await attempt(PASSWORD), 10)
    assert.equal((await attempt(PASSWORD, '203.0.113.8')).statusCode, 200)
  }
)

test(
  'with TRUST_PROXY the client IP comes from X-Forwarded-For; without it the header is ignored',
  async (t) => {
    const trusted = await createTestApp({}, { TRUST_PROXY: '127.0.0.1' })
    t.after(() => trusted.close())
    const send = (ctx: typeof trusted, ip: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'x-forwarded-for': ip },
        payload: {}
      })
    for (let i = 0; i < 10; i++) await send(trusted, '198.51.100.1')
    assert.equal((await send(trusted, '198.51.100.1')).statusCode, 429)
    assert.equal((await send(trusted, '198.51.100.2')).statusCode, 400)

    const untrusted = await createTestApp()
    t.after(() => untrusted.close())
    for (let i = 0; i < 10; i++) await send(untrusted, `198.51.100.${i + 1}`)
    assert.equal(
      (await send(untrusted, '198.51.100.99')).statusCode,
      429,
      'a spoofed header gives no new budget'
    )
  }
)

test(
  'TRUST_PROXY as a hop count or a proxy list: the client is the right-most untrusted hop, so ' +
    'a client-written X-Forwarded-For entry changes nothing',
  async (t) => {
    for (const TRUST_PROXY of ['1', '127.0.0.1', 'loopback']) {
      const ctx = await createTestApp({}, { TRUST_PROXY })
      t.after(() => ctx.close())
      // What nginx's $proxy_add_x_forwarded_for sends: whatever the client wrote, then its address.
      const login = (forwarded: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/login',
          headers: { 'x-forwarded-for': forwarded },
          payload: {}
        })
      for (let i = 0; i < 10; i++) await login(`10.9.9.${i}, 198.51.100.7`)
      const spoofed = await login('203.0.113.1, 198.51.100.7')
      assertLimited(spoofed, 10)
      assert.equal((await login('198.51.100.8')).statusCode, 400, `${TRUST_PROXY}: another client`)
    }
  }
)

test('TRUST_PROXY: two hops, a list, true (left-most, with a warning at start)', async (t) => {
  const Fastify = (await import('fastify')).default
  const { fastifyTrustProxy, loadConfig } = await import('#src/config.js')
  const seen = async (trust: string, socketAddress: string, forwarded: string) => {
    const { trustProxy } = loadConfig({ TRUST_PROXY: trust })
    const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxy) })
    t.after(() => app.close())
    app.get('/', (request) => ({ ip: request.ip, protocol: request.protocol }))
    const r = await app.inject({
      url: '/',
      remoteAddress: socketAddress,
      headers: { 'x-forwarded-for': forwarded, 'x-forwarded-proto': 'https' }
    })
    return json(r) as { ip: string, protocol: string }
  }
  const chain = '203.0.113.66, 198.51.100.7, 10.0.0.2' // spoofed, the client, an inner proxy
  assert.deepEqual(await seen('2', '127.0.0.1', chain), { ip: '198.51.100.7', protocol: 'https' })
  assert.deepEqual(await seen('127.0.0.1,10.0.0.0/8', '127.0.0.1', chain), {
    ip: '198.51.100.7',
    protocol: 'https'
  })
  // A listed proxy only: a client connecting directly cannot speak for anyone else.
  assert.deepEqual(await seen('127.0.0.1', '192.0.2.5', chain), {
    ip: '192.0.2.5',
    protocol: 'http'
  })
  assert.deepEqual(await seen('false', '127.0.0.1', chain), { ip: '127.0.0.1', protocol: 'http' })
  assert.equal((await seen('true', '127.0.0.1', chain)).ip, '203.0.113.66', 'true: the left-most')
  assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.300' }), /TRUST_PROXY/)

  let log = ''
  const warned = await createTestApp({}, { TRUST_PROXY: 'true' }, {
    logger: { level: 'warn', stream: { write: (line: string) => (log += line) } }
  })
  t.after(() => warned.close())
  assert.match(log, /TRUST_PROXY=true trusts every X-Forwarded-For hop/)
})

test('/refresh: 11th in a minute is 429', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anon = anonymous(ctx.app)
  for (let i = 0; i < 10; i++) assert.equal((await anon.post('/refresh')).statusCode, 401)
  assertLimited(await anon.post('/refresh'), 10)
})

test(
  '/change_password: 6th in a minute is 429; /update_user: 11th is 429; the limit window passes',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await userClient(ctx.app, 'anna')
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (
          await anna.put('/change_password', {
            currentPassword: 'not it not it not it',
            newPassword: 'whatever long enough'
          })
        ).statusCode,
        403
      )
    }
    assertLimited(
      await anna.put('/change_password', {
        currentPassword: PASSWORD,
        newPassword: 'a good new passphrase'
      }),
      5
    )
    for (let i = 0; i < 10; i++) {
      assert.equal((await anna.put('/update_user', { displayName: `Anna ${i}` })).statusCode, 200)
    }
    assertLimited(await anna.put('/update_user', { displayName: 'Anna 11' }), 10)
  }
)

test('no global limit: other endpoints take many requests from one IP', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  for (let i = 0; i < 150; i++) {
    const r = await anna.get(i % 2 ? '/me' : '/public/app_config')
    assert.equal(r.statusCode, 200)
    assert.equal(r.headers['x-ratelimit-limit'], undefined)
  }
})
