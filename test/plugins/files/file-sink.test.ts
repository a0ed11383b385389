import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import fs, {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FREED_CHUNK_BYTES, FileSink, remaining } from '#src/files/file-sink.js'

const dir = mkdtempSync(join(tmpdir(), 'bandstand-file-sink-'))
test.after(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const newPath = () => join(dir, `file-${++files}`)
/** How often this process has the file open (Linux). */
const openFiles = (path: string) => readdirSync('/proc/self/fd').filter((fd) => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`) === path
  } catch {
    return false
  }
}).length

/** A buffer of its own (as Node's HTTP parser makes for each piece of a body). */
const ownBuffer = (bytes: number) => {
  const buffer = Buffer.allocUnsafeSlow(bytes)
  randomBytes(bytes).copy(buffer)
  return buffer
}

test('a sink writes every chunk, singly and gathered; it frees only whole buffers of its own ' +
  'of 16 KiB and more, and only when told to', async () => {
  for (const freeWritten of [true, false]) {
    const whole = ownBuffer(64 * 1024)
    const parent = ownBuffer(64 * 1024)
    const view = parent.subarray(100)
    const small = ownBuffer(FREED_CHUNK_BYTES - 1)
    const pooled = Buffer.from('from the shared pool')
    const chunks = [whole, view, small, pooled, ownBuffer(FREED_CHUNK_BYTES)]
    const expected = Buffer.concat(chunks)
    const path = newPath()
    const sink = new FileSink(path, { freeWritten })
    // Corked: the chunks queue and go to the file in one gathered write.
    sink.cork()
    for (const chunk of chunks) sink.write(chunk)
    process.nextTick(() => sink.uncork())
    sink.end()
    await once(sink, 'close')
    assert.deepEqual(readFileSync(path), expected)
    assert.equal(whole.length, freeWritten ? 0 : 64 * 1024)
    assert.equal(chunks[4]!.buffer.detached, freeWritten)
    for (const kept of [view, parent, small, pooled]) assert.ok(!kept.buffer.detached)
    assert.equal(openFiles(path), 0)
  }

  // Piped, chunk by chunk.
  const pieces = Array.from({ length: 8 }, () => ownBuffer(32 * 1024))
  const expected = Buffer.concat(pieces)
  const path = newPath()
  await pipeline(Readable.from(pieces), new FileSink(path, { freeWritten: true }))
  assert.deepEqual(readFileSync(path), expected)
  assert.ok(pieces.every((piece) => piece.buffer.detached))
})

test('a sink refuses an existing path and writes nothing into it', async () => {
  const path = newPath()
  writeFileSync(path, 'already here')
  const sink = new FileSink(path)
  const [error] = await once(sink, 'error') as [NodeJS.ErrnoException]
  assert.equal(error.code, 'EEXIST')
  assert.equal(readFileSync(path, 'utf8'), 'already here')
})

test('a sink destroyed while a write is in flight closes its file after the write', async () => {
  const path = newPath()
  const sink = new FileSink(path, { freeWritten: true })
  await new Promise<void>((resolve) => sink.write(Buffer.from('first'), () => resolve()))
  assert.equal(openFiles(path), 1)
  const big = ownBuffer(8 * 1024 * 1024)
  sink.write(big)
  sink.destroy()
  await once(sink, 'close')
  assert.equal(openFiles(path), 0)
  // The write completed: its chunk is no one's any more, freed all the same.
  assert.ok(big.buffer.detached)
})

test('a short write goes on with the rest; a failing write fails the stream', async (t) => {
  assert.deepEqual(remaining([Buffer.from('abc'), Buffer.from('defg')], 5),
    [Buffer.from('fg')])
  assert.deepEqual(remaining([Buffer.from('abc'), Buffer.from('defg')], 3), [Buffer.from('defg')])
  assert.deepEqual(remaining([Buffer.from('abc')], 3), [])

  const writev = fs.writev
  t.after(() => {
    fs.writev = writev
    syncBuiltinESMExports()
  })
  // The disk takes 1,000 bytes per write, then fails.
  let calls = 0
  fs.writev = ((fd: number, buffers: Buffer[], callback: (e: Error | null, n: number) => void) => {
    if (++calls > 3) {
      return process.nextTick(() => callback(Object.assign(new Error('EIO'), { code: 'EIO' }), 0))
    }
    fs.write(fd, Buffer.concat(buffers).subarray(0, 1000), (error, bytes) => callback(error, bytes))
  }) as typeof fs.writev
  syncBuiltinESMExports()

  const path = newPath()
  const short = ownBuffer(2500)
  await pipeline(Readable.from([short]), new FileSink(path))
  assert.deepEqual(readFileSync(path), short)
  assert.equal(calls, 3)

  const failing = newPath()
  await assert.rejects(pipeline(Readable.from([ownBuffer(10)]), new FileSink(failing)),
    { code: 'EIO' })
  assert.equal(openFiles(failing), 0)
})
