import { randomBytes } from 'node:crypto'
import { and, asc, eq, gte, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { calendarTokens, gigs, installation, rehearsals, users } from '#src/db/schema.js'
import type { CalendarGig, CalendarRehearsal } from '#src/documents/ical.js'

export function findCalendarToken (db: Db, userId: number) {
  return db.select().from(calendarTokens).where(eq(calendarTokens.userId, userId)).get()
}

/** Creates or replaces the user's token (the old hash is gone: the old URL stops working). */
export function saveCalendarToken (
  db: Db,
  userId: number,
  tokenHash: string,
  now: string
): { replaced: boolean } {
  return db.transaction((tx) => {
    const existing = tx
      .select({ userId: calendarTokens.userId })
      .from(calendarTokens)
      .where(eq(calendarTokens.userId, userId))
      .get()
    tx.insert(calendarTokens)
      .values({ userId, tokenHash, createdAt: now })
      .onConflictDoUpdate({ target: calendarTokens.userId, set: { tokenHash, createdAt: now } })
      .run()
    return { replaced: !!existing }
  })
}

/** The active user a feed token belongs to, if any. */
export function findUserByCalendarToken (db: Db, tokenHash: string) {
  return db
    .select({
      id: users.id,
      displayName: users.displayName,
      passwordChangeRequired: users.passwordChangeRequired
    })
    .from(calendarTokens)
    .innerJoin(users, eq(users.id, calendarTokens.userId))
    .where(and(eq(calendarTokens.tokenHash, tokenHash), eq(users.status, 'active')))
    .get()
}

/** Gigs (declined ones excluded) and rehearsals from `fromDate` on: two statements. */
export function loadCalendarEvents (
  db: Db,
  fromDate: string
): { gigs: CalendarGig[]; rehearsals: CalendarRehearsal[] } {
  const gigRows = db
    .select({
      id: gigs.id,
      name: gigs.name,
      date: gigs.date,
      kind: gigs.kind,
      status: gigs.status,
      venueName: gigs.venueName,
      venueAddress: gigs.venueAddress,
      venueCity: gigs.venueCity,
      getInTime: gigs.getInTime,
      soundcheckTime: gigs.soundcheckTime,
      doorsTime: gigs.doorsTime,
      startTime: gigs.startTime,
      endTime: gigs.endTime,
      notes: gigs.notes,
      sequence: gigs.sequence,
      updatedAt: gigs.updatedAt
    })
    .from(gigs)
    .where(and(ne(gigs.status, 'declined'), gte(gigs.date, fromDate)))
    .orderBy(asc(gigs.date), asc(gigs.id))
    .all()
  const rehearsalRows = db
    .select({
      id: rehearsals.id,
      date: rehearsals.date,
      startTime: rehearsals.startTime,
      endTime: rehearsals.endTime,
      location: rehearsals.location,
      notes: rehearsals.notes,
      sequence: rehearsals.sequence,
      updatedAt: rehearsals.updatedAt
    })
    .from(rehearsals)
    .where(gte(rehearsals.date, fromDate))
    .orderBy(asc(rehearsals.date), asc(rehearsals.id))
    .all()
  return { gigs: gigRows, rehearsals: rehearsalRows }
}

/** This installation's random id (created on first use; kept in backups with everything else). */
export function installationUid (db: Db, now: Date): string {
  db.insert(installation)
    .values({ id: 1, uid: randomBytes(8).toString('hex'), createdAt: now.toISOString() })
    .onConflictDoNothing()
    .run()
  const row = db.select({ uid: installation.uid }).from(installation).get()
  return row!.uid
}
