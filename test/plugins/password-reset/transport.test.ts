import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { networkInterfaces } from 'node:os'
import { SMTPServer } from 'smtp-server'
import { createTestApp, createUser, json, userClient, type Ok } from '#test/helpers.js'
import { ConfigError, loadConfig } from '#src/config.js'
import { createMailer, isLoopbackHost } from '#plugins/password-reset/mailer.js'
import { MAIL_ANSWER_WAIT_MS } from '#plugins/password-reset/routes.js'

/** An SMTP sink without STARTTLS on `host`. */
async function plainSink (host: string) {
  const messages: string[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData (stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => {
        messages.push('mail')
        callback()
      })
    }
  })
  server.listen(0, host)
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return { messages, port, close }
}

/** A server that accepts and then dribbles one byte of its greeting every 50 ms, for ever. */
async function dribbler () {
  const sockets: Socket[] = []
  const server = createServer((socket) => {
    sockets.push(socket)
    const timer = setInterval(() => socket.write('2'), 50)
    socket.on('close', () => clearInterval(timer))
    socket.on('error', () => {})
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((resolve) => server.close(resolve))
    }
  }
}

test('SMTP_URL needs PUBLIC_URL (the link in a mail never takes the request\'s Host)', () => {
  const env = { DATA_DIR: '/tmp/x', SMTP_URL: 'smtp://user:secret@mail.example.org:587' }
  assert.throws(() => loadConfig(env), (error: Error) => {
    assert.ok(error instanceof ConfigError)
    assert.match(error.message, /PUBLIC_URL: required with SMTP_URL/)
    assert.ok(!error.message.includes('secret'))
    return true
  })
  assert.equal(loadConfig({ ...env, PUBLIC_URL: 'https://band.example' }).smtpUrl, env.SMTP_URL)
})

test('smtp:// requires STARTTLS unless the host is loopback', async (t) => {
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) {
    assert.ok(isLoopbackHost(host), host)
  }
  for (const host of ['mail.example.org', '192.0.2.2', '[fd00::2]', 'localhost.example.org']) {
    assert.ok(!isLoopbackHost(host), host)
  }
  const mailer = (url: string) => createMailer(url, 'Band <band@example.org>')
  assert.equal(mailer('smtp://mail.example.org:587').requireTLS, true)
  assert.equal(mailer('smtps://mail.example.org:465').requireTLS, false) // TLS from the start
  assert.equal(mailer('smtp://127.0.0.1:25').requireTLS, false)

  // Through a real server without STARTTLS: refused on another address, sent on loopback.
  const message = { to: 'mia@example.org', subject: 'Link', text: 'secret link' }
  const local = await plainSink('127.0.0.1')
  t.after(() => local.close())
  await mailer(`smtp://127.0.0.1:${local.port}`).send(message)
  assert.equal(local.messages.length, 1)
  const address = Object.values(networkInterfaces()).flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address
  assert.ok(address, 'this machine has a non-loopback IPv4 address')
  const remote = await plainSink(address)
  t.after(() => remote.close())
  await assert.rejects(mailer(`smtp://${address}:${remote.port}`).send(message), /STARTTLS/i)
  assert.equal(remote.messages.length, 0, 'the link never went out in clear text')
})

test('a mail has an overall deadline; a slow server never holds the admin request', async (t) => {
  const slow = await dribbler()
  t.after(() => slow.close())
  const started = Date.now()
  const quick = createMailer(`smtp://127.0.0.1:${slow.port}`, 'band@example.org', 400)
  await assert.rejects(quick.send({ to: 'a@example.org', subject: 's', text: 't' }))
  assert.ok(Date.now() - started < 3000, `gave up after ${Date.now() - started} ms`)

  const ctx = await createTestApp({}, {
    SMTP_URL: `smtp://127.0.0.1:${slow.port}`,
    PUBLIC_URL: 'https://band.example.org'
  })
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const mia = await createUser(ctx.app, 'mia', 'member', { email: 'mia@example.org' })
  const before = Date.now()
  const r = await admin.post(`/users/${mia.id}/reset-link`)
  const took = Date.now() - before
  assert.equal(r.statusCode, 201)
  assert.equal(json<Ok<'/users/{id}/reset-link', 'post'>>(r).mail, 'sending')
  assert.match(json<Ok<'/users/{id}/reset-link', 'post'>>(
    r).url, /^https:\/\/band\.example\.org\/app\/reset-password#token=/)
  assert.ok(took >= MAIL_ANSWER_WAIT_MS - 100 && took < MAIL_ANSWER_WAIT_MS + 2000, `${took} ms`)
})

test('HSTS on answers to HTTPS requests only; preload only when asked', async (t) => {
  const ctx = await createTestApp({}, { TRUST_PROXY: '127.0.0.1' })
  t.after(() => ctx.close())
  const get = (app: typeof ctx.app, proto?: string, host = 'band.example.org') =>
    app.inject({
      url: '/health', headers: { host, ...(proto ? { 'x-forwarded-proto': proto } : {}) }
    })
  assert.equal((await get(ctx.app, 'https')).headers['strict-transport-security'],
    'max-age=31536000')
  assert.equal((await get(ctx.app, 'http')).headers['strict-transport-security'], undefined)
  assert.equal((await get(ctx.app)).headers['strict-transport-security'], undefined)
  // a 404 and a refused cross-site write over HTTPS carry it too
  const missing = await ctx.app.inject({
    url: '/nope', headers: { host: 'band.example.org', 'x-forwarded-proto': 'https' }
  })
  assert.equal(missing.headers['strict-transport-security'], 'max-age=31536000')
  // Never for a LAN or mDNS name or an address: a year of it locks phones out without the proxy.
  for (const host of ['pi.local', 'PI.LOCAL:8443', 'bandstand.lan', 'nas.home.arpa', 'bandstand',
    'localhost', '192.168.1.10', '192.168.1.10:443', '[fd00::1]', '[::1]:8443']) {
    assert.equal((await get(ctx.app, 'https', host)).headers['strict-transport-security'],
      undefined, host)
  }

  const preload = await createTestApp({}, { TRUST_PROXY: '127.0.0.1', HSTS_PRELOAD: 'true' })
  t.after(() => preload.close())
  assert.equal((await get(preload.app, 'https')).headers['strict-transport-security'],
    'max-age=31536000; includeSubDomains; preload')
})
