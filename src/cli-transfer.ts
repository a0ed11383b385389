import { createWriteStream, existsSync, rmSync, writeFileSync } from 'node:fs'
import { extname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { DatabaseHandle } from './db/client.js'
import { buildBandExport, ExportTooLarge } from '#src/repositories/band-export.js'
import {
  BandImportError,
  checkBandImport,
  importBandExport
} from '#src/repositories/band-import.js'
import { bandArchiveStream, filesOfDocument } from '#src/repositories/band-archive-write.js'
import { readBandSource } from '#src/repositories/band-archive-read.js'
import { importFiles } from '#src/repositories/band-import-files.js'
import { FileStore } from '#src/files/store.js'
import { resetUrl } from '#src/repositories/password-resets.js'
import { importLibreStage } from '#src/librestage/import.js'
import { formatReport } from '#src/librestage/report.js'
import { LibreStageImportError, readLibreStage } from '#src/librestage/source.js'
import { oneLine, terminalSafe } from '#src/terminal-text.js'

// The command line's moving commands: the full band export and its import, and the import of a
// libreStage database. The work is done by src/repositories/band-*.ts and src/librestage/.

export interface TransferIo {
  out(line: string): void
}

/** Imports print what a file holds: never a terminal control sequence (src/terminal-text.ts). */
const safeIo = (io: TransferIo): TransferIo => ({ out: (line) => io.out(terminalSafe(line)) })

/** Over HTTP the export is capped at 16 MB (built in memory per request); a file may be larger. */
export const CLI_EXPORT_MAX_BYTES = 128 * 1024 * 1024

export class TransferRefused extends Error {
  override name = 'TransferRefused'
}

/**
 * `export <file.zip|file.json>`: the whole band into a new file (mode 0600): the archive with the
 * song and gig files, or with a `.json` name the document alone.
 */
export async function exportBand (
  handle: DatabaseHandle,
  file: string,
  options: { now: Date; dataDir: string },
  io: TransferIo
): Promise<void> {
  const target = resolve(file)
  if (existsSync(target)) throw new TransferRefused(`${target} exists; choose a new file`)
  let document
  try {
    document = buildBandExport(handle.sqlite, { now: options.now, maxBytes: CLI_EXPORT_MAX_BYTES })
  } catch (error) {
    if (error instanceof ExportTooLarge) throw new TransferRefused(error.message)
    throw error
  }
  const rows = document.tables.reduce((n, t) => n + t.rows.length, 0)
  const files = filesOfDocument(document)
  if (extname(target).toLowerCase() === '.json') {
    // It holds the members' names and addresses: readable by the owner only.
    writeFileSync(target, JSON.stringify(document), { flag: 'wx', mode: 0o600 })
    io.out(`band export written to ${target} (${document.tables.length} tables, ${rows} rows` +
      (files.length ? `; without the bytes of ${files.length} file(s): export to a .zip)` : ')'))
    return
  }
  const missing: string[] = []
  const filesDir = join(options.dataDir, 'files')
  let archive
  try {
    archive = bandArchiveStream(document, {
      pathOf: (sha256) => join(filesDir, sha256.slice(0, 2), sha256),
      onMissing: (f) => missing.push(f.sha256)
    })
  } catch (error) {
    if (error instanceof ExportTooLarge) throw new TransferRefused(error.message)
    throw error
  }
  const out = createWriteStream(target, { flags: 'wx', mode: 0o600 })
  try {
    await pipeline(archive, out)
  } catch (error) {
    rmSync(target, { force: true })
    throw error
  }
  io.out(`band export written to ${target} (${document.tables.length} tables, ${rows} rows, ` +
    `${files.length - missing.length} files)`)
  for (const sha256 of missing) {
    io.out(`  missing on disk, left out: DATA_DIR/files/${sha256.slice(0, 2)}/${sha256}`)
  }
}

/** `import <file.zip|file.json>`: restores a band export into a database without band data. */
export async function importBand (
  handle: DatabaseHandle,
  file: string,
  options: { now: Date; baseUrl: string; dataDir: string; quotaBytes: number },
  unsafeIo: TransferIo
): Promise<void> {
  const io = safeIo(unsafeIo)
  const { document, archive } = await readBandSource(resolve(file))
  let result
  let report
  try {
    checkBandImport(handle, document)
    const source = archive && {
      archive,
      store: new FileStore(options.dataDir),
      quotaBytes: options.quotaBytes
    }
    const files = await importFiles(document, source)
    report = files.report
    try {
      result = importBandExport(handle, files.document, { now: options.now })
    } catch (error) {
      // The database wrote nothing: neither do the files stay.
      source?.store.remove(files.written)
      throw error
    }
  } finally {
    await archive?.close()
  }
  const rows = result.tables.reduce((n, t) => n + t.rows, 0)
  io.out(
    `imported ${rows} rows in ${result.tables.length} tables from ${file} ` +
      `(exported ${oneLine(document.exportedAt)} by Bandstand ${oneLine(document.appVersion)})`
  )
  for (const line of report) io.out(`  ${oneLine(line)}`)
  printLinks(result.resetLinks, options.baseUrl, io)
}

function printLinks (
  links: Array<{ username: string; displayName: string; token: string; expiresAt: Date }>,
  baseUrl: string,
  io: TransferIo
): void {
  if (links.length === 0) return
  io.out(
    'Passwords are never exported: every member sets a new one with their own link (once, ' +
      `until ${links[0]!.expiresAt.toISOString()}):`
  )
  for (const link of links) {
    const who = `${oneLine(link.username)} (${oneLine(link.displayName)})`
    io.out(`  ${who}: ${resetUrl(baseUrl, link.token)}`)
  }
  io.out('Expired? `bandstand user:reset-link <username>` makes a new one.')
}

/** `import-librestage <app.db> [--dry-run] [--json] [--force]`. */
export function importFromLibreStage (
  open: () => DatabaseHandle,
  file: string,
  options: {
    now: Date
    baseUrl: string
    dryRun: boolean
    force: boolean
    json: boolean
    resetLinks: boolean
  },
  unsafeIo: TransferIo
): void {
  const io = safeIo(unsafeIo)
  // The source is checked before Bandstand's database is opened at all.
  const source = readLibreStage(resolve(file))
  const report = importLibreStage(open(), source, options)
  if (options.json) io.out(JSON.stringify(report, null, 2))
  else for (const line of formatReport(report)) io.out(line)
}

/** A refusal with a message for the user (exit code 1), not a bug. */
export const isTransferError = (error: unknown) =>
  error instanceof TransferRefused ||
  error instanceof LibreStageImportError ||
  error instanceof BandImportError
