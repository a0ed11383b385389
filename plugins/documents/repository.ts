import { and, asc, count, eq, inArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import {
  appLogo,
  gigAvailability,
  gigScheduleItems,
  gigs,
  setlistEntries,
  setlistSets,
  songs,
  users
} from '#src/db/schema.js'
import { assembleGigDocument, type GigDocument } from '#src/services/gig-document.js'
import type { TimingDefaults } from '#src/services/timing.js'

/**
 * Musicians on stage for the GEMA report: active musicians who said yes, else all active musicians.
 */
function musicianCount (db: Db, gigId: number): number {
  const confirmed = db
    .select({ n: count() })
    .from(gigAvailability)
    .innerJoin(users, eq(users.id, gigAvailability.userId))
    .where(
      and(
        eq(gigAvailability.gigId, gigId),
        eq(gigAvailability.status, 'yes'),
        eq(users.status, 'active'),
        eq(users.isMusician, true)
      )
    )
    .get()!.n
  if (confirmed > 0) return confirmed
  return db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.isMusician, true)))
    .get()!.n
}

/** A gig with its sets, entries, their songs and the schedule: a constant number of statements. */
export function loadGigDocument (
  db: Db,
  id: number,
  defaults: TimingDefaults
): GigDocument | undefined {
  const gig = db.select().from(gigs).where(eq(gigs.id, id)).get()
  if (!gig) return undefined
  const sets = db
    .select()
    .from(setlistSets)
    .where(eq(setlistSets.gigId, id))
    .orderBy(asc(setlistSets.position), asc(setlistSets.id))
    .all()
  const entries = db
    .select()
    .from(setlistEntries)
    .where(eq(setlistEntries.gigId, id))
    .orderBy(asc(setlistEntries.position), asc(setlistEntries.id))
    .all()
  const songIds = [...new Set(entries.map((e) => e.songId))]
  const songRows =
    songIds.length > 0 ? db.select().from(songs).where(inArray(songs.id, songIds)).all() : []
  const schedule = db
    .select()
    .from(gigScheduleItems)
    .where(eq(gigScheduleItems.gigId, id))
    .orderBy(asc(gigScheduleItems.at), asc(gigScheduleItems.id))
    .all()
  return assembleGigDocument(
    { gig, sets, entries, songs: songRows, schedule, musicianCount: musicianCount(db, id) },
    defaults
  )
}

export function loadLogo (db: Db): { mimeType: string; data: Buffer } | null {
  return (
    db
      .select({ mimeType: appLogo.mimeType, data: appLogo.data })
      .from(appLogo)
      .where(eq(appLogo.id, 1))
      .get() ?? null
  )
}
