import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'

// Reading a libreStage database (libreStage 0.5.33: FastAPI + SQLAlchemy + SQLite, German column
// names). The file is never written: it is copied into a private temporary directory and the copy
// is opened read-only (SQLite creates -wal and -shm files beside a WAL-mode database even when it
// opens it read-only). Everything the importer needs is loaded into memory here, so the source is
// closed before Bandstand's database is written.

/** What the importer accepts: a band's app.db is a few MB; these bound memory and time. */
export const LIBRESTAGE_LIMITS = {
  /** Bytes of the app.db file. */
  maxSourceBytes: 256 * 1024 * 1024,
  /** Rows of any one table. */
  maxRowsPerTable: 100_000
}
export type LibreStageLimits = typeof LIBRESTAGE_LIMITS

export class LibreStageImportError extends Error {
  override name = 'LibreStageImportError'
}

/** Every table the importer reads, with the columns it needs. */
export const LIBRESTAGE_TABLES = {
  users: ['id', 'user_name', 'user_pw', 'user_group', 'email', 'clear_name', 'musician',
    'is_singer', 'mm_username', 'status'],
  songs: ['id', 'title', 'interpret', 'genre', 'singer_background', 'singer_lead', 'dance_styles',
    'composer', 'texter', 'publisher', 'arrangement', 'text', 'tone_key', 'status', 'comment',
    'ytlink', 'duration', 'brass'],
  song_feedback: ['id', 'song_id', 'user_id', 'date', 'feedback'],
  gigs: ['id', 'name', 'date', 'organizer', 'kind_of_gig', 'venue', 'doors', 'begin', 'end',
    'status', 'publish', 'notes'],
  sets: ['id', 'name', 'pause', 'setlist_name'],
  gig_sets: ['id', 'id_gig', 'id_set', 'position'],
  set_songs: ['id', 'id_set', 'id_song', 'position', 'eingeschoben', 'uebersprungen', 'feedback'],
  repertoire_setlists: ['id', 'name', 'created_at'],
  repertoire_setlist_sets: ['id', 'repertoire_setlist_id', 'set_id', 'position'],
  gig_schedule_items: ['id', 'gig_id', 'item_datetime', 'was', 'wer', 'wo', 'comment'],
  gig_checklist_items: ['id', 'gig_id', 'title', 'category', 'assignee_user_id', 'assignee_name',
    'done', 'due_datetime', 'position', 'comment'],
  availability: ['id', 'user_id', 'event_type', 'event_id', 'status', 'comment',
    'substitute_name', 'substitute_user_id'],
  rehearsal: ['id', 'comment', 'begin', 'end', 'ical'],
  rehearsal_song: ['id', 'id_rehearsal', 'id_song', 'comment', 'todo', 'done'],
  todos: ['id', 'id_song', 'id_reh', 'id_user', 'todo', 'dt', 'done'],
  surveys: ['id', 'kind_of_survey', 'rf_survey', 'released', 'closed', 'user_created',
    'release_date', 'datum'],
  survey_field: ['id', 'id_survey', 'field_text'],
  survey_feedback: ['id', 'id_sv_field', 'id_user', 'datum', 'value', 'comment']
} as const
export type LibreStageTable = keyof typeof LIBRESTAGE_TABLES

/** libreStage tables that are known and deliberately left out, with the reason. */
export const LEFT_OUT_TABLES: Record<string, string> = {
  refresh_tokens:
    'the phones and browsers logged in to libreStage: everyone logs in to Bandstand once',
  token_blacklist: 'a record of logouts from libreStage: nothing in it a band needs',
  used_password_reset_tokens:
    "a record of libreStage's used password reset links: nothing in it a band needs",
  alembic_version: "libreStage's schema version: checked and shown in the report"
}

/** Columns read but without a home in Bandstand: counted in the report, never dropped silently. */
export const UNMAPPED_COLUMNS: Partial<Record<LibreStageTable, Record<string, string>>> = {
  users: {
    mm_username:
      'Mattermost names: Bandstand posts to the band channel, not to single members'
  },
  gigs: { publish: 'whether a gig was shown publicly: Bandstand has no public gig list' },
  sets: { setlist_name: "the name of a set's setlist: each set keeps its own name" },
  rehearsal: {
    ical: "calendar data: each member subscribes to Bandstand's own calendar feed instead"
  },
  surveys: {
    release_date: 'when a survey was to be released: a Bandstand survey is open once created'
  }
}

export type SourceValue = string | number | bigint | Buffer | null
export type SourceRow = Record<string, SourceValue>

