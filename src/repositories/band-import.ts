import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { migrationsFolder, type Db } from '#src/db/client.js'
import { chunksFor } from '#src/db/batch.js'
import { UNUSABLE_PASSWORD_HASH } from '#src/services/password.js'
import {
  BAND_EXPORT_FORMAT,
  BAND_EXPORT_FORMAT_VERSION,
  EXCLUDED_COLUMNS,
  EXCLUDED_TABLES,
  type BandExport
} from './band-export.js'
import { hasBandData } from './band-content.js'
import { createImportResetLinks } from './password-resets.js'

// The import side of the full band export (band-export.ts): restores the document into a database
// that holds no band data yet, exactly (ids, values, AUTOINCREMENT counters), so that exporting
// again gives the same document. Users arrive without password hashes: they get an unusable one
// and a one-time reset link each. Used by `bandstand import <file.json>`.

/** The document is parsed in memory: larger files are refused before reading them. */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024

/** Tables a database has before any band data: the first admin and the installation's rows. */
const REPLACEABLE_TABLES = new Set(['users', 'app_settings', 'installation', 'app_logo'])

export class BandImportError extends Error {
  override name = 'BandImportError'
}

const Cell = Type.Union([Type.String(), Type.Number(), Type.Null()])
const DocumentShape = Type.Object({
  format: Type.Literal(BAND_EXPORT_FORMAT),
  formatVersion: Type.Integer(),
  exportedAt: Type.String(),
  appVersion: Type.String(),
  schemaVersion: Type.String(),
  excluded: Type.Object({ tables: Type.Record(Type.String(), Type.String()) }),
  tables: Type.Array(
    Type.Object({
      name: Type.String(),
      columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
      primaryKey: Type.Array(Type.String()),
      rows: Type.Array(Type.Array(Cell))
    })
  ),
  sequences: Type.Record(Type.String(), Type.Integer())
})

/** Reads and checks a band export file (size, JSON, format and version, shape). */
export function readBandExport (file: string, maxBytes = MAX_IMPORT_FILE_BYTES): BandExport {
  let text: string
  try {
    const bytes = readFileSync(file)
    if (bytes.length > maxBytes) {
      throw new BandImportError(
        `${file} has ${bytes.length} bytes; an import takes at most ${maxBytes}`
      )
    }
    text = bytes.toString('utf8')
  } catch (error) {
    if (error instanceof BandImportError) throw error
    throw new BandImportError(`cannot read ${file}: ${(error as Error).message}`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new BandImportError(`${file} is not JSON (a band export is a .json file)`)
  }
  return checkBandExport(doc)
}

export function checkBandExport (doc: unknown): BandExport {
  const format = (doc as { format?: unknown } | null)?.format
  if (format !== BAND_EXPORT_FORMAT) {
    throw new BandImportError(
      `not a Bandstand band export (format ${JSON.stringify(format)}, expected ` +
        `"${BAND_EXPORT_FORMAT}")`
    )
  }
  const version = (doc as { formatVersion?: unknown }).formatVersion
  if (version !== BAND_EXPORT_FORMAT_VERSION) {
    throw new BandImportError(
      `band export format version ${String(version)}: this Bandstand reads version ` +
        `${BAND_EXPORT_FORMAT_VERSION}` +
        (Number(version) > BAND_EXPORT_FORMAT_VERSION ? ' (update Bandstand first)' : '')
    )
  }
  const problem = Value.Errors(DocumentShape, doc).First()
  if (problem) {
    throw new BandImportError(`the band export is malformed at ${problem.path}: ${problem.message}`)
  }
  return doc as BandExport
}

interface TargetColumn {
  name: string
  type: string
}

/** Every problem that makes the document unfit for this database, found before writing anything. */
function checkAgainstDatabase (sqlite: Database.Database, doc: BandExport): void {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')
  ) as { entries: Array<{ tag: string }> }
  if (!journal.entries.some((e) => e.tag === doc.schemaVersion)) {
    throw new BandImportError(
      `the export was made with schema ${doc.schemaVersion}, which this Bandstand does not know: ` +
        'update Bandstand first'
    )
  }
  const seen = new Set<string>()
  for (const table of doc.tables) {
    if (seen.has(table.name)) throw new BandImportError(`table ${table.name} appears twice`)
    seen.add(table.name)
    if (Object.hasOwn(EXCLUDED_TABLES, table.name)) {
      throw new BandImportError(
        `table ${table.name} is never imported (${EXCLUDED_TABLES[table.name]})`
      )
    }
    const columns = sqlite.prepare('SELECT name, type FROM pragma_table_info(?)').all(table.name) as
      TargetColumn[]
    if (columns.length === 0) throw new BandImportError(`unknown table ${table.name}`)
    for (const column of table.columns) {
      if (Object.hasOwn(EXCLUDED_COLUMNS[table.name] ?? {}, column.name)) {
        throw new BandImportError(`column ${table.name}.${column.name} is never imported`)
      }
      if (!columns.some((c) => c.name === column.name)) {
        throw new BandImportError(`unknown column ${table.name}.${column.name}`)
      }
    }
    const width = table.columns.length
    const bad = table.rows.findIndex((row) => row.length !== width)
    if (bad >= 0) {
      throw new BandImportError(`table ${table.name}, row ${bad + 1}: ${width} values expected`)
    }
  }
  for (const name of Object.keys(doc.sequences)) {
    if (!seen.has(name)) throw new BandImportError(`sequence for unknown table ${name}`)
  }
}

