import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, get, type IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { Writable } from 'node:stream'
import { FILE_CHUNK_BYTES, FileBody } from '#src/files/file-body.js'

const dir = mkdtempSync(join(tmpdir(), 'bandstand-file-body-'))
test.after(() => rmSync(dir, { recursive: true, force: true }))
const content = randomBytes(5 * FILE_CHUNK_BYTES + 123)
const path = join(dir, 'file')
writeFileSync(path, content)
/** How often this process has the file open (Linux). */
const openFiles = () => readdirSync('/proc/self/fd').filter((fd) => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === path
  } catch {
    return false
  }
}).length

/** A server answering each request with the file's bytes from `range`. */
async function serve (range: { start: number, end: number }) {
  const server = createServer((_request, response) => {
    response.setHeader('content-length', range.end - range.start + 1)
    new FileBody(path, range).pipe(response)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  const fetchBody = async (pause = 0) => {
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(`http://127.0.0.1:${port}/`, { agent: false }, resolve))
    // A slow reader: the socket fills and the body waits for 'drain'.
    if (pause) {
      response.pause()
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }
  return { server, port, fetchBody }
}

/** A destination that takes each chunk after a turn, or fails every write. */
const slowSink = (chunks: Buffer[], fail = false) => new Writable({
  highWaterMark: 1,
  write (chunk: Buffer, _encoding, done) {
    chunks.push(Buffer.from(chunk))
    setImmediate(() => done(fail ? new Error('the socket broke') : null))
  }
})

test('a file body sends the whole file and a range, in parallel and to a slow reader', async () => {
  const whole = await serve({ start: 0, end: content.length - 1 })
  const bodies = await Promise.all([whole.fetchBody(300), ...Array.from({ length: 5 },
    () => whole.fetchBody())])
  for (const body of bodies) assert.ok(body.equals(content))
  await new Promise((resolve) => whole.server.close(resolve))
  const range = await serve({ start: FILE_CHUNK_BYTES - 10, end: 2 * FILE_CHUNK_BYTES + 5 })
  const part = await range.fetchBody()
  assert.ok(part.equals(content.subarray(FILE_CHUNK_BYTES - 10, 2 * FILE_CHUNK_BYTES + 6)))
  await new Promise((resolve) => range.server.close(resolve))
  assert.equal(openFiles(), 0, 'every file is closed')
})

test('a file body read by anything but a pipe ends at once (HEAD); 40 at once reuse chunks',
  async () => {
    const chunks: Buffer[] = []
    for await (const chunk of new FileBody(path, { start: 0, end: 9 })) chunks.push(chunk)
    assert.deepEqual(chunks, [])

    const sinks = Array.from({ length: 40 }, () => [] as Buffer[])
    await Promise.all(sinks.map(async (received) => {
      const sink = slowSink(received)
      new FileBody(path, { start: 0, end: content.length - 1 }).pipe(sink)
      await once(sink, 'finish')
    }))
    for (const received of sinks) assert.ok(Buffer.concat(received).equals(content))
  })

test('a client that goes away, a failing socket, a missing or shortened file: the file closes',
  async () => {
    const whole = await serve({ start: 0, end: content.length - 1 })
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(`http://127.0.0.1:${whole.port}/`, { agent: false }, resolve))
    response.pause()
    response.destroy()
    await new Promise((resolve) => whole.server.close(resolve))

    const failing = new FileBody(path, { start: 0, end: content.length - 1 })
    const received: Buffer[] = []
    const sink = slowSink(received, true)
    sink.on('error', () => {})
    failing.pipe(sink)
    await once(failing, 'close')
    assert.equal(received.length, 1, 'no read after the failed write')

    const missing = new FileBody(join(dir, 'missing'), { start: 0, end: 9 })
    missing.pipe(slowSink([]))
    const [error] = await once(missing, 'error') as [NodeJS.ErrnoException]
    assert.equal(error.code, 'ENOENT')

    const short = new FileBody(path, { start: 0, end: content.length + 99 })
    short.pipe(slowSink([]))
    const [shortError] = await once(short, 'error') as [Error]
    assert.match(shortError.message, /ended before its expected size/)

    const directory = new FileBody(dir, { start: 0, end: 9 })
    directory.pipe(slowSink([]))
    const [readError] = await once(directory, 'error') as [NodeJS.ErrnoException]
    assert.equal(readError.code, 'EISDIR')

    // Destroyed while a read is in flight (a fast sink: the next read starts at once), and while
    // it waits for the sink to drain.
    for (const [highWaterMark, delay] of [[FILE_CHUNK_BYTES * 8, 0], [1, 5]] as const) {
      const body: FileBody = new FileBody(path, { start: 0, end: content.length - 1 })
      let taken = 0
      body.pipe(new Writable({
        highWaterMark,
        write (_chunk, _encoding, done) {
          if (taken++ === 0) setImmediate(() => body.destroy())
          if (delay) setTimeout(done, delay)
          else done()
        }
      }))
      await once(body, 'close')
      assert.ok(taken < 5, 'no reads after the body was destroyed')
    }

    // Every byte written, the last write waiting for 'drain': the client has the whole body
    // (it counts the content-length) and hangs up, and a closed socket never drains.
    const last = new FileBody(path, { start: 0, end: 9 })
    const stuck = new Writable({ highWaterMark: 1, write () {} })
    stuck.on('error', () => {})
    last.pipe(stuck)
    while (stuck.writableLength === 0) await new Promise((resolve) => setImmediate(resolve))
    stuck.destroy()
    await once(stuck, 'close')
    assert.ok(last.destroyed, 'the body stops when the reply closes after its last write')

    const early = new FileBody(path, { start: 0, end: 9 })
    early.pipe(slowSink([]))
    early.destroy()
    await once(early, 'close')
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(openFiles(), 0, 'every file is closed')
  })
