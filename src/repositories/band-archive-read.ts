import { open, type FileHandle } from 'node:fs/promises'
import { pipeline as chain, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createInflateRaw, crc32 } from 'node:zlib'
import { ARCHIVE_DOCUMENT, MAX_ARCHIVE_BYTES } from './band-archive-write.js'
import type { BandExport } from './band-export.js'
import {
  BandImportError,
  MAX_IMPORT_FILE_BYTES,
  parseBandExport,
  readBandExport
} from './band-import.js'

// Reading a band export archive (band-archive-write.ts) without trusting it, from the file on disk:
// only the central directory is held in memory; an entry is inflated as a stream whose consumer
// counts the bytes, so a zip bomb stops at the limit whatever its headers declare. Names are an
// allowlist (the document and `files/<sha256>`): no name of the archive ever reaches the file
// system.

export const ARCHIVE_LIMITS = {
  /** The archive itself (the zip format's 32-bit offsets). */
  archiveBytes: MAX_ARCHIVE_BYTES,
  /** Entries: the document and one per content (a plain zip counts them in 16 bits). */
  entries: 0xfffe,
  /** The central directory, read into memory. */
  directoryBytes: 16 * 1024 * 1024,
  /** The JSON document once inflated (as the plain JSON import). */
  documentBytes: MAX_IMPORT_FILE_BYTES
} as const

const ENTRY_NAME = /^files\/([0-9a-f]{64})$/
const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

interface Entry {
  name: string
  method: number
  crc: number
  compressed: number
  local: number
}

/**
 * Reads a band export file: an archive (its document read, its files left for importFiles) or, by
 * its first bytes, the plain JSON document.
 */
export async function readBandSource (
  file: string
): Promise<{ document: BandExport, archive?: BandArchive }> {
  if (!(await isZipFile(file))) return { document: readBandExport(file) }
  const archive = await BandArchive.open(file)
  try {
    return { document: parseBandExport(await archive.document(), ARCHIVE_DOCUMENT), archive }
  } catch (error) {
    await archive.close()
    throw error
  }
}

/** Whether the file's first bytes are a zip's (an archive) rather than JSON. */
async function isZipFile (file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch((error: Error) => {
    throw new BandImportError(`cannot read ${file}: ${error.message}`)
  })
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0)
    return bytesRead === 4 && buffer.readUInt32LE(0) === LOCAL
  } finally {
    await handle.close()
  }
}

export class BandArchive {
  private constructor (
    private readonly handle: FileHandle,
    private readonly size: number,
    private readonly entries: Map<string, Entry>
  ) {}

  /** Opens and checks the archive's directory: size, entry count, names, duplicates. */
  static async open (file: string): Promise<BandArchive> {
    const handle = await open(file, 'r')
    try {
      const { size } = await handle.stat()
      if (size > ARCHIVE_LIMITS.archiveBytes) {
        refuse(`it has ${size} bytes; an archive takes at most ${ARCHIVE_LIMITS.archiveBytes}`)
      }
      const entries = await readDirectory(handle, size)
      return new BandArchive(handle, size, entries)
    } catch (error) {
      await handle.close()
      throw error
    }
  }

  /** The hashes of the contents the archive holds. */
  get contents (): string[] {
    return [...this.entries.keys()].flatMap((name) => ENTRY_NAME.exec(name)?.[1] ?? [])
  }