/** Refuses a database with band data: an import would mix two bands (or overwrite one). */
function checkEmpty (db: Db, sqlite: Database.Database, doc: BandExport): void {
  const filled = doc.tables
    .map((t) => t.name)
    .filter((name) => !REPLACEABLE_TABLES.has(name))
    .filter((name) => sqlite.prepare(`SELECT 1 FROM "${name}" LIMIT 1`).get() !== undefined)
  if (hasBandData(db) || filled.length > 0) {
    throw new BandImportError(
      'the database already holds band data' +
        (filled.length ? ` (${filled.join(', ')})` : '') +
        ': import into a new DATA_DIR (or move the old database away first)'
    )
  }
}

export interface BandImportResult {
  tables: Array<{ name: string; rows: number }>
  resetLinks: Array<{ username: string; displayName: string; token: string; expiresAt: Date }>
}

/**
 * Restores the document in one transaction. Rows the database already has in the replaceable
 * tables (the first admin, the settings and installation rows a first start creates) are replaced
 * by the document's. Foreign keys are checked at commit, so nothing half-written survives a
 * document whose rows do not fit together.
 */
export function importBandExport (
  handle: { db: Db; sqlite: Database.Database },
  doc: BandExport,
  options: { now: Date }
): BandImportResult {
  const { db, sqlite } = handle
  checkAgainstDatabase(sqlite, doc)
  const run = sqlite.transaction(() => {
    checkEmpty(db, sqlite, doc)
    sqlite.pragma('defer_foreign_keys = ON')
    for (const table of [...doc.tables].reverse()) {
      sqlite.prepare(`DELETE FROM "${table.name}"`).run()
    }
    const names = doc.tables.map((t) => t.name)
    sqlite
      .prepare(`DELETE FROM sqlite_sequence WHERE name IN (${names.map(() => '?').join(', ')})`)
      .run(...names)
    for (const table of doc.tables) insertRows(sqlite, table)
    const sequences = Object.entries(doc.sequences)
    if (sequences.length) {
      sqlite
        .prepare(
          'INSERT INTO sqlite_sequence (name, seq) VALUES ' +
            sequences.map(() => '(?, ?)').join(', ')
        )
        .run(...sequences.flat())
    }
    const userTable = doc.tables.find((t) => t.name === 'users')
    const idColumn = userTable?.columns.findIndex((c) => c.name === 'id') ?? -1
    const userIds = idColumn < 0 ? [] : userTable!.rows.map((row) => Number(row[idColumn]))
    return createImportResetLinks(db, userIds, options.now)
  })
  let links: ReturnType<typeof createImportResetLinks>
  try {
    links = run.immediate()
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new BandImportError(
        'the rows of the export do not fit together (a reference to a row that is missing); ' +
          'nothing was imported'
      )
    }
    throw error
  }
  return {
    tables: doc.tables.map((t) => ({ name: t.name, rows: t.rows.length })),
    resetLinks: links.map(({ user, token, expiresAt }) => ({
      username: user.username,
      displayName: user.displayName,
      token,
      expiresAt
    }))
  }
}

/** Multi-row inserts (one statement per chunk); users get the unusable password hash. */
function insertRows (sqlite: Database.Database, table: BandExport['tables'][number]): void {
  const extra = table.name === 'users' ? ['password_hash'] : []
  const names = [...table.columns.map((c) => c.name), ...extra]
  const blobs = table.columns.map((c) => c.type.toUpperCase() === 'BLOB')
  const placeholders = `(${names.map(() => '?').join(', ')})`
  for (const chunk of chunksFor(table.rows, names.length)) {
    const values = chunk.flatMap((row) => [
      ...row.map((value, i) =>
        blobs[i] && typeof value === 'string' ? Buffer.from(value, 'base64') : value
      ),
      ...extra.map(() => UNUSABLE_PASSWORD_HASH)
    ])
    try {
      sqlite
        .prepare(
          `INSERT INTO "${table.name}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES ` +
            chunk.map(() => placeholders).join(', ')
        )
        .run(...values)
    } catch (error) {
      const code = (error as { code?: string }).code ?? ''
      if (!code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw error
      }
      throw new BandImportError(
        `table ${table.name}: ${(error as Error).message}; nothing was imported`
      )
    }
  }
}
