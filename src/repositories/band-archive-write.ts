import { open, type FileHandle } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { ExportTooLarge, type BandExport } from './band-export.js'

// The band export as an archive: a zip holding the JSON document (`bandstand-export.json`, the same
// as the plain JSON export) and the bytes of every song and gig file its `files` table names, once
// per content, as `files/<sha256>` (stored uncompressed: PDFs, audio and images are compressed
// already). Streamed: one file's chunk at a time is in memory, whatever the band's files weigh.

export const ARCHIVE_DOCUMENT = 'bandstand-export.json'
export const archiveEntryOf = (sha256: string) => `files/${sha256}`

/**
 * A plain zip (no zip64): offsets are 32 bits, so an archive stays under 4 GiB. A band over it
 * moves by backup (the database and DATA_DIR/files).
 */
export const MAX_ARCHIVE_BYTES = 0xffffffff

const SHA256 = /^[0-9a-f]{64}$/
const READ_CHUNK_BYTES = 256 * 1024

export interface ArchiveFile {
  sha256: string
  bytes: number
}

/** The distinct contents the document's `files` table names (rows by id: deterministic). */
export function filesOfDocument (document: BandExport): ArchiveFile[] {
  const table = document.tables.find((t) => t.name === 'files')
  if (!table) return []
  const hashAt = table.columns.findIndex((c) => c.name === 'sha256')
  const bytesAt = table.columns.findIndex((c) => c.name === 'bytes')
  const seen = new Map<string, number>()
  for (const row of table.rows) {
    const sha256 = row[hashAt]
    if (typeof sha256 === 'string' && SHA256.test(sha256) && !seen.has(sha256)) {
      seen.set(sha256, Number(row[bytesAt]))
    }
  }
  return [...seen].map(([sha256, bytes]) => ({ sha256, bytes }))
}

/** What the archive takes at most, counted as fflate writes it (headers, data descriptors). */
export function archiveBytesAtMost (documentBytes: number, files: ArchiveFile[]): number {
  const entry = (name: string, bytes: number) => 30 + name.length + bytes + 16 + 46 + name.length
  // Deflate never grows data by more than 5 bytes per 16 KiB block plus a little.
  const deflated = documentBytes + Math.ceil(documentBytes / 16384) * 5 + 64
  const document = entry(ARCHIVE_DOCUMENT, deflated)
  return files.reduce((sum, f) => sum + entry(archiveEntryOf(f.sha256), f.bytes), document) + 22
}

export interface ArchiveSource {
  /** Where a content's bytes are on disk (DATA_DIR/files). */
  pathOf: (sha256: string) => string
  /** A content that is missing on disk or not its recorded size: left out of the archive. */
  onMissing: (file: ArchiveFile) => void
}

/**
 * The archive as a stream. Refuses (ExportTooLarge) before writing anything when it would pass the
 * zip format's 4 GiB. A file removed from disk is left out (`onMissing`): the import then skips the
 * rows that name it with a line of its report. The stream pulls one chunk at a time (backpressure).
 */
export function bandArchiveStream (document: BandExport, source: ArchiveSource): Readable {
  const json = Buffer.from(JSON.stringify(document))
  const files = filesOfDocument(document)
  const most = archiveBytesAtMost(json.length, files)
  if (most > MAX_ARCHIVE_BYTES) throw new ExportTooLarge(most, MAX_ARCHIVE_BYTES, 'archive')
  return Readable.from(chunks(json, files, source, new Date(document.exportedAt)), {
    objectMode: false
  })
}

async function * chunks (
  json: Buffer,
  files: ArchiveFile[],
  source: ArchiveSource,
  mtime: Date
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else out.push(chunk)
  })
  const drained = function * () {
    if (failure) throw failure
    yield * out.splice(0)
  }
  const document = new ZipDeflate(ARCHIVE_DOCUMENT, { level: 6 })
  document.mtime = mtime
  zip.add(document)
  document.push(json, true)
  yield * drained()
  for (const file of files) {
    const handle = await opened(source.pathOf(file.sha256), file.bytes)
    if (!handle) {
      source.onMissing(file)
      continue
    }
    try {
      const entry = new ZipPassThrough(archiveEntryOf(file.sha256))
      entry.mtime = mtime
      zip.add(entry)
      // Read from the handle opened above: a removal meanwhile does not cut the entry short.
      for await (const chunk of handle.createReadStream({
        highWaterMark: READ_CHUNK_BYTES,
        autoClose: false
      })) {
        entry.push(chunk as Buffer)
        yield * drained()
      }
      entry.push(new Uint8Array(0), true)
      yield * drained()
    } finally {
      await handle.close()
    }
  }
  zip.end()
  yield * drained()
}

/** The file opened for reading when it is there with its recorded size; else undefined. */
async function opened (path: string, bytes: number): Promise<FileHandle | undefined> {
  let handle: FileHandle | undefined
  try {
    handle = await open(path, 'r')
    if ((await handle.stat()).size === bytes) return handle
  } catch {
    // Missing (removed by hand): reported by the caller.
  }
  await handle?.close()
  return undefined
}
