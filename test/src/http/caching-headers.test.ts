import { test } from 'node:test'
import assert from 'node:assert/strict'
import { connect, type AddressInfo } from 'node:net'
import { anonymous, createTestApp, userClient, type TestContext } from '#test/helpers.js'
import { createGig } from '#test/gig-fixtures.js'
import { SECURITY_HEADERS } from '#src/http/security-headers.js'

async function listen (ctx: TestContext) {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  return (ctx.app.server.address() as AddressInfo).port
}

/** Writes raw bytes to the server and reads its answer until it closes the connection. */
function raw (port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    socket.on('end', () => resolve(answer))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.write(bytes)
  })
}

const headersOf = (answer: string) =>
  Object.fromEntries(
    answer
      .split('\r\n\r\n')[0]!
      .split('\r\n')
      .slice(1)
      .map((line) => {
        const i = line.indexOf(':')
        return [line.slice(0, i).toLowerCase(), line.slice(i + 1).trim()]
      })
  )

test('session data stays out of caches: private, no-store unless a route says', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const mia = await userClient(ctx.app, 'mia')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  await createGig(editor, { date: '2026-07-04' })
  for (const [who, url] of [
    [mia, '/me'],
    [mia, '/me/sessions'],
    [admin, '/users'],
    [mia, '/stats'],
    [mia, '/singers'],
    [mia, '/me/calendar'],
    [editor, '/exports/seasons/2026'],
    [mia, '/gigs/999'] // an error of a session's route too
  ] as const) {
    const r = await who.get(url)
    assert.ok(r.statusCode < 500, `${url}: ${r.statusCode}`)
    assert.equal(r.headers['cache-control'], 'private, no-store', `${url} (${r.statusCode})`)
  }
  // a write, and the login (it sets the session cookies)
  const created = await editor.post('/gigs', { name: 'Fest', date: '2026-08-01' })
  assert.equal(created.headers['cache-control'], 'private, no-store')
  const login = await anonymous(ctx.app).post('/login', { username: 'mia', password: 'x' })
  assert.equal(login.headers['cache-control'], 'private, no-store')
  // routes with their own rule keep it: revalidated answers, public files
  const songs = await mia.get('/songs')
  assert.equal(songs.headers['cache-control'], 'private, no-cache')
  assert.ok(songs.headers.etag)
  // public answers to anyone are not touched
  assert.equal((await anonymous(ctx.app).get('/health')).headers['cache-control'], undefined)
})

test('Node-level 400 and 431 answers and event streams carry the security headers', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const port = await listen(ctx)
  const bad = await raw(port, 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')
  assert.match(bad, /^HTTP\/1\.1 400 /)
  const huge = await raw(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}` +
    '\r\n\r\n')
  assert.match(huge, /^HTTP\/1\.1 431 /)
  for (const answer of [bad, huge]) {
    const headers = headersOf(answer)
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      assert.equal(headers[name], value, `${answer.slice(0, 15)} ${name}`)
    }
    const body = JSON.parse(answer.split('\r\n\r\n')[1]!)
    assert.equal(body.code, 'BAD_REQUEST')
    assert.equal(headers['content-length'], String(Buffer.byteLength(answer.split('\r\n\r\n')[1]!)))
  }

  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const gig = await createGig(editor)
  const controller = new AbortController()
  t.after(() => controller.abort())
  const stream = await fetch(`http://127.0.0.1:${port}/gigs_lm/${gig.id}/events`, {
    headers: { cookie: editor.jar.header() },
    signal: controller.signal
  })
  assert.equal(stream.status, 200)
  assert.match(stream.headers.get('content-type')!, /^text\/event-stream/)
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    assert.equal(stream.headers.get(name), value, name)
  }
  controller.abort()
})
