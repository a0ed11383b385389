import { and, eq, or, sql, type SQL, type SQLiteColumn } from '#src/db/orm.js'
import { gigAsked, users } from '#src/db/schema.js'

// Occasional members (subs) hear of and owe answers for only the gigs an editor asks them for:
// never rehearsals or surveys. Everyone else owes every answer.

/** The member (`users` in the query) is expected to answer the gig in `gigId`. */
export const expectedForGig = (gigId: SQLiteColumn | number): SQL =>
  or(
    eq(users.occasional, false),
    sql`EXISTS (SELECT 1 FROM ${gigAsked} WHERE ${gigAsked.gigId} = ${gigId}
      AND ${gigAsked.userId} = ${users.id})`
  )!

/** The member is expected to answer rehearsals and surveys. */
export const expectedForBand: SQL = and(eq(users.occasional, false))!
