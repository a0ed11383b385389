import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { migrationsFolder, type Db } from '#src/db/client.js'
import { convertStoredKeys } from '#src/db/stored-keys.js'
import { chunksFor } from '#src/db/batch.js'
import { UNUSABLE_PASSWORD_HASH } from '#src/auth/password.js'
import { prepareLogo } from '#src/documents/logo.js'
import { UPLOAD_LIMITS } from '#shared/limits.js'
import { strongEtag } from '#src/http/etag.js'
import {
  BAND_EXPORT_FORMAT,
  BAND_EXPORT_FORMAT_VERSION,
  EXCLUDED_COLUMNS,
  EXCLUDED_TABLES,
  exportedSchema,
  type BandExport
} from './band-export.js'
import { cellProblem, cellRules, shown } from './band-import-cells.js'
import { hasBandData } from './band-content.js'
import { createImportResetLinks } from './password-resets.js'

// The import side of the full band export (band-export.ts): restores the document into a database
// that holds no band data yet, exactly (ids, values, AUTOINCREMENT counters), so that exporting
// again gives the same document. Users arrive without password hashes: they get an unusable one
// and a one-time reset link each. Used by `bandstand import` (an archive's files:
// band-import-files.ts).

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
  return parseBandExport(text, file)
}

/** Parses and checks a band export's JSON text (`name` says where it came from). */
export function parseBandExport (text: string, name: string): BandExport {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    throw new BandImportError(`${name} is not JSON (a band export is a .zip or a .json file)`)
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

/** A table of the document, checked and converted: the values as they are written. */
interface ImportTable {
  name: string
  columns: string[]
  rows: unknown[][]
}

/**
 * Every problem that makes the document unfit for this database, found before writing anything:
 * tables and columns must be exactly those an export of this database writes (SQLite compares
 * names without case: `Users` would be `users`, with a `password_hash` from the file), and every
 * cell must fit its column. Returns the tables as they are written.
 */
function checkAgainstDatabase (sqlite: Database.Database, doc: BandExport): ImportTable[] {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')
  ) as { entries: Array<{ tag: string }> }
  if (!journal.entries.some((e) => e.tag === doc.schemaVersion)) {
    throw new BandImportError(
      `the export was made with schema ${doc.schemaVersion}, which this Bandstand does not know: ` +
        'update Bandstand first'
    )
  }
  const exported = new Map(exportedSchema(sqlite).map((t) => [t.name, t]))
  const seen = new Set<string>()
  const tables = doc.tables.map((table): ImportTable => {
    const name = shown(table.name)
    if (seen.has(table.name)) throw new BandImportError(`table ${name} appears twice`)
    seen.add(table.name)
    const target = exported.get(table.name)
    if (!target) throw new BandImportError(refusedTable(table.name))
    const rules = cellRules(table.name, target.columns)
    const columns = table.columns.map((column, i) => {
      const rule = rules.get(column.name)
      if (!rule) throw new BandImportError(refusedColumn(table.name, column.name))
      if (table.columns.findIndex((c) => c.name === column.name) !== i) {
        throw new BandImportError(`column ${table.name}.${column.name} appears twice`)
      }
      return rule
    })
    const rows = table.rows.map((row, r) => {
      if (row.length !== columns.length) {
        throw new BandImportError(
          `table ${table.name}, row ${r + 1}: ${columns.length} values expected`
        )
      }
      return row.map((value, c) => {
        const problem = cellProblem(table.name, columns[c]!, value)
        if (problem) {
          throw new BandImportError(
            `table ${table.name}, row ${r + 1}, column ${columns[c]!.name}: ${problem}; ` +
              'nothing was imported'
          )
        }
        return columns[c]!.type === 'BLOB' && typeof value === 'string'
          ? Buffer.from(value, 'base64')
          : value
      })
    })
    const checked = { name: table.name, columns: columns.map((c) => c.name), rows }
    return table.name === 'app_logo' ? prepareImportedLogo(checked) : checked
  })
  for (const [name, next] of Object.entries(doc.sequences)) {
    if (!seen.has(name)) throw new BandImportError(`sequence for unknown table ${shown(name)}`)
    // 1e300 is an integer to JSON: stored, it would fail every later insert into the table.
    if (!Number.isSafeInteger(next) || next < 0) {
      throw new BandImportError(`sequence of table ${name}: ${shown(next)} is not a row id`)
    }
  }
  return tables
}

