import fp from 'fastify-plugin'
import { openDatabase, type Db, type DatabaseHandle } from '../../src/db/client.js'
import type Database from 'better-sqlite3'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    sqlite: Database.Database
    dbTrace: DatabaseHandle['trace']
  }
}

export interface DbPluginOptions {
  databaseFile: string
  /** Report every executed statement to `app.dbTrace.listener` (tests count them). */
  traceSql?: boolean
}

/** One SQLite connection for the process: better-sqlite3 is synchronous, so one connection serves all. */
export default fp<DbPluginOptions>(
  async (app, options) => {
    const handle = openDatabase(options.databaseFile, { trace: options.traceSql })
    app.decorate('db', handle.db)
    app.decorate('sqlite', handle.sqlite)
    app.decorate('dbTrace', handle.trace)
    app.addHook('onClose', async () => handle.close())
  },
  { name: 'db' }
)
