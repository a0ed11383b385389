import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import { openDatabase, type Db, type DatabaseHandle } from '#src/db/client.js'
import type Database from 'better-sqlite3'
import { scheduleBackups, type BackupSettings } from '#src/storage/backup.js'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    sqlite: Database.Database
    dbTrace: DatabaseHandle['trace']
    /** What the start applied (the start banner). */
    migrations: DatabaseHandle['migrations']
    /**
     * Changes whenever any row of the database changes: at once for this process's writes, within
     * EXTERNAL_CHANGES_CHECK_MS for another process's (the CLI).
     */
    dbRevision(): string
  }
  interface FastifyRequest {
    /** The revision this request's session was checked at (read once per request). */
    dbRevision: string | null
  }
}

/**
 * How often at most the revision looks for commits of other processes (the CLI). Looking takes a
 * read transaction (two file-lock system calls): ~20 µs of the ~70 µs of a cached answer inside
 * the server (measured with npm run bench, 304 row). The server's own writes count at once: they
 * are counted without a transaction.
 */
export const EXTERNAL_CHANGES_CHECK_MS = 100

export interface DbPluginOptions {
  databaseFile: string
  /** Report every executed statement to `app.dbTrace.listener` (tests count them). */
  traceSql?: boolean
  /** BACKUP_DIR/BACKUP_KEEP: a backup before a migration, at start when due, and daily. */
  backup?: BackupSettings
}

/**
 * One SQLite connection for the process: better-sqlite3 is synchronous, so one connection serves
 * all.
 */
export default fp<DbPluginOptions>(
  async (app, options) => {
    const handle = openDatabase(options.databaseFile, {
      trace: options.traceSql,
      backup: options.backup
    })
    if (handle.preMigrationBackup) {
      app.log.info({ file: handle.preMigrationBackup }, 'backup written before migrating')
    }
    app.decorate('migrations', handle.migrations)
    if (options.backup) {
      const stop = scheduleBackups(handle.sqlite, options.backup, () => new Date(), app.log)
      app.addHook('onClose', async () => stop())
    }
    app.decorate('db', handle.db)
    app.decorate('sqlite', handle.sqlite)
    app.decorate('dbTrace', handle.trace)
    // A per-start id keeps revisions (and the ETags made of them) of an earlier run from matching.
    const boot = randomBytes(3).toString('hex')
    // `total_changes()` counts every row this connection wrote (no transaction needed);
    // `data_version` moves when another connection commits.
    const ownChanges = handle.sqlite.prepare('SELECT total_changes()').pluck()
    const externalVersion = handle.sqlite.prepare('PRAGMA data_version').pluck()
    let external = 0
    let externalCheckedAt = -Infinity
    app.decorate('dbRevision', () => {
      const now = performance.now()
      if (now - externalCheckedAt >= EXTERNAL_CHANGES_CHECK_MS) {
        external = externalVersion.get() as number
        externalCheckedAt = now
      }
      return `${boot}.${external}.${ownChanges.get() as number}`
    })
    app.decorateRequest('dbRevision', null)
    app.addHook('onClose', async () => handle.close())
  },
  { name: 'db', fastify: '5.x' }
)