  /** The JSON document's text (refused past ARCHIVE_LIMITS.documentBytes). */
  async document (): Promise<string> {
    const entry = this.entries.get(ARCHIVE_DOCUMENT)
    if (!entry) refuse(`it holds no ${ARCHIVE_DOCUMENT}`)
    const chunks: Buffer[] = []
    let bytes = 0
    try {
      await pipeline(await this.stream(entry), async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) {
          bytes += chunk.length
          if (bytes > ARCHIVE_LIMITS.documentBytes) {
            refuse(`${ARCHIVE_DOCUMENT} expands to more than ${ARCHIVE_LIMITS.documentBytes} bytes`)
          }
          chunks.push(chunk)
        }
      })
    } catch (error) {
      throw asArchiveError(error, ARCHIVE_DOCUMENT)
    }
    return Buffer.concat(chunks).toString('utf8')
  }

  /**
   * The inflated bytes of `files/<sha256>` as a stream, its CRC checked at the end. The consumer
   * bounds it (FileStore.receive stops at the file limit, so a bomb never expands further).
   */
  async content (sha256: string): Promise<Readable> {
    return this.stream(this.entries.get(`files/${sha256}`)!)
  }

  async close (): Promise<void> {
    await this.handle.close()
  }

  private async stream (entry: Entry): Promise<Readable> {
    const header = Buffer.alloc(30)
    await this.handle.read(header, 0, 30, entry.local)
    if (header.readUInt32LE(0) !== LOCAL) refuse(`${entry.name}: no entry at its offset`)
    const start = entry.local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
    if (start + entry.compressed > this.size) refuse(`${entry.name}: cut short`)
    const raw = entry.compressed === 0
      ? Readable.from([])
      : this.handle.createReadStream({
        start,
        end: start + entry.compressed - 1,
        autoClose: false,
        highWaterMark: 256 * 1024
      })
    let crc = 0
    const checked = new Transform({
      transform (chunk: Buffer, _encoding, done) {
        crc = crc32(chunk, crc)
        done(null, chunk)
      },
      flush (done) {
        done(crc === entry.crc ? null : archiveError(`${entry.name}: checksum mismatch`))
      }
    })
    // An error anywhere destroys the whole chain and reaches the consumer of `checked`.
    const ignore = () => {}
    return entry.method === 0
      ? chain(raw, checked, ignore)
      : chain(raw, createInflateRaw(), checked, ignore)
  }
}

const archiveError = (why: string) =>
  new BandImportError(`not a readable band export archive: ${why}; nothing was imported`)

/** zlib's refusal of an entry's data (a damaged archive) as the import's error; others as is. */
export function asArchiveError (error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('Z_')
    ? archiveError(`${what}: ${(error as Error).message}`)
    : error
}

function refuse (why: string): never {
  throw archiveError(why)
}

async function readAt (handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, position)
  return buffer.subarray(0, bytesRead)
}

/** The central directory: every name checked against the allowlist, none twice. */
async function readDirectory (handle: FileHandle, size: number): Promise<Map<string, Entry>> {
  // The end record is 22 bytes plus a comment of at most 65,535.
  const tailStart = Math.max(0, size - 22 - 0xffff)
  const tail = await readAt(handle, tailStart, size - tailStart)
  let end = -1
  for (let at = tail.length - 22; at >= 0 && end < 0; at--) {
    if (tail.readUInt32LE(at) === EOCD) end = at
  }
  if (end < 0) refuse('no zip central directory found')
  const count = tail.readUInt16LE(end + 10)
  const length = tail.readUInt32LE(end + 12)
  const offset = tail.readUInt32LE(end + 16)
  if (count === 0xffff || offset === 0xffffffff) refuse('zip64 archives are not read')
  if (count > ARCHIVE_LIMITS.entries) refuse(`more than ${ARCHIVE_LIMITS.entries} entries`)
  if (length > ARCHIVE_LIMITS.directoryBytes || offset + length > size) {
    refuse('broken central directory')
  }
  const directory = await readAt(handle, offset, length)
  const entries = new Map<string, Entry>()
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) {
      refuse('broken central directory')
    }
    const flags = directory.readUInt16LE(at + 8)
    const nameLength = directory.readUInt16LE(at + 28)
    const name = directory.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    const entry: Entry = {
      name,
      method: directory.readUInt16LE(at + 10),
      crc: directory.readUInt32LE(at + 16),
      compressed: directory.readUInt32LE(at + 20),
      local: directory.readUInt32LE(at + 42)
    }
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32)
    if (name !== ARCHIVE_DOCUMENT && !ENTRY_NAME.test(name)) {
      refuse(`the entry ${JSON.stringify(name.slice(0, 80))} has no place in it (a band export ` +
        `archive holds ${ARCHIVE_DOCUMENT} and files/<sha256>)`)
    }
    if (entries.has(name)) refuse(`the entry ${name} appears twice`)
    if (flags & 0x1) refuse(`${name}: encrypted`)
    if (entry.method !== 0 && entry.method !== 8) {
      refuse(`${name}: compression method ${entry.method} is not read`)
    }
    entries.set(name, entry)
  }
  return entries
}
