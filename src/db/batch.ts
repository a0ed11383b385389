import {
  getTableColumns, sql, type SQL, type SQLiteColumn, type SQLiteTable
} from './orm.js'
import type { Db } from './client.js'

/** Anything that can run a statement: the database or a transaction. */
export type Runner = Pick<Db, 'run'>

/** SQLite refuses statements with more bound parameters than this (SQLITE_MAX_VARIABLE_NUMBER). */
export const MAX_BOUND_PARAMETERS = 32766

/**
 * Splits rows so that no statement binds more than the SQLite limit; one chunk for any realistic
 * size.
 */
export function chunksFor<T> (rows: readonly T[], parametersPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_BOUND_PARAMETERS / parametersPerRow))
  const chunks: T[][] = []
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size))
  return chunks
}

/**
 * Drizzle binds every column of a table on insert (defaults and nulls included): the parameters per
 * row.
 */
export const columnCount = (table: SQLiteTable): number =>
  Object.keys(getTableColumns(table)).length

/**
 * Updates many rows, each to its own values, in one statement per chunk instead of one per row:
 * `UPDATE t SET a = v.column2, b = v.column3 FROM (VALUES (id, a, b), ...) AS v WHERE t.id =
 * v.column1`. Each row is `[id, ...values]` with the values in the order of `columns`.
 */
export function updateRowsById (
  db: Runner,
  table: SQLiteTable,
  id: SQLiteColumn,
  columns: readonly SQLiteColumn[],
  rows: readonly unknown[][]
): void {
  const assignments = sql.join(
    columns.map(
      (column, i) => sql`${sql.identifier(column.name)} = ${sql.raw(`v.column${i + 2}`)}`
    ),
    sql`, `
  )
  for (const chunk of chunksFor(rows, columns.length + 1)) {
    const values: SQL[] = chunk.map((row) => {
      if (row.length !== columns.length + 1) {
        throw new Error(
          `updateRowsById: expected ${columns.length + 1} values per row, got ${row.length}`
        )
      }
      return sql`(${sql.join(
        row.map((value) => sql`${value}`),
        sql`, `
      )})`
    })
    db.run(
      sql`UPDATE ${table} SET ${assignments} FROM (VALUES ${sql.join(values, sql`, `)}) AS v
        WHERE ${table}.${sql.identifier(id.name)} = v.column1`
    )
  }
}
