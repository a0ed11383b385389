import { and, asc, eq, or, sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client.js'
import { gigAvailability, users } from '../../src/db/schema.js'
import type { AvailabilityAnswerType, AvailabilityPutType, AvailabilityType } from '../../schemas/gigs.js'

/**
 * Every active musician (answered or not) plus anyone else who answered, in one statement; the summary
 * counts active musicians only, so a former member's old answer does not skew it.
 */
export function loadAvailability(db: Db, gigId: number): AvailabilityType {
  const rows = db
    .select({
      userId: users.id,
      displayName: users.displayName,
      counts: sql<number>`(${users.status} = 'active' AND ${users.isMusician} = 1)`,
      status: gigAvailability.status,
      note: gigAvailability.note,
      updatedAt: gigAvailability.updatedAt
    })
    .from(users)
    .leftJoin(gigAvailability, and(eq(gigAvailability.userId, users.id), eq(gigAvailability.gigId, gigId)))
    .where(or(and(eq(users.status, 'active'), eq(users.isMusician, true)), sql`${gigAvailability.userId} IS NOT NULL`))
    .orderBy(asc(users.displayName), asc(users.id))
    .all()
  const summary = { yes: 0, no: 0, maybe: 0, unanswered: 0 }
  const answers: AvailabilityAnswerType[] = rows.map((r) => {
    if (Number(r.counts) === 1) summary[r.status ?? 'unanswered'] += 1
    return { userId: r.userId, displayName: r.displayName, status: r.status, note: r.note, updatedAt: r.updatedAt }
  })
  return { answers, summary }
}

export function saveAvailability(db: Db, gigId: number, userId: number, body: AvailabilityPutType, now: Date): void {
  const values = { status: body.status, note: body.note ?? null, updatedAt: now.toISOString() }
  db.insert(gigAvailability)
    .values({ gigId, userId, ...values })
    .onConflictDoUpdate({ target: [gigAvailability.gigId, gigAvailability.userId], set: values })
    .run()
}
