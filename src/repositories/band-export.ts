import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { APP_VERSION } from '#src/version.js'
import { migrationsFolder } from '#src/db/client.js'

// The full band export: every table of the database except secrets and sessions, as one versioned
// JSON document that an import into an empty database can restore exactly (ids, values and the
// AUTOINCREMENT counters kept). It is read from SQLite's own catalogue, so a table added later is
// exported without anyone remembering to (test/plugins/exports/exports.test.ts checks every table
// is either exported or excluded here with a reason). Used by GET /admin/export and by the command
// line.

export const BAND_EXPORT_FORMAT = 'bandstand-band-export'
/** Raised when the document's shape changes (not when a table or column is added). */
export const BAND_EXPORT_FORMAT_VERSION = 1

/** Tables left out, and why. */
export const EXCLUDED_TABLES: Record<string, string> = {
  sessions: 'logins of devices; they hold refresh-token hashes and mean nothing elsewhere',
  refresh_token_history: 'hashes of rotated refresh tokens, part of the sessions',
  calendar_tokens: 'hashes of calendar feed tokens (secrets); members create new feed URLs',
  password_reset_tokens: 'hashes of one-time password reset links (secrets)',
  answer_tokens: 'hashes of the one-click answer links of mails (secrets)',
  unsubscribe_tokens: 'hashes of the unsubscribe links of mails (secrets)',
  mail_jobs: 'reminders planned by this installation; planned again when an event changes',
  mail_outbox: 'the mails sent to members and their addresses; a record of this installation',
  push_subscriptions: "members' phones' push endpoints and keys (secrets of those devices)",
  push_outbox: 'the push messages sent to those phones; a record of this installation',
  live_taps: 'the undo history of live mode (and its replay keys); it means nothing after the show',
  __drizzle_migrations: 'migration bookkeeping; `schemaVersion` names the schema instead'
}
/** Columns left out of exported tables, and why. */
export const EXCLUDED_COLUMNS: Record<string, Record<string, string>> = {
  users: {
    password_hash: 'password hashes are secrets: imported users set a new password by reset link'
  }
}

/** A database over this size is refused over HTTP (the whole document is built in memory). */
export const MAX_EXPORT_DATABASE_BYTES = 16 * 1024 * 1024

export class ExportTooLarge extends Error {
  constructor (readonly bytes: number, readonly limit: number, what: 'database' | 'archive' =
  'database') {
    super(what === 'database'
      ? `the database holds ${bytes} bytes of data; the export takes at most ${limit}`
      : `the archive with the band's files would take ${bytes} bytes; a zip takes at most ` +
        `${limit} (move the band by backup: the database and DATA_DIR/files)`)
  }
}

export interface ExportedTable {
  name: string
  /** In the order of each row's values; `type` is SQLite's declared type (BLOB: base64 text). */
  columns: Array<{ name: string; type: string }>
  primaryKey: string[]
  rows: unknown[][]
}

export interface BandExport {
  format: typeof BAND_EXPORT_FORMAT
  formatVersion: number
  exportedAt: string
  appVersion: string
  /** The last applied migration: an importer knows which schema the rows were written with. */
  schemaVersion: string
  excluded: { tables: Record<string, string>; columns: Record<string, Record<string, string>> }
  /** Parents before children (an import in this order satisfies every foreign key). */
  tables: ExportedTable[]
  /** sqlite_sequence: the next AUTOINCREMENT ids, so deleted ids are never handed out again. */
  sequences: Record<string, number>
}

export interface ColumnInfo {
  name: string
  type: string
  notnull: number
  pk: number
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** Table names with their parents first; ties in alphabetical order (deterministic). */
function dependencyOrder (sqlite: Database.Database, names: string[]): string[] {
  const parents = new Map(
    names.map((name) => [
      name,
      new Set(
        (
          sqlite.prepare(`PRAGMA foreign_key_list(${quote(name)})`).all() as Array<{
            table: string
          }>
        )
          .map((fk) => fk.table)
          .filter((table) => table !== name && names.includes(table))
      )
    ])
  )
  const ordered: string[] = []
  const done = new Set<string>()
  while (ordered.length < names.length) {
    const ready = names.filter(
      (name) => !done.has(name) && [...parents.get(name)!].every((p) => done.has(p))
    )
    if (ready.length === 0) throw new Error('foreign key cycle between tables')
    for (const name of ready) {
      ordered.push(name)
      done.add(name)
    }
  }
  return ordered
}

/** The tag (`0002_…`) of the migration drizzle recorded with this timestamp. */
function migrationTag (when: number | undefined): string {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')
  ) as { entries: Array<{ when: number; tag: string }> }
  return journal.entries.find((e) => e.when === Number(when))?.tag ?? 'unknown'
}

