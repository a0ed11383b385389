// drizzle-orm for every module of ours: its CommonJS build, loaded once here.
//
// Loaded as ES modules, drizzle-orm costs each process ~0.6 s of CPU under npm start's flags
// (a quarter of the server's start): for each of its ~110 `.js` files Node looks up
// the package's type and, doing so, parses the package.json "exports" map again (179 KB). The
// `.cjs` files need no lookup: the same entry points load in ~0.1 s. Everything of drizzle's that
// runs goes through this module, so there is one copy of its classes; types come from the package.
// A new name is added here (eslint.config.js refuses drizzle-orm imports elsewhere, but types).
import { createRequire } from 'node:module'
import type * as Orm from 'drizzle-orm'
import type * as SqliteCore from 'drizzle-orm/sqlite-core'
import type * as BetterSqlite3 from 'drizzle-orm/better-sqlite3'
import type * as Migrator from 'drizzle-orm/migrator'
import type * as BetterSqlite3Migrator from 'drizzle-orm/better-sqlite3/migrator'

const require = createRequire(import.meta.url)
const orm = require('drizzle-orm') as typeof Orm
const core = require('drizzle-orm/sqlite-core') as typeof SqliteCore
const driver = require('drizzle-orm/better-sqlite3') as typeof BetterSqlite3
const migrator = require('drizzle-orm/migrator') as typeof Migrator
const driverMigrator = require('drizzle-orm/better-sqlite3/migrator') as
  typeof BetterSqlite3Migrator

export const {
  and, asc, between, count, countDistinct, desc, eq, getTableColumns, getTableName, gt, gte,
  inArray, is, isNotNull, isNull, like, lt, lte, max, ne, notExists, notInArray, or, sql
} = orm
export type { Column, SQL } from 'drizzle-orm'

export const {
  alias, blob, check, getTableConfig, index, integer, primaryKey, sqliteTable, text, uniqueIndex
} = core
/** The class (for `is(value, SQLiteTable)`) and its instances' type, as drizzle's own name. */
export const SQLiteTable = core.SQLiteTable
// eslint-disable-next-line @typescript-eslint/no-redeclare -- value and type, as drizzle has them
export type SQLiteTable<T extends SqliteCore.TableConfig = SqliteCore.TableConfig> =
  SqliteCore.SQLiteTable<T>
export type { SQLiteColumn } from 'drizzle-orm/sqlite-core'

export const { drizzle } = driver
export type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
export const { readMigrationFiles } = migrator
export const { migrate } = driverMigrator
