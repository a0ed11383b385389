import {
  FileStorageError,
  UploadLimitError,
  type FileStore,
  type ReceivedFile
} from '#src/files/store.js'
import { ALLOWED_TYPES_TEXT, maxBytesOf, sniffFile } from '#src/files/sniff.js'
import { FILE_LIMITS } from '#shared/limits.js'
import type { BandExport } from './band-export.js'
import { asArchiveError, type BandArchive } from './band-archive-read.js'
import { BandImportError } from './band-import.js'
import { shown } from './band-import-cells.js'

// The song and gig files of a band import: each content the document's `files` table names is
// taken from the archive as an upload is taken — streamed to disk within the limits of a file of
// its type and the band's quota, its SHA-256 checked against its name, its type read from the
// bytes (the row's MIME type and size are replaced by what the bytes say). Rows whose bytes the
// archive lacks (a plain JSON export, a file removed from disk before the export) are left out,
// each with a line of the report. The contents are in DATA_DIR/files before the database import
// commits; `written` names the new ones, for the caller to remove when it fails.

const SHA256 = /^[0-9a-f]{64}$/
const MB = 1024 * 1024
const mb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`

export interface ImportFiles {
  /** The document with the `files` rows that have their bytes (MIME type and size as sniffed). */
  document: BandExport
  /** Contents newly stored under DATA_DIR/files. */
  written: string[]
  report: string[]
}

interface Taken {
  received: ReceivedFile
  mimeType: string
}

/** Where the bytes come from and go: absent for a plain JSON export (no bytes at all). */
export interface FilesSource {
  archive: BandArchive
  store: FileStore
  quotaBytes: number
}

export async function importFiles (
  document: BandExport,
  source: FilesSource | undefined
): Promise<ImportFiles> {
  const table = document.tables.find((t) => t.name === 'files')
  const inArchive = new Set(source?.archive.contents ?? [])
  if (!table) return { document, written: [], report: unnamed(inArchive, new Set()) }
  const at = (name: string) => table.columns.findIndex((c) => c.name === name)
  const [idAt, hashAt, typeAt, bytesAt, titleAt] = ['id', 'sha256', 'mime_type', 'bytes', 'title']
    .map(at) as [number, number, number, number, number]
  if (hashAt < 0) throw new BandImportError('table files: the column sha256 is missing')
  const hashes = table.rows.map((row, r) => {
    const hash = row[hashAt]
    if (typeof hash !== 'string' || !SHA256.test(hash)) {
      throw new BandImportError(`table files, row ${r + 1}, column sha256: ${shown(hash)} is ` +
        'not a SHA-256 (64 hex digits); nothing was imported')
    }
    return hash
  })
  const needed = new Set(hashes)
  const taken = source
    ? await take([...needed].filter((h) => inArchive.has(h)), source)
    : new Map<string, Taken>()
  const written: string[] = []
  try {
    for (const [hash, file] of taken) if (source!.store.commit(file.received)) written.push(hash)
  } catch (error) {
    source!.store.remove(written)
    for (const file of taken.values()) source!.store.discard(file.received.tempPath)
    throw storageRefusal(error)
  }
  const report: string[] = []
  const rows = table.rows.flatMap((row, r) => {
    const file = taken.get(hashes[r]!)
    if (!file) {
      report.push(`file ${String(row[idAt])} (${shown(row[titleAt])}): its bytes are not in ` +
        'the export; left out')
      return []
    }
    const kept = [...row]
    if (typeAt >= 0) kept[typeAt] = file.mimeType
    if (bytesAt >= 0) kept[bytesAt] = file.received.bytes
    return [kept]
  })
  report.push(...unnamed(inArchive, needed))
  const tables = document.tables.map((t) => (t === table ? { ...t, rows } : t))
  return { document: { ...document, tables }, written, report }
}

/** Lines for contents of the archive no row names (not unpacked). */
function unnamed (inArchive: Set<string>, needed: Set<string>): string[] {
  const extra = [...inArchive].filter((hash) => !needed.has(hash)).length
  return extra ? [`${extra} file(s) of the archive no row names: left out`] : []
}

/** Unpacks and checks each content; on any refusal the ones taken so far are discarded. */
async function take (
  hashes: string[],
  { archive, store, quotaBytes }: FilesSource
): Promise<Map<string, Taken>> {
  const taken = new Map<string, Taken>()
  let used = 0
  try {
    for (const hash of hashes) {
      const name = `files/${hash}`
      const received = await store.receive(await archive.content(hash), {
        maxBytes: FILE_LIMITS.audioBytes,
        quotaLeft: quotaBytes - used,
        fileMessage: (limit) => `${name} expands to more than ${mb(limit)}, the largest file ` +
          'an upload takes',
        quotaMessage: `the band's files take more than FILES_QUOTA_MB (${mb(quotaBytes)}): ` +
          'raise it for the import'
      }).catch((error: unknown) => {
        throw asArchiveError(error, name)
      })
      taken.set(hash, { received, mimeType: '' })
      if (received.sha256 !== hash) refuse(`${name}: its content's SHA-256 is ${received.sha256}`)
      if (received.bytes === 0) refuse(`${name} is empty (an upload is never empty)`)
      const sniffed = await sniffFile(received.tempPath)
      if ('refused' in sniffed) {
        refuse(`${name}: its content is ${sniffed.refused}; files are ${ALLOWED_TYPES_TEXT}`)
      }
      const limit = maxBytesOf(sniffed.type)
      if (received.bytes > limit) {
        refuse(`${name} has ${mb(received.bytes)}; a file of its type may have ${mb(limit)}`)
      }
      taken.get(hash)!.mimeType = sniffed.type.mimeType
      used += received.bytes
    }
  } catch (error) {
    for (const file of taken.values()) store.discard(file.received.tempPath)
    throw storageRefusal(error)
  }
  return taken
}

function refuse (why: string): never {
  throw new BandImportError(`the archive is refused: ${why}; nothing was imported`)
}

/** A limit or a full disk as the import's refusal (exit code 1, a message). */
function storageRefusal (error: unknown): unknown {
  if (error instanceof UploadLimitError) refuse(error.message)
  if (error instanceof FileStorageError) {
    return new BandImportError(`${error.message}: the disk of DATA_DIR is full or failing; ` +
      'nothing was imported')
  }
  return error
}
