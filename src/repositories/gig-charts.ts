import { setImmediate as yieldTurn } from 'node:timers/promises'
import { and, eq, inArray, isNotNull, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { ApiError } from '#src/errors.js'
import { RUNNING_ORDER } from '#src/repositories/setlists.js'
import type { ChordNotation } from '#shared/chords/chord.js'
import { playedKey } from '#shared/keys.js'
import { MAX_GIG_CHART_BYTES, type GigChartsType } from '#schemas/charts.js'

const MIB = 1024 * 1024

/** 413 for an answer that would carry more chart text than `limit`, with what to do. */
export const chartsTooLarge = (bytes: number, limit: number, what: string) =>
  new ApiError(
    'CHARTS_TOO_LARGE',
    `${what} would carry ${(bytes / MIB).toFixed(1)} MiB of chart text; at most ` +
      `${(limit / MIB).toFixed(0)} MiB are sent: shorten the longest charts or split the setlist`
  )

/**
 * The gig's chart text in UTF-8 bytes, read before any chart is: each song once, or (`perEntry`)
 * once per entry, as the CSV writes it. Undefined for an unknown gig.
 */
export function gigChartBytes (db: Db, gigId: number, perEntry = false): number | undefined {
  // Plain SQL: drizzle names a column without its table inside a sub-select.
  const bytes = perEntry
    ? sql<number>`(select coalesce(sum(octet_length(s.chart)), 0)
        from setlist_entries e join songs s on s.id = e.song_id where e.gig_id = ${gigId})`
    : sql<number>`(select coalesce(sum(octet_length(chart)), 0) from songs
        where id in (select song_id from setlist_entries where gig_id = ${gigId}))`
  return db.select({ bytes }).from(gigs).where(eq(gigs.id, gigId)).get()?.bytes
}

/**
 * Chart text read in one statement, between two turns of the event loop: a few milliseconds of
 * the main thread (8 MiB in one go held it 40–80 ms).
 */
export const CHART_BATCH_BYTES = 512 * 1024

/** Song ids in running groups whose charts together stay within `limit` (or one larger chart). */
function batches (sizes: Array<{ id: number; bytes: number }>, limit: number): number[][] {
  const groups: number[][] = []
  let size = Infinity
  for (const song of sizes) {
    if (size + song.bytes > limit) {
      groups.push([])
      size = 0
    }
    groups.at(-1)!.push(song.id)
    size += song.bytes
  }
  return groups
}

/**
 * Every song entry of a gig's setlist in running order, and each song's chart once. Undefined
 * for an unknown gig; CHARTS_TOO_LARGE (413) when the charts together pass `limit`, checked
 * before any chart is read. The charts are read CHART_BATCH_BYTES at a time with a turn of the
 * event loop between: two statements and one per batch (one for ordinary setlists).
 */
export async function readGigCharts (
  db: Db,
  gigId: number,
  notation: ChordNotation,
  limit = MAX_GIG_CHART_BYTES
): Promise<GigChartsType | undefined> {
  const songIds = db
    .select({ id: setlistEntries.songId })
    .from(setlistEntries)
    .where(and(eq(setlistEntries.gigId, gigId), isNotNull(setlistEntries.songId)))
  // No row: no such gig; one without a song: a gig without charts.
  const found = db
    .select({ id: songs.id, bytes: sql<number>`octet_length(${songs.chart})` })
    .from(gigs)
    .leftJoin(songs, and(inArray(songs.id, songIds), isNotNull(songs.chart)))
    .where(eq(gigs.id, gigId))
    .orderBy(songs.id)
    .all()
  if (found.length === 0) return undefined
  const sizes = found.filter((song): song is { id: number; bytes: number } => song.id !== null)
  const bytes = sizes.reduce((sum, song) => sum + song.bytes, 0)
  if (bytes > limit) throw chartsTooLarge(bytes, limit, "The gig's charts")
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
      leadSinger: songs.leadSinger
    })
    .from(setlistEntries)
    .innerJoin(songs, eq(songs.id, setlistEntries.songId))
    .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
    .where(eq(setlistEntries.gigId, gigId))
    .orderBy(...RUNNING_ORDER)
    .all()
  const charts: Array<{ id: number; chart: string }> = []
  for (const [index, batch] of batches(sizes, CHART_BATCH_BYTES).entries()) {
    if (index > 0) await yieldTurn()
    // A chart removed meanwhile is left out, as if the gig had been read a moment later.
    charts.push(...db
      .select({ id: songs.id, chart: sql<string>`${songs.chart}` })
      .from(songs)
      .where(and(inArray(songs.id, batch), isNotNull(songs.chart)))
      .orderBy(songs.id)
      .all())
  }
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
        }
      }
    }),
    songs: charts
  }
}

/** Each song's chart by song id. */
export const chartsBySong = (doc: Pick<GigChartsType, 'songs'>): Map<number, string> =>
  new Map(doc.songs.map((song) => [song.id, song.chart]))
