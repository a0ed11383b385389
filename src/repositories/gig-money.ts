import { and, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { gigMoney } from '#src/db/schema.js'

/**
 * Whether deleting the gig would drop money: a fee or an expense. A row of zeros is no money
 * (the form was opened and saved empty).
 */
export function gigHasMoney (db: Db, gigId: number): boolean {
  return db
    .select({ one: sql<number>`1` })
    .from(gigMoney)
    .where(and(
      eq(gigMoney.gigId, gigId),
      sql`(${gt(gigMoney.feeCents, 0)} OR json_array_length(${gigMoney.expenses}) > 0)`
    ))
    .get() !== undefined
}
