import { and, eq, gt, isNull, or, type SQL } from '#src/db/orm.js'
import { surveys } from '#src/db/schema.js'

// When a survey counts as open: the surveys plugin and the to-do list (GET /me/todos) decide alike.

/** Open means: not closed by hand and closesAt (if any) still ahead. */
export const openCondition = (now: string): SQL =>
  and(eq(surveys.status, 'open'), or(isNull(surveys.closesAt), gt(surveys.closesAt, now)))!

export const isClosed = (row: { status: string; closesAt: string | null }, now: string) =>
  row.status === 'closed' || (row.closesAt !== null && row.closesAt <= now)
