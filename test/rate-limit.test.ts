import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, createUser, json, PASSWORD, userClient } from './helpers.js'
import type { LightMyRequestResponse } from 'fastify'

function assertLimited (response: LightMyRequestResponse, max: number) {
  assert.equal(response.statusCode, 429)
  const body = json(response)
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
