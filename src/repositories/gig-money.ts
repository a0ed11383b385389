import { and, eq, gt, sql } from '#src/db/orm.js'
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

/** The fee as a document prints it, or undefined for a gig without money. */
export function findGigFee (db: Db, gigId: number) {
  return db
    .select({
      feeCents: gigMoney.feeCents,
      currency: gigMoney.currency,
      invoiceNumber: gigMoney.invoiceNumber
    })
    .from(gigMoney)
    .where(eq(gigMoney.gigId, gigId))
    .get()
}