function refusedTable (name: string): string {
  if (Object.hasOwn(EXCLUDED_TABLES, name)) {
    return `table ${name} is never imported (${EXCLUDED_TABLES[name]})`
  }
  return `unknown table ${shown(name)}: a band export holds only the tables an export of this ` +
    'Bandstand writes, spelt exactly'
}

function refusedColumn (table: string, column: string): string {
  if (Object.hasOwn(EXCLUDED_COLUMNS[table] ?? {}, column)) {
    return `column ${table}.${column} is never imported`
  }
  return `unknown column ${table}.${shown(column)}: a band export holds only the columns an ` +
    'export of this Bandstand writes, spelt exactly'
}

/**
 * The logo goes through the preparation of an upload: its type, accent colour, watermark and
 * entity tag come from the image, never from the file (a smuggled 20000×20000 watermark would be
 * embedded into every document, a `text/html` type served by /public/logo).
 */
function prepareImportedLogo (table: ImportTable): ImportTable {
  const at = (name: string) => table.columns.indexOf(name)
  if (at('data') < 0) throw new BandImportError('table app_logo: the column data is missing')
  const derived = ['mime_type', 'prepared', 'watermark', 'accent', 'etag']
  const columns = [...table.columns.filter((c) => !derived.includes(c)), ...derived]
  const rows = table.rows.map((row, r) => {
    const data = row[at('data')] as Buffer
    const refuse = (why: string) =>
      new BandImportError(
        `table app_logo, row ${r + 1}, column data: ${why}; nothing was imported (remove the ` +
          'table app_logo from the file to import without the logo)'
      )
    const most = UPLOAD_LIMITS.logoBytes
    if (data.length > most) {
      throw refuse(`the logo has ${data.length} bytes, an upload at most ${most}`)
    }
    const logo = prepareLogo(data)
    if (!logo.ok) throw refuse(logo.message)
    const kept = table.columns
      .map((name, i) => [name, row[i]] as const)
      .filter(([name]) => !derived.includes(name))
      .map(([, value]) => value)
    return [...kept, logo.mimeType, 1, logo.watermark, logo.accent, strongEtag(data)]
  })
  return { name: table.name, columns, rows }
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

/**
 * The checks of importBandExport, writing nothing: an archive's files are unpacked only for a
 * document this database takes.
 */
export function checkBandImport (
  handle: { db: Db; sqlite: Database.Database },
  doc: BandExport
): void {
  checkAgainstDatabase(handle.sqlite, doc)
  checkEmpty(handle.db, handle.sqlite, doc)
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
  const tables = checkAgainstDatabase(sqlite, doc)
  const run = sqlite.transaction(() => {
    checkEmpty(db, sqlite, doc)
    sqlite.pragma('defer_foreign_keys = ON')
    for (const table of [...tables].reverse()) {
      sqlite.prepare(`DELETE FROM "${table.name}"`).run()
    }
    const names = tables.map((t) => t.name)
    sqlite
      .prepare(`DELETE FROM sqlite_sequence WHERE name IN (${names.map(() => '?').join(', ')})`)
      .run(...names)
    for (const table of tables) insertRows(sqlite, table)
    // An export from before keys were music holds keys as words ("B-Dur"): read as the migration
    // reads them.
    if (predatesMusicalKeys(doc.schemaVersion)) convertStoredKeys(sqlite)
    const sequences = Object.entries(doc.sequences)
    if (sequences.length) {
      sqlite
        .prepare(
          'INSERT INTO sqlite_sequence (name, seq) VALUES ' +
            sequences.map(() => '(?, ?)').join(', ')
        )
        .run(...sequences.flat())
    }
    const userTable = tables.find((t) => t.name === 'users')
    const idColumn = userTable?.columns.indexOf('id') ?? -1
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

/** Whether an export's schema is older than migration 0012 (keys as pitch class + mode). */
function predatesMusicalKeys (schemaVersion: string): boolean {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')
  ) as { entries: Array<{ tag: string }> }
  const tags = journal.entries.map((e) => e.tag)
  const keys = tags.findIndex((tag) => tag.endsWith('_song_keys_as_music'))
  return tags.indexOf(schemaVersion) < keys
}

/** Multi-row inserts (one statement per chunk); users get the unusable password hash. */
function insertRows (sqlite: Database.Database, table: ImportTable): void {
  const extra = table.name === 'users' ? ['password_hash'] : []
  const names = [...table.columns, ...extra]
  const placeholders = `(${names.map(() => '?').join(', ')})`
  for (const chunk of chunksFor(table.rows, names.length)) {
    const values = chunk.flatMap((row) => [...row, ...extra.map(() => UNUSABLE_PASSWORD_HASH)])
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
