import { randomBytes } from 'node:crypto'
import fp from 'fastify-plugin'
import { openDatabase, type Db, type DatabaseHandle } from '#src/db/client.js'
import type Database from 'better-sqlite3'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    sqlite: Database.Database
    dbTrace: DatabaseHandle['trace']
    /**
     * Changes whenever any row of the database changes, through this process or another one (the
     * CLI).
     */
    dbRevision(): string
    /**
     * The same revision from the two columns of `REVISION_COLUMNS`, read inside another statement.
     */
    dbRevisionOf(changes: number, external: number): string
  }
  interface FastifyRequest {
    /** The revision read together with this request's session (one statement instead of two). */
    dbRevision: string | null
  }
}

/**
 * Columns any SELECT can carry to read the revision in the same statement: `total_changes()` counts
 * every row this connection wrote, `data_version` moves when another connection commits.
 */
export const REVISION_COLUMNS =
  'total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS external'

export interface DbPluginOptions {
  databaseFile: string
  /** Report every executed statement to `app.dbTrace.listener` (tests count them). */
  traceSql?: boolean
}

/**
 * One SQLite connection for the process: better-sqlite3 is synchronous, so one connection serves
 * all.
 */
export default fp<DbPluginOptions>(
  async (app, options) => {
    const handle = openDatabase(options.databaseFile, { trace: options.traceSql })
    app.decorate('db', handle.db)
    app.decorate('sqlite', handle.sqlite)
    app.decorate('dbTrace', handle.trace)
    // A per-start id keeps revisions (and the ETags made of them) of an earlier run from matching.
    const boot = randomBytes(3).toString('hex')
    const revisionOf = (changes: number, external: number) => `${boot}.${external}.${changes}`
    const revisionStatement = handle.sqlite.prepare(`SELECT ${REVISION_COLUMNS}`).raw()
    app.decorate('dbRevisionOf', revisionOf)
    app.decorate('dbRevision', () => {
      const [changes, external] = revisionStatement.get() as [number, number]
      return revisionOf(changes, external)
    })
    app.decorateRequest('dbRevision', null)
    app.addHook('onClose', async () => handle.close())
  },
  { name: 'db', fastify: '5.x' }
)
