import { eq, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { RUNNING_ORDER } from '#src/repositories/setlists.js'
import type { ChordNotation } from '#shared/chords/chord.js'
import { playedKey } from '#shared/keys.js'
import type { GigChartsType } from '#schemas/charts.js'

/**
 * Every entry of a gig's setlist with its song's chart, in running order: two statements however
 * long the setlist (the gig, then one join). Undefined for an unknown gig.
 */
export function loadGigCharts (db: Db, gigId: number, notation: ChordNotation):
GigChartsType | undefined {
  const gig = db.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, gigId)).get()
  if (!gig) return undefined
  const rows = db
    .select({
      entryId: setlistEntries.id,
      setId: setlistSets.id,
      setName: setlistSets.name,
      status: setlistEntries.status,
      transpose: setlistEntries.transpose,
      capo: setlistEntries.capo,
      songId: songs.id,
      title: songs.title,
      artist: songs.artist,
      key: sql<string | null>`coalesce(${songs.key}, ${songs.keyText})`,
      tempoBpm: songs.tempoBpm,
      leadSinger: songs.leadSinger,
      chart: songs.chart
    })
    .from(setlistEntries)
    .innerJoin(songs, eq(songs.id, setlistEntries.songId))
    .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
    .where(eq(setlistEntries.gigId, gigId))
    .orderBy(...RUNNING_ORDER)
    .all()
  let setId = -1
  let inSet = 0
  return {
    gigId,
    notation,
    charts: rows.map((row, index) => {
      inSet = row.setId === setId ? inSet + 1 : 1
      setId = row.setId
      return {
        entryId: row.entryId,
        position: index + 1,
        setId: row.setId,
        setName: row.setName,
        positionInSet: inSet,
        status: row.status,
        transpose: row.transpose,
        capo: row.capo,
        song: {
          id: row.songId,
          title: row.title,
          artist: row.artist,
          key: row.key,
          keyTransposed: playedKey(row.key, row.transpose),
          tempoBpm: row.tempoBpm,
          leadSinger: row.leadSinger
        },
        chart: row.chart
      }
    })
  }
}
