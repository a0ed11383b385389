/**
 * Reading `INSERT/UPDATE/DELETE … RETURNING` so that a failed commit throws.
 *
 * better-sqlite3's `.get()` steps a statement once and then resets it, ignoring what the reset
 * returns. Outside a transaction SQLite commits an autocommit RETURNING statement only at that
 * reset, so a commit that fails (SQLITE_FULL on a full disk, SQLITE_IOERR on a failing card) is
 * lost silently: the caller gets the row, the database keeps nothing. `.all()` steps to the end,
 * where the commit happens, and throws. Every RETURNING statement is read through these helpers
 * (eslint forbids `.returning(…).get()`), inside a transaction or not, so no write path depends on
 * where it runs. See docs/development.md → Notes → "A failed commit that better-sqlite3 does not
 * report".
 */
interface ReturningQuery<T> {
  all(): T[]
}

/** The first row the statement returned, or undefined when it touched no row. */
export function returnedRow<T> (query: ReturningQuery<T>): T | undefined {
  return query.all()[0]
}

/**
 * The row a statement certain to write one row wrote (an insert, an update of a row just read):
 * none is a bug.
 */
export function writtenRow<T> (query: ReturningQuery<T>): T {
  const row = query.all()[0]
  if (row === undefined) throw new Error('a write … RETURNING that must write a row returned none')
  return row
}