/** Bytes of data in the database file (pages in use). */
export function databaseDataBytes (sqlite: Database.Database): number {
  const pages = Number(sqlite.pragma('page_count', { simple: true }))
  const free = Number(sqlite.pragma('freelist_count', { simple: true }))
  return (pages - free) * Number(sqlite.pragma('page_size', { simple: true }))
}

export interface ExportedTableSchema {
  name: string
  /** The exported columns in table order (excluded ones left out). */
  columns: ColumnInfo[]
  primaryKey: string[]
}

/**
 * What an export of this database holds: its tables (parents first) and columns, read from SQLite's
 * catalogue minus the exclusions. The import takes exactly these names and nothing else (a file
 * cannot name a table or column the export would not write, in any spelling).
 */
export function exportedSchema (sqlite: Database.Database): ExportedTableSchema[] {
  const all = (
    sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
          'ORDER BY name'
      )
      .all() as Array<{ name: string }>
  ).map((r) => r.name)
  const names = dependencyOrder(
    sqlite,
    all.filter((name) => !Object.hasOwn(EXCLUDED_TABLES, name))
  )
  return names.map((name) => {
    const info = sqlite.prepare(`PRAGMA table_info(${quote(name)})`).all() as ColumnInfo[]
    const excluded = EXCLUDED_COLUMNS[name] ?? {}
    return {
      name,
      columns: info.filter((c) => !Object.hasOwn(excluded, c.name)),
      primaryKey: info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name)
    }
  })
}

/**
 * Builds the export in one read transaction (a consistent snapshot). Deterministic: tables in
 * dependency order, rows by primary key, columns in table order, so two exports of the same data
 * differ only in `exportedAt`.
 */
export function buildBandExport (
  sqlite: Database.Database,
  options: { now: Date; maxBytes?: number }
): BandExport {
  const limit = options.maxBytes ?? MAX_EXPORT_DATABASE_BYTES
  const bytes = databaseDataBytes(sqlite)
  if (bytes > limit) throw new ExportTooLarge(bytes, limit)
  const read = sqlite.transaction(() => {
    const schema = exportedSchema(sqlite)
    const names = schema.map((t) => t.name)
    const tables = schema.map(({ name, columns, primaryKey }): ExportedTable => {
      const order = primaryKey.length ? primaryKey.map(quote).join(', ') : 'rowid'
      const blobs = columns.map((c) => c.type.toUpperCase() === 'BLOB')
      const rows = (
        sqlite
          .prepare(
            `SELECT ${columns.map((c) => quote(c.name)).join(', ')} FROM ${quote(name)} ` +
              `ORDER BY ${order}`
          )
          .raw()
          .all() as unknown[][]
      ).map((row) =>
        row.map((value, i) =>
          blobs[i] && Buffer.isBuffer(value) ? value.toString('base64') : value
        )
      )
      return {
        name,
        columns: columns.map((c) => ({ name: c.name, type: c.type })),
        primaryKey,
        rows
      }
    })
    const sequences = Object.fromEntries(
      (
        sqlite.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').all() as Array<{
          name: string
          seq: number
        }>
      ).filter((s) => names.includes(s.name)).map((s) => [s.name, s.seq])
    )
    const applied = sqlite
      .prepare('SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1')
      .get() as { created_at: number } | undefined
    return { tables, sequences, schemaVersion: migrationTag(applied?.created_at) }
  })
  const { tables, sequences, schemaVersion } = read.deferred()
  return {
    format: BAND_EXPORT_FORMAT,
    formatVersion: BAND_EXPORT_FORMAT_VERSION,
    exportedAt: options.now.toISOString(),
    appVersion: APP_VERSION,
    schemaVersion,
    excluded: { tables: EXCLUDED_TABLES, columns: EXCLUDED_COLUMNS },
    tables,
    sequences
  }
}
