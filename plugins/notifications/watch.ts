import { and, eq, isNull, notInArray, or, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { chunksFor } from '#src/db/batch.js'
import {
  gigs,
  mailWatch,
  rehearsals,
  surveys,
  type GigRow,
  type RehearsalRow
} from '#src/db/schema.js'
import { joinPresent } from '#src/documents/format.js'
import type { MailEventFacts } from './compose.js'
import type { EventReason } from './labels.js'

// Which events the band must hear of: each gig, rehearsal and survey is compared with what the
// mails last reported (mail_watch). A write from anywhere is found, not announced: a route, the
// CLI, an import. Rows are only read where the event's sequence moved since.

type WatchedKind = 'gig' | 'rehearsal' | 'survey'

interface Facts {
  status: string
  date: string
  startTime: string | null
  endTime: string | null
  place: string | null
}

export type EventChange =
  | { kind: 'gig'; reason: EventReason; seen: string; event: MailEventFacts; row: GigRow }
  | {
    kind: 'rehearsal'
    reason: EventReason
    seen: string
    event: MailEventFacts
    row: RehearsalRow
  }
  | { kind: 'survey'; seen: string; survey: typeof surveys.$inferSelect; reminder?: boolean }

/** An event first seen is mailed as new only when it was made this recently (not an import). */
export const NEW_EVENT_WINDOW_MS = 24 * 3600_000

const gigFacts = (g: GigRow): Facts => ({
  status: g.status,
  date: g.date,
  startTime: g.startTime,
  endTime: g.endTime,
  place: joinPresent([g.venueName, g.venueAddress, g.venueCity]) || null
})
const rehearsalFacts = (r: RehearsalRow): Facts => ({
  status: 'confirmed',
  date: r.date,
  startTime: r.startTime,
  endTime: r.endTime,
  place: r.location
})

export const gigEvent = (g: GigRow): MailEventFacts => ({
  kind: 'gig',
  id: g.id,
  name: g.name,
  date: g.date,
  startTime: g.startTime,
  endTime: g.endTime,
  place: gigFacts(g).place,
  notes: g.notes
})
export const rehearsalEvent = (r: RehearsalRow): MailEventFacts => ({
  kind: 'rehearsal',
  id: r.id,
  name: null,
  date: r.date,
  startTime: r.startTime,
  endTime: r.endTime,
  place: r.location,
  notes: r.notes
})

const ANSWERING = new Set(['inquiry', 'confirmed'])

/**
 * Why the band hears of this event now, or null: a new event that needs answers (made recently,
 * still ahead), a gig now confirmed or cancelled, a new date, time or place. Past events never.
 */
export function reasonFor (
  before: Facts | null | 'unknown',
  after: Facts,
  context: { today: string; createdRecently: boolean }
): EventReason | null {
  if (after.date < context.today || before === 'unknown') return null
  if (before === null) {
    return context.createdRecently && ANSWERING.has(after.status) ? 'created' : null
  }
  if (after.status !== before.status) {
    if (after.status === 'cancelled') return 'cancelled'
    if (after.status === 'confirmed') return 'confirmed'
    return null
  }
  if (!ANSWERING.has(after.status)) return null
  const moved = (['date', 'startTime', 'endTime', 'place'] as const)
    .some((k) => before[k] !== after[k])
  return moved ? 'changed' : null
}

const parseFacts = (text: string | null): Facts | null | 'unknown' =>
  text === null ? null : text === '' ? 'unknown' : (JSON.parse(text) as Facts)

type EventId = typeof gigs.id | typeof rehearsals.id | typeof surveys.id
const watchJoin = (kind: WatchedKind, id: EventId) =>
  and(eq(mailWatch.kind, kind), eq(mailWatch.eventId, id))

/**
 * Finds what changed since the last look, records it as seen, and answers the changes the band
 * must hear of. Run inside the transaction that queues their mails.
 */
export function takeChanges (db: Db, now: Date, today: string) {
  const changes: EventChange[] = []
  /** Every gig and rehearsal ahead that changed at all: their reminders are planned again. */
  const touched = { gig: [] as GigRow[], rehearsal: [] as RehearsalRow[] }
  const seenRows: Array<typeof mailWatch.$inferInsert> = []
  const recent = (createdAt: string) => now.getTime() - Date.parse(createdAt) < NEW_EVENT_WINDOW_MS
  const context = (createdAt: string) => ({ today, createdRecently: recent(createdAt) })
  const moved = (sequence: typeof gigs.sequence | typeof rehearsals.sequence) => or(
    isNull(mailWatch.seen),
    sql`${mailWatch.seen} <> CAST(${sequence} AS TEXT)`
  )

  const gigRows = db
    .select({ row: gigs, facts: mailWatch.facts })
    .from(gigs)
    .leftJoin(mailWatch, watchJoin('gig', gigs.id))
    .where(moved(gigs.sequence))
    .all()
  for (const { row, facts } of gigRows) {
    const after = gigFacts(row)
    const seen = String(row.sequence)
    seenRows.push({ kind: 'gig', eventId: row.id, seen, facts: JSON.stringify(after) })
    if (row.date >= today) touched.gig.push(row)
    const reason = reasonFor(parseFacts(facts), after, context(row.createdAt))
    if (reason) changes.push({ kind: 'gig', reason, seen, event: gigEvent(row), row })
  }

  const rehearsalRows = db
    .select({ row: rehearsals, facts: mailWatch.facts })
    .from(rehearsals)
    .leftJoin(mailWatch, watchJoin('rehearsal', rehearsals.id))
    .where(moved(rehearsals.sequence))
    .all()
  for (const { row, facts } of rehearsalRows) {
    const after = rehearsalFacts(row)
    const seen = String(row.sequence)
    seenRows.push({ kind: 'rehearsal', eventId: row.id, seen, facts: JSON.stringify(after) })
    if (row.date >= today) touched.rehearsal.push(row)
    const reason = reasonFor(parseFacts(facts), after, context(row.createdAt))
    if (reason) changes.push({ kind: 'rehearsal', reason, seen, event: rehearsalEvent(row), row })
  }

  const surveyRows = db
    .select({ row: surveys, facts: mailWatch.facts })
    .from(surveys)
    .leftJoin(mailWatch, watchJoin('survey', surveys.id))
    .where(or(isNull(mailWatch.seen), sql`${mailWatch.seen} <> ${surveys.updatedAt}`))
    .all()
  for (const { row, facts } of surveyRows) {
    seenRows.push({ kind: 'survey', eventId: row.id, seen: row.updatedAt, facts: row.status })
    // A survey is mailed once, when it is first seen open (not when reopened or edited).
    if (facts === null && row.status === 'open' && recent(row.createdAt)) {
      changes.push({ kind: 'survey', seen: row.updatedAt, survey: row })
    }
  }

  for (const chunk of chunksFor(seenRows, 4)) {
    db.insert(mailWatch)
      .values(chunk)
      .onConflictDoUpdate({
        target: [mailWatch.kind, mailWatch.eventId],
        set: { seen: sql`excluded.seen`, facts: sql`excluded.facts` }
      })
      .run()
  }
  return { changes, touched }
}

/** Forgets deleted events (a deleted event is no cancellation: nobody is mailed). */
export function forgetDeleted (db: Db): void {
  const tables = [['gig', gigs], ['rehearsal', rehearsals], ['survey', surveys]] as const
  for (const [kind, table] of tables) {
    const ids = db.select({ id: table.id }).from(table)
    db.delete(mailWatch)
      .where(and(eq(mailWatch.kind, kind), notInArray(mailWatch.eventId, ids)))
      .run()
  }
}
