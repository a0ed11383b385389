import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, migrate, readMigrationFiles, type BetterSQLite3Database } from './orm.js'
import * as schema from './schema.js'
import { projectPath } from '#src/project-path.js'
import { backupNow, type BackupSettings } from '#src/storage/backup.js'
import { refuseUnknownMigrations } from './newer-schema.js'
import { convertStoredKeys, hasOldKeys } from './stored-keys.js'

export type Db = BetterSQLite3Database<typeof schema>
/** The handle a `db.transaction()` callback gets. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface DatabaseHandle {
  db: Db
  sqlite: Database.Database
  /** Set a listener to see every SQL statement executed (tests count them to catch N+1 queries). */
  trace: { listener?: (sql: string) => void }
  /** Migrations applied by this open, and in all (the start banner shows them). */
  migrations: { applied: number; total: number }
  /** The backup written before migrating, if any. */
  preMigrationBackup: string | null
  close(): void
}

export const migrationsFolder = projectPath('src', 'db', 'migrations')

/**
 * The database holds every password hash: only the server's own user may read it. The directory is
 * 0700 and the database 0600 (SQLite gives its -wal and -shm files the database's mode), created
 * so or tightened at every start, as older versions left them 0755/0644. A directory or file of
 * another owner, or a shared one (sticky bit, such as /tmp), is left alone.
 */
export function restrictAccess (file: string): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  tightenMode(dir, 0o700)
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tightenMode(path, 0o600)
}

/** Sets `mode` on a file or directory of our own that is not shared (no sticky bit). */
export function tightenMode (path: string, mode: number): void {
  if (!existsSync(path)) return
  const stat = statSync(path)
  const own = process.getuid === undefined || stat.uid === process.getuid()
  if (own && (stat.mode & 0o1000) === 0 && (stat.mode & 0o7777) !== mode) chmodSync(path, mode)
}

/**
 * Opens the database file with the settings every connection needs: WAL so readers never wait for
 * the writer, synchronous=FULL so a write that was answered 2xx survives a power cut, foreign keys
 * enforced, and a busy timeout so the CLI and the server can share the file.
 */
export function openDatabase (
  file: string,
  options: { migrate?: boolean; trace?: boolean; backup?: BackupSettings } = {}
): DatabaseHandle {
  if (file !== ':memory:') restrictAccess(file)
  const trace: DatabaseHandle['trace'] = {}
  // Tracing makes SQLite expand every statement's text: only tests that count statements ask for
  // it.
  const sqlite = new Database(
    file,
    options.trace ? { verbose: (message) => trace.listener?.(String(message)) } : {}
  )
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const db = drizzle(sqlite, { schema })
  const total = readMigrationFiles({ migrationsFolder }).length
  let applied = 0
  let preMigrationBackup: string | null = null
  if (options.migrate !== false) {
    refuseUnknownMigrations(sqlite, options.backup)
    const pending = pendingMigrations(sqlite)
    // A database with data that is about to change shape is copied first (BACKUP_DIR).
    if (pending > 0 && pending < total && options.backup) {
      preMigrationBackup = backupNow(sqlite, options.backup, new Date(), '-pre-migration')
    }
    const oldKeys = hasOldKeys(sqlite)
    migrate(db, { migrationsFolder })
    // The data step of migration 0012, which SQL cannot do clearly.
    if (oldKeys) convertStoredKeys(sqlite)
    applied = pending
  }
  return {
    db,
    sqlite,
    trace,
    migrations: { applied, total },
    preMigrationBackup,
    close () {
      if (sqlite.open) {
        try {
          sqlite.pragma('optimize')
        } catch {
          // A full or failing disk: closing (and the error that led here) matters more.
        }
        sqlite.close()
      }
    }
  }
}

/** How many of the migration files the database has not had yet (as drizzle decides). */
function pendingMigrations (sqlite: Database.Database): number {
  const files = readMigrationFiles({ migrationsFolder })
  const hasTable = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (!hasTable) return files.length
  const last = sqlite
    .prepare('SELECT max(created_at) AS at FROM __drizzle_migrations')
    .get() as { at: number | null }
  return files.filter((file) => last.at === null || file.folderMillis > Number(last.at)).length
}
