import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, get as httpGet, type IncomingMessage } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { NETWORK_TIMEOUTS } from '#src/app.js'
import { fastifyTrustProxy } from '#src/config.js'
import { clientIdentifier, refuseBusy, REQUEST_TURNS } from '#src/http/http-server.js'
import { SECURITY_HEADERS } from '#src/http/security-headers.js'
import { client, createTestApp, createUser, PASSWORD } from '#test/helpers.js'

test('the Node server is set up as Fastify sets up its own, the scheduler in front', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const server = ctx.app.server
  assert.equal(server.keepAliveTimeout, NETWORK_TIMEOUTS.keepAliveMs)
  assert.equal(server.requestTimeout, NETWORK_TIMEOUTS.requestMs)
  assert.equal(server.headersTimeout, NETWORK_TIMEOUTS.headersMs)
  assert.equal(server.timeout, NETWORK_TIMEOUTS.idleMs)
  assert.equal(server.listeners('request')[0], ctx.app.requestTurns.admit)
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  assert.equal((await fetch(`${base}/health`)).status, 200)
})

test('refused beyond the waiting limits: 503 SERVER_BUSY, Retry-After, closed', async (t) => {
  const server = createServer(refuseBusy)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  const { port } = server.address() as AddressInfo
  const response = await new Promise<IncomingMessage>((resolve) =>
    httpGet(`http://127.0.0.1:${port}/songs`, resolve))
  let body = ''
  for await (const chunk of response) body += chunk
  assert.equal(response.statusCode, 503)
  assert.equal(response.headers['retry-after'], String(REQUEST_TURNS.retryAfterSeconds))
  assert.equal(response.headers.connection, 'close')
  assert.match(String(response.headers['content-type']), /^application\/json/)
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.equal(response.headers[name], value, name)
  }
  assert.deepEqual(JSON.parse(body), {
    statusCode: 503,
    error: 'Service Unavailable',
    code: 'SERVER_BUSY',
    message: 'the server has more requests waiting than it takes; retry in 1 s'
  })
})

/** A request as the scheduler sees it: headers and the socket's peer. */
const request = (headers: Record<string, string>, remoteAddress = '192.0.2.10') =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage

test(
  'who a request is from: the member of a validly signed access token (either cookie name), ' +
    'else the address, behind a proxy the right-most untrusted hop',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await createUser(ctx.app, 'anna')
    const session = client(ctx.app, anna)
    await session.post('/login', { username: 'anna', password: PASSWORD })
    const token = session.jar.get('access_token')!
    const direct = clientIdentifier(fastifyTrustProxy(false), ctx.app.memberOfToken)
    const member = {
      id: `member:${anna.id}`,
      maxWaiting: REQUEST_TURNS.maxWaitingPerMember,
      member: true
    }
    const address = (ip: string) => ({
      id: `address:${ip}`,
      maxWaiting: REQUEST_TURNS.maxWaitingPerAddress
    })

    assert.deepEqual(direct(request({ cookie: `theme=dark; access_token=${token}` })), member)
    assert.deepEqual(direct(request({ cookie: `__Host-access_token=${token}` })), member)
    // A token that was never signed here, a damaged one, none: the address.
    const forged = `${token.split('.').slice(0, 2).join('.')}.AAAA`
    assert.deepEqual(direct(request({ cookie: `access_token=${forged}` })), address('192.0.2.10'))
    assert.deepEqual(direct(request({ cookie: 'access_token=' })), address('192.0.2.10'))
    assert.deepEqual(direct(request({})), address('192.0.2.10'))
    // X-Forwarded-For counts only behind a trusted proxy.
    const spoofed = { 'x-forwarded-for': '203.0.113.5' }
    assert.deepEqual(direct(request(spoofed)), address('192.0.2.10'))
    const behindOne = clientIdentifier(fastifyTrustProxy({ hops: 1 }), ctx.app.memberOfToken)
    const forwarded = { 'x-forwarded-for': '203.0.113.5, 198.51.100.7' }
    assert.deepEqual(behindOne(request(forwarded, '127.0.0.1')), address('198.51.100.7'))
    // IPv6: a client's /64 is one client (it could take a new address in it per request)
    assert.deepEqual(direct(request({}, '2001:db8:7:8:1::1')), address('2001:db8:7:8::/64'))
    assert.deepEqual(direct(request({}, '2001:db8:7:8:ffff::2')), address('2001:db8:7:8::/64'))
    assert.deepEqual(direct(request({}, '::ffff:192.0.2.10')), address('192.0.2.10'))
  }
)
