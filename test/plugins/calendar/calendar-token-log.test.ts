import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { connect, type AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser, json, sessionClient } from '#test/helpers.js'
import { buildApp } from '#src/app.js'
import { loadConfig } from '#src/config.js'
import { redactUrl } from '#src/http/log-redaction.js'

// The feed's token is a password in a URL: it never reaches the log, however the request spells
// it or however malformed it is.

test('redactUrl: anything shaped like a token is cut, wherever it stands', () => {
  // 43 characters, as POST /me/calendar gives them.
  const t = 'q7Xb2mKp9LwZr4TfYc8NhV3sJd6GaE1oUi5RlBnMxkS'
  const hex = 'a3f09c1d5e7b28460d9e3c1f7a5b2e8d'
  for (const [url, logged] of [
    [`/cal/ical/${t}?x=1`, '/cal/ical/[redacted]?x=1'],
    [`/cal/./ical/${t}`, '/cal/./ical/[redacted]'],
    [`/cal/ics/${t}`, '/cal/ics/[redacted]'],
    [`/calendar/ical/${t}.ics`, '/calendar/ical/[redacted].ics'],
    [`/cal/ical?t=${t}&u=${hex}`, '/cal/ical?t=[redacted]&u=[redacted]'],
    [`/c%61l/ical/%${t.charCodeAt(0).toString(16)}${t.slice(1)}`, '/cal/ical/[redacted]'],
    [`/%2563al//ical/${encodeURIComponent(t)}`, '/cal//ical/[redacted]'],
    [`/gigs/1?q=${t.slice(0, 21)}`, `/gigs/1?q=${t.slice(0, 21)}`],
    ['/gigs/1?q=%41', '/gigs/1?q=%41'],
    ...['/docs/static/swagger-ui-standalone-preset.js', '/me/calendar'].map((u) => [u, u]),
  ]) {
    assert.equal(redactUrl(url!), logged, url)
  }
  // On the feed route the token is known: gone in any spelling, also where it is short.
  assert.equal(redactUrl('/cal/ical/abc123?x=1', 'abc123'), '/cal/ical/[redacted]?x=1')
  // A spelling that survives the known forms drops the whole query.
  assert.equal(redactUrl('/cal/ical/abc123?x=%61bc123', 'abc123'), '/cal/ical/[redacted][redacted]')
})

test(
  'the feed token never reaches the log: router-decoded spellings, extra ' +
    'slashes, 404s, errors and messages',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
    let log = ''
    const stream = new Writable({
      write (chunk, _enc, done) {
        log += chunk.toString()
        done()
      }
    })
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-42'
    })
    const app = await buildApp({
      config,
      createFirstAdmin: false,
      logger: { level: 'trace', stream }
    })
    try {
      await app.ready()
      const owner = await sessionClient(app, await createUser(app, 'logged'))
      const secret = new URL(json<{ url: string }>(await owner.post('/me/calendar')).url).pathname
        .split('/')
        .pop()!
      assert.ok(secret.length >= 22)
      log = ''
      const spelled = `%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`
      const cases: Array<[string, number]> = [
        [`/cal/ical/${secret}`, 200],
        [`/%63al/ical/${secret}`, 200],
        [`/cal/%69cal/${secret}`, 200],
        [`/cal/ical/${spelled}`, 200],
        [`/cal/ical/${secret}?copy=${secret}&again=${encodeURIComponent(secret)}`, 200],
        [`/cal/ical/${secret}/`, 200],
        [`//cal/ical/${secret}`, 404],
        [`/cal/ical//${secret}`, 404],
        [`/%2563al/ical/${secret}`, 404],
        [`/CAL/ICAL/${secret}`, 404],
        [`/api/cal/ical/${secret}`, 404],
        [`/cal/ical/${secret}/extra`, 404],
        [`/cal/ical/${secret}%`, 400],
        [`/cal/./ical/${secret}`, 200], // inject resolves the dot segment as a browser would
        [`/cal/ics/${secret}`, 404],
        [`/calendar/ical/${secret}`, 404],
        [`/cal/ical?t=${secret}`, 404],
        [`/me/calendar?t=${secret}`, 401],
        [`/gigs?token=${encodeURIComponent(secret)}`, 401]
      ]
      for (const [url, status] of cases) {
        assert.equal((await app.inject({ method: 'GET', url })).statusCode, status, url)
      }
      assert.equal(
        (await app.inject({ method: 'HEAD', url: `/%63al/ical/${secret}` })).statusCode,
        200
      )
      // Error objects and plain messages quoting the URL (Fastify writes some of each).
      app.log.error(
        { err: new Error(`'/%63al/ical/${secret}' is not a valid url component`) },
        'bad url'
      )
      app.log.info(`Route GET://cal/ical/${secret} not found`)
      const lines = log.trim().split('\n')
      // One line per request (src/http/request-log.ts).
      assert.ok(lines.length >= cases.length, 'every request was logged')
      assert.ok(
        lines.filter((line) => line.includes('[redacted]')).length >= cases.length,
        'each feed request was logged, redacted'
      )
      for (const form of [secret, secret.slice(4), encodeURIComponent(secret)]) {
        assert.ok(
          !log.includes(form),
          `token absent from the log:\n${lines.filter((l) => l.includes(form)).join('\n')}`
        )
      }
      // The error keeps its shape: only the secret went.
      const errorLine = JSON.parse(lines.find((line) => line.includes('"bad url"'))!)
      assert.equal(errorLine.err.type, 'Error')
      assert.equal(errorLine.err.message, "'/cal/ical/[redacted]' is not a valid url component")
      assert.match(errorLine.err.stack, /calendar-token-log\.test\.ts/)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
)

test(
  'a malformed request to the feed (client error with the raw packet) keeps ' +
    'the token out of the log',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
    let log = ''
    const stream = new Writable({
      write (chunk, _enc, done) {
        log += chunk.toString()
        done()
      }
    })
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-42'
    })
    const app = await buildApp({
      config,
      createFirstAdmin: false,
      logger: { level: 'trace', stream }
    })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      const secret = 'RawPacketSecretToken0123456789abcdefghijkl'
      const answer = await new Promise<string>((resolve, reject) => {
        let text = ''
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `GET /%63al/ical/${secret} HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n`
          )
        )
        socket.on('data', (chunk) => (text += chunk.toString()))
        socket.on('end', () => resolve(text))
        socket.on('error', reject)
      })
      assert.match(answer, /^HTTP\/1\.1 400/)
      assert.match(log, /client error/)
      assert.ok(!log.includes(secret), 'token absent from the log')
      assert.match(log, /cal\/ical\/\[redacted\]/)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
)
