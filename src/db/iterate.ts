import type Database from 'better-sqlite3'
import type { Column } from '#src/db/orm.js'

/**
 * A drizzle select read one row at a time (better-sqlite3's iterate; drizzle has no iterator), so
 * a list of thousands never holds all its rows at once. `columns` is the select's selection (or
 * the table's columns for `select()`), in its order: each value mapped as drizzle maps it. The
 * connection is busy until the rows are read: consume them synchronously.
 */
export function * iterateSelect<Row> (
  sqlite: Database.Database,
  query: { toSQL (): { sql: string, params: unknown[] } },
  columns: Record<string, Column>
): Generator<Row> {
  const { sql, params } = query.toSQL()
  const entries = Object.entries(columns)
  for (const values of sqlite.prepare(sql).raw().iterate(...params) as Iterable<unknown[]>) {
    const row: Record<string, unknown> = {}
    entries.forEach(([name, column], i) => {
      const value = values[i]
      row[name] = value === null ? null : column.mapFromDriverValue(value)
    })
    yield row as Row
  }
}
