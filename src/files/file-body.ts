import { close, open, read } from 'node:fs'
import { Readable, type Writable } from 'node:stream'

/**
 * Bytes read per chunk, and chunks kept for reuse once written (at most 2 MiB held between
 * downloads).
 */
export const FILE_CHUNK_BYTES = 64 * 1024
const POOLED_CHUNKS = 32

/**
 * Chunks whose bytes the socket has taken. A read stream allocates a new buffer per chunk: the
 * bytes of every download are garbage that only the next GC frees, and at 100 MB/s the GC ran
 * every few milliseconds and moved the server's in-flight requests into the old generation (half
 * of the server's CPU time went to the GC's threads).
 */
const pool: Buffer[] = []
const takeChunk = () => pool.pop() ?? Buffer.allocUnsafeSlow(FILE_CHUNK_BYTES)
const giveBack = (chunk: Buffer) => {
  if (pool.length < POOLED_CHUNKS) pool.push(chunk)
}

/**
 * A file's bytes `start`–`end` (inclusive) as a reply body. Piped into the response, it reads into
 * pooled chunks and reuses a chunk only when the response's write of it has completed (the socket
 * no longer holds it). Anything else reading it gets nothing (a HEAD request). Destroyed (the
 * client went away), it stops reading and closes the file.
 */
export class FileBody extends Readable {
  #piped = false
  #fd: number | undefined
  /** A read in flight: the file is closed after it (its descriptor could be reused meanwhile). */
  #reading = false
  #closeAfterRead: (() => void) | undefined
  #position: number
  readonly #end: number
  readonly #path: string

  constructor (path: string, range: { start: number, end: number }) {
    super()
    this.#path = path
    this.#position = range.start
    this.#end = range.end
  }

  override _read (): void {
    if (!this.#piped) this.push(null)
  }

  override pipe<T extends NodeJS.WritableStream> (destination: T): T {
    this.#piped = true
    // The reply closed before this body ended: the client went away, or it had every byte (it
    // counts the content-length) and hung up while the last write still waited for 'drain',
    // which a closed socket never emits. No more reads; the file is closed.
    destination.once('close', () => this.destroy())
    open(this.#path, 'r', (error, fd) => {
      if (error) return this.destroy(error)
      if (this.destroyed) return close(fd, () => {})
      this.#fd = fd
      this.#next(destination as unknown as Writable)
    })
    return destination
  }

  #next (destination: Writable): void {
    if (this.destroyed) return
    const left = this.#end - this.#position + 1
    if (left <= 0) {
      // The file is closed before the reply ends: a client that has every byte finds no
      // descriptor left open behind it.
      const fd = this.#fd!
      this.#fd = undefined
      close(fd, () => {
        if (this.destroyed) return
        destination.end()
        this.push(null)
        this.resume()
      })
      return
    }
    const chunk = takeChunk()
    this.#reading = true
    read(this.#fd!, chunk, 0, Math.min(left, chunk.length), this.#position, (error, bytes) => {
      this.#reading = false
      this.#closeAfterRead?.()
      if (error || bytes === 0) {
        giveBack(chunk)
        return this.destroy(error ?? new Error(`${this.#path} ended before its expected size`))
      }
      if (this.destroyed) return giveBack(chunk)
      this.#position += bytes
      const more = destination.write(chunk.subarray(0, bytes), (writeError) => {
        if (!writeError) giveBack(chunk)
      })
      if (more) this.#next(destination)
      else destination.once('drain', () => this.#next(destination))
    })
  }

  override _destroy (error: Error | null, done: (error?: Error | null) => void): void {
    const fd = this.#fd
    this.#fd = undefined
    if (fd === undefined) return done(error)
    const closeFile = () => close(fd, () => done(error))
    if (this.#reading) this.#closeAfterRead = closeFile
    else closeFile()
  }
}
