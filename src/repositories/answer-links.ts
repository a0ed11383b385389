import { and, eq, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { answerTokens, gigs, rehearsals, users } from '#src/db/schema.js'
import { availabilitySources } from '#src/repositories/availability.js'
import { joinPresent } from '#src/documents/format.js'

/** The member and the event an answer link stands for, or undefined for an unknown token. */
export function findAnswerLink (db: Db, tokenHash: string) {
  return db
    .select({
      userId: answerTokens.userId,
      kind: answerTokens.kind,
      eventId: answerTokens.eventId,
      displayName: users.displayName,
      userStatus: users.status
    })
    .from(answerTokens)
    .innerJoin(users, eq(users.id, answerTokens.userId))
    .where(eq(answerTokens.tokenHash, tokenHash))
    .get()
}

export interface LinkedEvent {
  name: string | null
  date: string
  startTime: string | null
  endTime: string | null
  place: string | null
  /** Answers are taken (a cancelled or declined gig takes none). */
  answering: boolean
}

export function findLinkedEvent (
  db: Db,
  kind: 'gig' | 'rehearsal',
  id: number
): LinkedEvent | undefined {
  if (kind === 'gig') {
    const g = db.select().from(gigs).where(eq(gigs.id, id)).get()
    return g && {
      name: g.name,
      date: g.date,
      startTime: g.startTime,
      endTime: g.endTime,
      place: joinPresent([g.venueName, g.venueAddress, g.venueCity]) || null,
      answering: g.status === 'inquiry' || g.status === 'confirmed'
    }
  }
  const r = db.select().from(rehearsals).where(eq(rehearsals.id, id)).get()
  return r && { name: null, ...r, place: r.location, answering: true }
}

/** The member's current answer to the event, if any. */
export function currentAnswer (db: Db, kind: 'gig' | 'rehearsal', eventId: number, userId: number) {
  const { table, eventId: column } = availabilitySources[kind]
  return db
    .select({ status: table.status, note: table.note })
    .from(table)
    .where(and(eq(column, eventId), eq(table.userId, userId)))
    .get()
}

/**
 * Drops the links that can do nothing any more: a member no longer active (their links stay dead
 * even if they come back), an event deleted or past.
 */
export function pruneAnswerTokens (db: Db, today: string): number {
  return db.run(sql`DELETE FROM ${answerTokens} WHERE
    ${answerTokens.userId} IN (SELECT ${users.id} FROM ${users} WHERE ${users.status} <> 'active')
    OR (${answerTokens.kind} = 'gig' AND ${answerTokens.eventId} NOT IN
      (SELECT ${gigs.id} FROM ${gigs} WHERE ${gigs.date} >= ${today}))
    OR (${answerTokens.kind} = 'rehearsal' AND ${answerTokens.eventId} NOT IN
      (SELECT ${rehearsals.id} FROM ${rehearsals} WHERE ${rehearsals.date} >= ${today}))`).changes
}
