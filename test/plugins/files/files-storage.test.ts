import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  closeSync,
  mkdirSync,
  readFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync
} from 'node:fs'
import { createHash, randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  anonymous,
  createTestApp,
  json,
  userClient,
  type ErrorResponseBody
} from '#test/helpers.js'
import { insertSong } from '#test/gig-fixtures.js'
import { pdfFile, upload, wavFile } from '#test/file-fixtures.js'

const incoming = (dir: string) => readdirSync(join(dir, 'files', '.incoming'))

async function until (what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** A band's server listening on a port, an editor and a song to upload to. */
async function listeningBand (t: { after (fn: () => unknown): void }) {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'erika', 'editor')
  const songId = insertSong(ctx.app, 'Song')
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = ctx.app.server.address() as { port: number }
  return { app: ctx.app, dir: ctx.dir, editor, songId, port }
}

test('an upload streams to disk, and a client that goes away mid-upload leaves nothing',
  async (t) => {
    const { app, dir, editor, songId, port } = await listeningBand(t)

    const boundary = 'cut-off'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nDemo\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nsheet\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n'
    const socket = connect(port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(`POST /songs/${songId}/files HTTP/1.1\r\nHost: localhost\r\n` +
      `Cookie: ${editor.jar.header()}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${10 * 1024 * 1024}\r\n\r\n${head}`)
    socket.write(pdfFile('Half', 512 * 1024))
    // The bytes arrive on disk while the upload goes on: it is streamed, not held in memory.
    await until('the partial file', () =>
      incoming(dir).some((name) => statSync(join(dir, 'files', '.incoming', name)).size > 0))
    socket.destroy()
    await until('the partial file to be removed', () => incoming(dir).length === 0)
    assert.equal(app.sqlite.prepare('SELECT count(*) FROM files').pluck().get(), 0)
    assert.deepEqual(readdirSync(join(dir, 'files')), ['.incoming'])
  })

test('an upload over a socket stores every byte, however its pieces fall', async (t) => {
  const { dir, editor, songId, port } = await listeningBand(t)

  // 3 MB of a recording in pieces of 1 byte to 64 KiB; most end with the first bytes of the
  // boundary, which the multipart parser holds back until the next piece tells.
  const boundary = 'pieces'
  const lookalike = Buffer.from(`\r\n--${boundary}`)
  const content = [wavFile(0)]
  for (let i = 1, bytes = 0; bytes < 3 * 1024 * 1024; i++) {
    const piece = Buffer.concat([randomBytes((i * 7919) % 65_536 + 1),
      lookalike.subarray(0, i % lookalike.length)])
    content.push(piece)
    bytes += piece.length
  }
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"` +
    `\r\n\r\nDemo\r\n--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n` +
    `recording\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
    'filename="demo.wav"\r\nContent-Type: audio/wav\r\n\r\n')
  const pieces = [head, ...content, Buffer.from(`\r\n--${boundary}--\r\n`)]
  const body = Buffer.concat(pieces)
  const stored = Buffer.concat(content)

  const response = await new Promise<{ status: number, text: string }>((resolve, reject) => {
    const req = request(`http://127.0.0.1:${port}/songs/${songId}/files`, {
      method: 'POST',
      headers: {
        cookie: editor.jar.header(),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length
      }
    }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, text }))
    })
    req.on('error', reject)
    void (async () => {
      for (const piece of pieces) {
        if (!req.write(piece)) await new Promise((resolve) => req.once('drain', resolve))
      }
      req.end()
    })()
  })
  assert.equal(response.status, 201, response.text)
  const sha256 = createHash('sha256').update(stored).digest('hex')
  assert.equal(JSON.parse(response.text).file.sha256, sha256)
  assert.deepEqual(readFileSync(join(dir, 'files', sha256.slice(0, 2), sha256)), stored)
  assert.deepEqual(incoming(dir), [])
})

interface Storage { dir: string, cleanup(): void }

/** A small tmpfs (as root, as in CI); undefined where mounting is not possible. */
function smallDisk (): Storage | undefined {
  if (process.getuid?.() !== 0) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-files-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', dir],
      { stdio: 'ignore' })
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return undefined
  }
  return {
    dir,
    cleanup () {
      execFileSync('umount', [dir])
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Fills the file system up to the last byte; returns a function that frees it again. */
function fillUp (dir: string): () => void {
  const file = join(dir, 'filler')
  const fd = openSync(file, 'w')
  for (const size of [1024 * 1024, 4096, 1]) {
    const block = Buffer.alloc(size, 1)
    try {
      for (;;) writeSync(fd, block)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
    }
  }
  closeSync(fd)
  return () => unlinkSync(file)
}

test('a full disk: 503 STORAGE_FAILED, nothing half-written, /health says so; then uploads ' +
  'work again', async (t) => {
  const storage = smallDisk()
  if (!storage) {
    t.skip('needs root to mount a tmpfs (CI runs as root)')
    return
  }
  const dataDir = join(storage.dir, 'data')
  mkdirSync(dataDir)
  const ctx = await createTestApp({
    dataDir,
    databaseFile: join(dataDir, 'bandstand.db'),
    minFreeMb: 1
  })
  t.after(() => ctx.close().finally(() => storage.cleanup()))
  const { app } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const url = `/songs/${insertSong(app, 'Song')}/files`
  app.sqlite.pragma('wal_checkpoint(TRUNCATE)')

  const free = fillUp(storage.dir)
  const refused = await upload(editor, url, pdfFile('Full', 256 * 1024), { kind: 'sheet' })
  const health = await anonymous(app).get('/health')
  free()
  assert.equal(refused.statusCode, 503, refused.body)
  const body = json<ErrorResponseBody>(refused)
  assert.equal(body.code, 'STORAGE_FAILED')
  assert.match(body.message, /could not be stored \(ENOSPC\).*nothing was stored/)
  assert.deepEqual(incoming(dataDir), [])
  assert.deepEqual(readdirSync(join(dataDir, 'files')), ['.incoming'])
  assert.equal(app.sqlite.prepare('SELECT count(*) FROM files').pluck().get(), 0)
  assert.equal(health.statusCode, 503)
  const reasons = json<{ reasons: string[] }>(health).reasons
  assert.ok(reasons.some((r) => /^the last write failed \(ENOSPC/.test(r)), String(reasons))

  assert.equal((await upload(editor, url, pdfFile('Room again'))).statusCode, 201)
})
