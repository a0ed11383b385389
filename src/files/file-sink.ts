import { close, open, writev } from 'node:fs'
import { Writable } from 'node:stream'
import { nodeHttp } from '#src/http/node-http.js'

/**
 * The smallest chunk a sink frees. An upload's body arrives in pieces of up to 64 KiB; the
 * multipart parser hands on views of its own buffer too (the look-behind of its boundary), which
 * must never be freed: it is shorter than the boundary, which came in the request's headers,
 * which Node limits to `maxHeaderSize` (16 KiB).
 */
export const FREED_CHUNK_BYTES = Math.max(16 * 1024, nodeHttp.maxHeaderSize)

export interface FileSinkOptions {
  /**
   * The chunks are the sink's to free once written: a body Node's HTTP parser read from a socket
   * arrives as a fresh copy per piece, which no one else holds.
   */
  freeWritten?: boolean
}

/**
 * Writes a stream into a new file (`wx`, mode 0600). With `freeWritten`, a written chunk that
 * fills a buffer of its own (a piece of an upload's body) is detached, so its memory returns to
 * the system at once. Otherwise each piece lives, outside V8's heap, until a full GC: an upload
 * allocates too little on the heap for the young generation's GCs to come by, and the full GCs
 * that the external bytes set off let 10 to 15 MB of a 60 MB upload pile up (and cost more CPU
 * time than the upload's own work).
 */
export class FileSink extends Writable {
  readonly #path: string
  readonly #free: boolean
  #fd: number | undefined
  /** A write in flight: the file is closed after it (its descriptor could be reused meanwhile). */
  #writing = false
  #closeAfterWrite: (() => void) | undefined

  constructor (path: string, options: FileSinkOptions = {}) {
    super()
    this.#path = path
    this.#free = options.freeWritten === true
  }

  override _construct (done: (error?: Error | null) => void): void {
    open(this.#path, 'wx', 0o600, (error, fd) => {
      if (error) return done(error)
      this.#fd = fd
      done()
    })
  }

  override _write (chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void):
  void {
    this.#writeAll([chunk], done)
  }

  override _writev (chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    this.#writeAll(chunks.map((c) => c.chunk), done)
  }

  #writeAll (buffers: Buffer[], done: (error?: Error | null) => void): void {
    const written = buffers
    const next = (left: Buffer[]) => {
      this.#writing = true
      writev(this.#fd!, left, (error, bytes) => {
        this.#writing = false
        this.#closeAfterWrite?.()
        this.#closeAfterWrite = undefined
        if (error) return done(error)
        const rest = remaining(left, bytes)
        if (rest.length > 0 && !this.destroyed) return next(rest)
        if (this.#free) written.forEach(freeChunk)
        done()
      })
    }
    next(buffers)
  }

  override _final (done: (error?: Error | null) => void): void {
    const fd = this.#fd!
    this.#fd = undefined
    close(fd, done)
  }

  override _destroy (error: Error | null, done: (error?: Error | null) => void): void {
    const fd = this.#fd
    this.#fd = undefined
    if (fd === undefined) return done(error)
    const closeFile = () => close(fd, () => done(error))
    if (this.#writing) this.#closeAfterWrite = closeFile
    else closeFile()
  }
}

/** The buffers' bytes after the first `bytes` (a short write). */
export function remaining (buffers: Buffer[], bytes: number): Buffer[] {
  const rest: Buffer[] = []
  for (const buffer of buffers) {
    if (bytes >= buffer.length) {
      bytes -= buffer.length
      continue
    }
    rest.push(bytes > 0 ? buffer.subarray(bytes) : buffer)
    bytes = 0
  }
  return rest
}

/** Detaches a chunk that is a whole buffer of its own: its memory is freed now, not at a GC. */
function freeChunk (chunk: Buffer): void {
  const { buffer } = chunk
  if (chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return
  if (chunk.byteLength < FREED_CHUNK_BYTES || !(buffer instanceof ArrayBuffer)) return
  buffer.transfer(0)
}
