import { and, asc, between, eq, ne, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { RUNNING_ORDER } from '#src/repositories/setlists.js'
import { toGig } from '#src/repositories/gigs.js'
import {
  freeTextSong,
  setlistEntryColumns,
  toSetlist,
  type EntryRow,
  type SetRow
} from '#src/repositories/setlists.js'
import type { TimingDefaults } from '#shared/timing.js'
import type { SeasonSetlistsType } from '#schemas/exports.js'

/**
 * Every gig of a season (a calendar year) except declined ones, each with its setlist: three
 * statements, whatever the number of gigs.
 */
export function loadSeasonSetlists (
  db: Db,
  season: number,
  defaults: TimingDefaults
): SeasonSetlistsType['gigs'] {
  const inSeason = and(
    between(gigs.date, `${season}-01-01`, `${season}-12-31`),
    ne(gigs.status, 'declined')
  )
  const rows = db
    .select()
    .from(gigs)
    .where(inSeason)
    .orderBy(asc(gigs.date), sql`${gigs.startTime} IS NULL`, asc(gigs.startTime), asc(gigs.id))
    .all()
  const sets = db
    .select({
      gigId: setlistSets.gigId,
      id: setlistSets.id,
      name: setlistSets.name,
      breakAfterSeconds: setlistSets.breakAfterSeconds
    })
    .from(setlistSets)
    .innerJoin(gigs, eq(gigs.id, setlistSets.gigId))
    .where(inSeason)
    .orderBy(asc(setlistSets.position), asc(setlistSets.id))
    .all()
  const entries = db
    .select({ gigId: setlistEntries.gigId, ...setlistEntryColumns })
    .from(setlistEntries)
    .leftJoin(songs, eq(songs.id, setlistEntries.songId))
    .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
    .innerJoin(gigs, eq(gigs.id, setlistEntries.gigId))
    .where(inSeason)
    .orderBy(...RUNNING_ORDER)
    .all()
  const byGig = new Map(
    rows.map((gig) => [gig.id, { sets: [] as SetRow[], entries: [] as EntryRow[] }])
  )
  for (const { gigId, ...set } of sets) byGig.get(gigId)?.sets.push(set)
  for (const { gigId, ...entry } of entries) {
    // A free-text entry has no song (the LEFT JOIN read nothing for it).
    const song = entry.songId === null || !entry.song ? freeTextSong(entry.title ?? '') : entry.song
    byGig.get(gigId)?.entries.push({ ...entry, song } as EntryRow)
  }
  return rows.map((gig) => ({
    gig: toGig(gig),
    setlist: toSetlist({ gig, ...byGig.get(gig.id)! }, defaults)
  }))
}
