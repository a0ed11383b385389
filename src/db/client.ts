import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import * as schema from './schema.js'
import { projectPath } from '#src/project-path.js'

export type Db = BetterSQLite3Database<typeof schema>

export interface DatabaseHandle {
  db: Db
  sqlite: Database.Database
  /** Set a listener to see every SQL statement executed (tests count them to catch N+1 queries). */
  trace: { listener?: (sql: string) => void }
  close(): void
}

export const migrationsFolder = projectPath('src', 'db', 'migrations')

/**
 * Opens the database file with the settings every connection needs: WAL so readers never wait for
 * the writer, synchronous=FULL so a write that was answered 2xx survives a power cut, foreign keys
 * enforced, and a busy timeout so the CLI and the server can share the file.
 */
export function openDatabase (
  file: string,
  options: { migrate?: boolean; trace?: boolean } = {}
): DatabaseHandle {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
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
  if (options.migrate !== false) migrate(db, { migrationsFolder })
  return {
    db,
    sqlite,
    trace,
    close () {
      if (sqlite.open) {
        sqlite.pragma('optimize')
        sqlite.close()
      }
    }
  }
}