export interface LibreStageSource {
  file: string
  bytes: number
  /** SHA-256 of the file's bytes: the same file is not imported twice. */
  fingerprint: string
  alembicVersion: string
  rows: Record<LibreStageTable, SourceRow[]>
  /** Tables not known to the importer (a newer libreStage), with their row counts. */
  unknownTables: Array<{ table: string; rows: number }>
  /** Known tables left out, with row counts. */
  leftOutTables: Array<{ table: string; rows: number; reason: string }>
  /** Columns not known to the importer that hold values. */
  unknownColumns: Array<{ table: string; column: string; values: number }>
}

const SQLITE_HEADER = 'SQLite format 3\0'

/** Reads the file in chunks: its hash without holding it in memory twice. */
function fingerprintOf (file: string): { sha256: string; header: string } {
  const hash = createHash('sha256')
  const fd = openSync(file, 'r')
  const buffer = Buffer.alloc(1024 * 1024)
  let header = ''
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
      if (!header) header = buffer.subarray(0, 16).toString('latin1')
      hash.update(buffer.subarray(0, n))
    }
  } finally {
    closeSync(fd)
  }
  return { sha256: hash.digest('hex'), header }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Opens `file` read-only, checks that it is a libreStage database within the limits, and reads it.
 * Every refusal is a LibreStageImportError whose message says what is wrong.
 */
