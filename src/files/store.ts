import { createHash, randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync
} from 'node:fs'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileSink, type FileSinkOptions } from './file-sink.js'

/** A SHA-256 in hex: the only thing of a file that ever becomes part of a path. */
const SHA256 = /^[0-9a-f]{64}$/

/** Why an upload stopped before its end. */
export class UploadLimitError extends Error {
  override name = 'UploadLimitError'
  constructor (readonly limit: 'file' | 'quota', message: string) {
    super(message)
  }
}

/** The file system refused the bytes (a full or failing disk). */
export class FileStorageError extends Error {
  override name = 'FileStorageError'
  constructor (readonly code: string, message: string) {
    super(message)
  }
}

const STORAGE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EACCES', 'EPERM', 'EFBIG'])

export interface ReceivedFile {
  /** Where the bytes wait until they are committed or discarded. */
  tempPath: string
  sha256: string
  bytes: number
}

export interface ReceiveLimits {
  /** The largest file taken (the stream is stopped as soon as it is passed). */
  maxBytes: number
  /** Bytes left in the band's quota. */
  quotaLeft: number
  quotaMessage: string
  fileMessage: (maxBytes: number) => string
}

/**
 * The band's files on disk: `DATA_DIR/files/<first two hex digits>/<sha256>`. An upload streams
 * into `files/.incoming/` under a random name while it is hashed and counted; only a complete,
 * accepted file is renamed to its hash (a rename within one file system: a file is either whole
 * under its name or absent). Names a client sends never reach the file system.
 */
export class FileStore {
  readonly dir: string
  private readonly incoming: string

  constructor (dataDir: string) {
    this.dir = join(dataDir, 'files')
    this.incoming = join(this.dir, '.incoming')
    // Uploads a crash or a power cut interrupted: no row names them.
    rmSync(this.incoming, { recursive: true, force: true })
    mkdirSync(this.incoming, { recursive: true, mode: 0o700 })
  }

  pathOf (sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256.slice(0, 80)}`)
    return join(this.dir, sha256.slice(0, 2), sha256)
  }

  has (sha256: string): boolean {
    return existsSync(this.pathOf(sha256))
  }

  /**
   * Streams `source` to a temporary file, hashing and counting; past a limit the stream stops
   * with an UploadLimitError, on a disk error with a FileStorageError, and the partial file is
   * removed either way (also when the client goes away mid-upload).
   */
  async receive (source: Readable, limits: ReceiveLimits, sink: FileSinkOptions = {}):
  Promise<ReceivedFile> {
    const tempPath = join(this.incoming, randomBytes(16).toString('hex'))
    const hash = createHash('sha256')
    let bytes = 0
    const counter = new Transform({
      transform (chunk: Buffer, _encoding, done) {
        bytes += chunk.length
        if (bytes > limits.maxBytes) {
          return done(new UploadLimitError('file', limits.fileMessage(limits.maxBytes)))
        }
        if (bytes > limits.quotaLeft) {
          return done(new UploadLimitError('quota', limits.quotaMessage))
        }
        hash.update(chunk)
        done(null, chunk)
      }
    })
    try {
      await pipeline(source, counter, new FileSink(tempPath, sink))
    } catch (error) {
      this.discard(tempPath)
      throw storageError(error) ?? error
    }
    return { tempPath, sha256: hash.digest('hex'), bytes }
  }

  /**
   * Puts a received file under its hash (synchronously, so that no removal of the same hash runs
   * between this and the caller's insert). Returns whether the bytes are new on disk.
   */
  commit (file: ReceivedFile): boolean {
    const target = this.pathOf(file.sha256)
    if (existsSync(target)) {
      this.discard(file.tempPath)
      return false
    }
    try {
      mkdirSync(join(target, '..'), { recursive: true, mode: 0o700 })
      renameSync(file.tempPath, target)
    } catch (error) {
      this.discard(file.tempPath)
      throw storageError(error) ?? error
    }
    return true
  }

  discard (tempPath: string): void {
    rmSync(tempPath, { force: true })
  }

  /** Removes the bytes of these hashes (the caller has checked that no row names them). */
  remove (hashes: Iterable<string>): void {
    for (const sha256 of hashes) rmSync(this.pathOf(sha256), { force: true })
  }

  /** Size and modification time of a stored file; undefined when it is missing on disk. */
  stat (sha256: string): { size: number, mtime: Date } | undefined {
    try {
      const stats = statSync(this.pathOf(sha256))
      return { size: stats.size, mtime: stats.mtime }
    } catch {
      return undefined
    }
  }
}

/** A FileStorageError for an errno that means the disk refused the write, else undefined. */
function storageError (error: unknown): FileStorageError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code !== 'string' || !STORAGE_ERRNO.has(code)) return undefined
  return new FileStorageError(code, `the file could not be stored (${code})`)
}
