import { and, asc, eq, or, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigAvailability, gigs, rehearsalAvailability, rehearsals, users } from '#src/db/schema.js'
import type {
  AvailabilityAnswerType,
  AvailabilityPutType,
  AvailabilityType
} from '#schemas/availability.js'
import { expectedForBand, expectedForGig } from './occasional.js'

/** The answers of one kind of event: its table and the column that points at the event. */
export interface AvailabilitySource {
  table: typeof gigAvailability | typeof rehearsalAvailability
  eventId: typeof gigAvailability.gigId | typeof rehearsalAvailability.rehearsalId
  events: typeof gigs | typeof rehearsals
}

export type AvailabilityEvent = 'gig' | 'rehearsal'

export const availabilitySources: Record<AvailabilityEvent, AvailabilitySource> = {
  gig: { table: gigAvailability, eventId: gigAvailability.gigId, events: gigs },
  rehearsal: {
    table: rehearsalAvailability,
    eventId: rehearsalAvailability.rehearsalId,
    events: rehearsals
  }
}

export function eventExists (db: Db, { events }: AvailabilitySource, id: number): boolean {
  return db.select({ id: events.id }).from(events).where(eq(events.id, id)).get() !== undefined
}

/**
 * Active musicians count; an occasional one only for a gig they were asked for, or where they
 * answered anyway (a sub's yes is news, their silence is not).
 */
const countsInSummary = ({ table, events }: AvailabilitySource, id: number) =>
  and(eq(users.status, 'active'), eq(users.isMusician, true),
    or(events === gigs ? expectedForGig(id) : expectedForBand, sql`${table.userId} IS NOT NULL`))

function answerRows (db: Db, source: AvailabilitySource, id: number, userId?: number) {
  const { table, eventId } = source
  const counts = countsInSummary(source, id)
  return db
    .select({
      userId: users.id,
      displayName: users.displayName,
      counts: sql<number>`(${counts})`,
      status: table.status,
      note: table.note,
      updatedAt: table.updatedAt
    })
    .from(users)
    .leftJoin(table, and(eq(table.userId, users.id), eq(eventId, id)))
    .where(
      userId === undefined
        ? or(counts, sql`${table.userId} IS NOT NULL`)
        : and(eq(users.id, userId), sql`${table.userId} IS NOT NULL`)
    )
    .orderBy(asc(users.displayName), asc(users.id))
    .all()
}

const toAnswer = (r: ReturnType<typeof answerRows>[number]): AvailabilityAnswerType => ({
  userId: r.userId,
  displayName: r.displayName,
  status: r.status,
  note: r.note,
  updatedAt: r.updatedAt
})

/**
 * Every active musician who owes an answer (answered or not) plus anyone else who answered, in one
 * statement; the summary counts those only, so a former member's old answer does not skew it.
 */
export function loadAvailability (
  db: Db,
  source: AvailabilitySource,
  id: number
): AvailabilityType {
  const rows = answerRows(db, source, id)
  const summary = { yes: 0, no: 0, maybe: 0, unanswered: 0 }
  for (const r of rows) if (Number(r.counts) === 1) summary[r.status ?? 'unanswered'] += 1
  return { answers: rows.map(toAnswer), summary }
}

/**
 * The caller's own answer: an upsert, then the stored answer with the display name (two
 * statements).
 */
export function saveAvailability (
  db: Db,
  source: AvailabilitySource,
  id: number,
  userId: number,
  body: AvailabilityPutType,
  now: Date
): AvailabilityAnswerType {
  const { table, eventId } = source
  const note = body.note ?? null
  const updatedAt = now.toISOString()
  // Written out: the insert targets gig_id or rehearsal_id, which Drizzle's insert typing cannot
  // take from a union.
  const [event, user, status, noteColumn, updated] = [
    eventId,
    table.userId,
    table.status,
    table.note,
    table.updatedAt
  ].map((c) => sql.identifier(c.name))
  db.run(
    sql`INSERT INTO ${table} (${event}, ${user}, ${status}, ${noteColumn}, ${updated})
        VALUES (${id}, ${userId}, ${body.status}, ${note}, ${updatedAt})
        ON CONFLICT (${event}, ${user}) DO UPDATE SET ${status} = excluded.${status},
          ${noteColumn} = excluded.${noteColumn}, ${updated} = excluded.${updated}`
  )
  return toAnswer(answerRows(db, source, id, userId)[0]!)
}