export function readLibreStage (
  file: string,
  limits: LibreStageLimits = LIBRESTAGE_LIMITS
): LibreStageSource {
  if (!existsSync(file)) throw new LibreStageImportError(`${file} does not exist`)
  const stat = statSync(file)
  if (!stat.isFile()) throw new LibreStageImportError(`${file} is not a file`)
  if (stat.size > limits.maxSourceBytes) {
    throw new LibreStageImportError(
      `${file} has ${stat.size} bytes; the import takes databases of at most ` +
        `${limits.maxSourceBytes} bytes`
    )
  }
  for (const suffix of ['-wal', '-journal']) {
    const companion = `${file}${suffix}`
    if (existsSync(companion) && statSync(companion).size > 0) {
      throw new LibreStageImportError(
        `${companion} holds changes not yet in ${file}: libreStage is still running or did ` +
          'not shut down cleanly. Stop libreStage (start and stop it once after a crash), then ' +
          'import again.'
      )
    }
  }
  const scratch = mkdtempSync(join(tmpdir(), 'bandstand-librestage-'))
  let sqlite: Database.Database | undefined
  try {
    const copy = join(scratch, 'app.db')
    copyFileSync(file, copy)
    const { sha256, header } = fingerprintOf(copy)
    if (header !== SQLITE_HEADER) {
      throw new LibreStageImportError(
        `${file} is not an SQLite database (libreStage keeps its data in app.db, an SQLite file)`
      )
    }
    sqlite = new Database(copy, { readonly: true, fileMustExist: true })
    refuseActiveSchema(sqlite, file)
    return readOpened(sqlite, { file, bytes: stat.size, fingerprint: sha256 }, limits)
  } catch (error) {
    if (error instanceof LibreStageImportError) throw error
    const code = (error as { code?: string }).code ?? ''
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
      throw new LibreStageImportError(`${file} is damaged: ${(error as Error).message}`)
    }
    throw error
  } finally {
    sqlite?.close()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * The file's schema is the sender's code: a generated column's expression runs for every row that
 * is read or checked (a 196 KB file with one cost quick_check 25.7 s and 656 MB per 100 rows), a
 * view or a trigger runs what it holds, a virtual table calls a module. None belongs in a
 * libreStage database (SQLAlchemy creates plain tables), so all are refused from the catalogue
 * alone, before any statement reads a row; `trusted_schema` off keeps functions with side effects
 * out of whatever schema SQL still runs, and CHECK constraints are not evaluated by the check.
 */
function refuseActiveSchema (sqlite: Database.Database, file: string): void {
  sqlite.pragma('trusted_schema = OFF')
  sqlite.pragma('ignore_check_constraints = ON')
  const objects = sqlite
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all() as Array<{ type: string; name: string; sql: string | null }>
  const refuse = (what: string) =>
    new LibreStageImportError(
      `${file} is not a plain libreStage database: it holds ${what}, which the import never ` +
        'runs (libreStage creates none)'
    )
  for (const object of objects) {
    if (object.type === 'view' || object.type === 'trigger') {
      throw refuse(`the ${object.type} ${JSON.stringify(object.name)}`)
    }
    if (object.type === 'table' && /^\s*CREATE\s+VIRTUAL\b/i.test(object.sql ?? '')) {
      throw refuse(`the virtual table ${JSON.stringify(object.name)}`)
    }
  }
  const hidden = sqlite
    .prepare(
      'SELECT m.name AS tableName, c.name AS columnName, c.hidden AS hidden ' +
        "FROM sqlite_master AS m, pragma_table_xinfo(m.name) AS c WHERE m.type = 'table' " +
        "AND m.name NOT LIKE 'sqlite_%' AND c.hidden <> 0 LIMIT 1"
    )
    .get() as { tableName: string; columnName: string; hidden: number } | undefined
  if (hidden) {
    const kind = hidden.hidden >= 2 ? 'generated' : 'hidden'
    throw refuse(`the ${kind} column ${JSON.stringify(`${hidden.tableName}.${hidden.columnName}`)}`)
  }
}

function readOpened (
  sqlite: Database.Database,
  meta: Pick<LibreStageSource, 'file' | 'bytes' | 'fingerprint'>,
  limits: LibreStageLimits
): LibreStageSource {
  const check = sqlite.pragma('quick_check', { simple: true })
  if (check !== 'ok') {
    throw new LibreStageImportError(
      `${meta.file} is damaged (SQLite quick_check: ${String(check)})`
    )
  }
  const tables = (
    sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>
  ).map((r) => r.name)
  const expected = [...Object.keys(LIBRESTAGE_TABLES), 'alembic_version']
  const missing = expected.filter((name) => !tables.includes(name))
  if (missing.length > 0) {
    throw new LibreStageImportError(
      `${meta.file} is not a libreStage database (0.5.x): ` +
        `missing table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`
    )
  }
  const columnsOf = (table: string) =>
    (sqlite.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{
      name: string
    }>).map((c) => c.name)
  const missingColumns = Object.entries(LIBRESTAGE_TABLES).flatMap(([table, wanted]) => {
    const present = columnsOf(table)
    return wanted.filter((c) => !present.includes(c)).map((c) => `${table}.${c}`)
  })
  if (missingColumns.length > 0) {
    throw new LibreStageImportError(
      `${meta.file} is not a libreStage database (0.5.x): missing column` +
        `${missingColumns.length > 1 ? 's' : ''} ${missingColumns.join(', ')}`
    )
  }
  const versions = sqlite.prepare('SELECT version_num FROM alembic_version').all() as Array<{
    version_num: string
  }>
  if (versions.length !== 1) {
    throw new LibreStageImportError(
      `${meta.file}: alembic_version holds ${versions.length} rows, libreStage keeps exactly one`
    )
  }
  const counts = new Map(
    tables.map((table) => [
      table,
      (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n
    ])
  )
  for (const [table, n] of counts) {
    if (n > limits.maxRowsPerTable) {
      throw new LibreStageImportError(
        `${meta.file}: table ${table} has ${n} rows; the import takes at most ` +
          `${limits.maxRowsPerTable} per table`
      )
    }
  }
  const rows = Object.fromEntries(
    Object.entries(LIBRESTAGE_TABLES).map(([table, columns]) => [
      table,
      sqlite
        .prepare(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} ORDER BY id`)
        .all() as SourceRow[]
    ])
  ) as Record<LibreStageTable, SourceRow[]>
  const unknownColumns = Object.entries(LIBRESTAGE_TABLES).flatMap(([table, wanted]) =>
    columnsOf(table)
      .filter((c) => !(wanted as readonly string[]).includes(c))
      .map((column) => ({
        table,
        column,
        values: (
          sqlite
            .prepare(
              `SELECT count(*) AS n FROM ${quote(table)} WHERE ${quote(column)} IS NOT NULL ` +
                `AND trim(${quote(column)}) NOT IN ('', 'None')`
            )
            .get() as { n: number }
        ).n
      }))
      .filter((c) => c.values > 0)
  )
  const known = new Set([...Object.keys(LIBRESTAGE_TABLES), ...Object.keys(LEFT_OUT_TABLES)])
  return {
    ...meta,
    alembicVersion: versions[0]!.version_num,
    rows,
    unknownTables: tables
      .filter((t) => !known.has(t))
      .sort()
      .map((table) => ({ table, rows: counts.get(table)! })),
    leftOutTables: Object.entries(LEFT_OUT_TABLES)
      .filter(([table]) => tables.includes(table))
      .map(([table, reason]) => ({ table, rows: counts.get(table)!, reason })),
    unknownColumns
  }
}
