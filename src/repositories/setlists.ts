import { asc, eq, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  gigs,
  setlistEntries,
  setlistSets,
  songs,
  type GigRow,
  type SongRow
} from '#src/db/schema.js'
import {
  timeSets,
  type SetlistTiming,
  type TimingDefaults
} from '#shared/timing.js'
import type { LiveStatusType, SetlistEntryType, SetlistType } from '#schemas/setlists.js'
import type { DocumentSong } from '#src/documents/gig-document.js'

/** A gig's entries as the band plays them: set by set, each in its order (ties by id). */
export const RUNNING_ORDER = [
  asc(setlistSets.position),
  asc(setlistSets.id),
  asc(setlistEntries.position),
  asc(setlistEntries.id)
]

// The gig with its sets and entries (and their songs): one read model for the setlist, the live
// view, the running order and the documents.

export interface SetRow {
  id: number
  name: string
  breakAfterSeconds: number | null
}
/**
 * The song fields the documents show (GEMA data included), and its status, tempo and whether it
 * has a chart for the API's views (the stage view's "Up next").
 */
export type SetlistSong = DocumentSong & Pick<SongRow, 'status' | 'tempoBpm'> & {
  hasChart: boolean
}
export interface EntryRow {
  id: number
  setId: number
  /** Null for a free-text entry: its `song` is then `freeTextSong(title)`. */
  songId: number | null
  /** A free-text entry's title (null for a song entry). */
  title: string | null
  notes: string | null
  durationSeconds: number | null
  status: LiveStatusType
  inserted: boolean
  rating: number | null
  /** When the live status last changed (ISO instant), null while planned from the start. */
  liveUpdatedAt: string | null
  /** Semitones for this gig (-11…11) and the capo fret. */
  transpose: number
  capo: number | null
  song: SetlistSong
}

/** The columns of `SetlistSong`, for any query that joins `songs`. */
export const setlistSongColumns = {
  id: songs.id,
  title: songs.title,
  artist: songs.artist,
  // The canonical key, else an old key that could not be read (shown as written).
  key: sql<string | null>`coalesce(${songs.key}, ${songs.keyText})`,
  leadSinger: songs.leadSinger,
  durationSeconds: songs.durationSeconds,
  status: songs.status,
  tempoBpm: songs.tempoBpm,
  hasChart: sql<number>`${songs.chart} IS NOT NULL`.mapWith((v: number) => v === 1),
  composers: songs.composers,
  lyricists: songs.lyricists,
  arrangers: songs.arrangers,
  publisher: songs.publisher,
  gemaWorkNumber: songs.gemaWorkNumber,
  isOriginal: songs.isOriginal
}

export const setlistEntryColumns = {
  id: setlistEntries.id,
  setId: setlistEntries.setId,
  songId: setlistEntries.songId,
  title: setlistEntries.title,
  notes: setlistEntries.notes,
  durationSeconds: setlistEntries.durationSeconds,
  status: setlistEntries.status,
  inserted: setlistEntries.inserted,
  rating: setlistEntries.rating,
  liveUpdatedAt: setlistEntries.liveUpdatedAt,
  transpose: setlistEntries.transpose,
  capo: setlistEntries.capo,
  song: setlistSongColumns
}

// Prepared once per connection: live mode reads these on every poll.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>()
function prepare (db: Db) {
  return {
    gig: db
      .select()
      .from(gigs)
      .where(eq(gigs.id, sql.placeholder('gigId')))
      .prepare(),
    sets: db
      .select({
        id: setlistSets.id,
        name: setlistSets.name,
        breakAfterSeconds: setlistSets.breakAfterSeconds
      })
      .from(setlistSets)
      .where(eq(setlistSets.gigId, sql.placeholder('gigId')))
      .orderBy(asc(setlistSets.position), asc(setlistSets.id))
      .prepare(),
    entries: db
      .select(setlistEntryColumns)
      .from(setlistEntries)
      .leftJoin(songs, eq(songs.id, setlistEntries.songId))
      .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
      .where(eq(setlistEntries.gigId, sql.placeholder('gigId')))
      .orderBy(...RUNNING_ORDER)
      .prepare()
  }
}
export function statements (db: Db) {
  let s = prepared.get(db)
  if (!s) {
    s = prepare(db)
    prepared.set(db, s)
  }
  return s
}

export interface SetlistData {
  gig: GigRow
  sets: SetRow[]
  entries: EntryRow[]
}

/** Gig, sets and entries with their songs: three statements whatever the setlist size. */
export function readSetlistData (db: Db, gigId: number): SetlistData | undefined {
  const s = statements(db)
  const gig = s.gig.get({ gigId })
  if (!gig) return undefined
  const entries = withFreeText(s.entries.all({ gigId }) as unknown as JoinedEntryRow[])
  return { gig, sets: s.sets.all({ gigId }), entries }
}

/**
 * A free-text entry as the documents see it: a "song" with its title and nothing else (no
 * artist, no key, no GEMA data, no chart) that takes no time unless the entry gives a duration.
 * What must never show one (the GEMA report, charts) asks `songId === null`.
 */
export function freeTextSong (title: string): SetlistSong {
  return {
    id: 0,
    title,
    artist: null,
    key: null,
    leadSinger: null,
    durationSeconds: 0,
    status: 'ready',
    tempoBpm: null,
    hasChart: false,
    composers: [],
    lyricists: [],
    arrangers: [],
    publisher: null,
    gemaWorkNumber: null,
    isOriginal: false
  }
}

/** An entry row as a LEFT JOIN on songs reads it: a free-text entry has no song columns. */
export type JoinedEntryRow<T extends { song: SetlistSong } = EntryRow> = Omit<T, 'song'> & {
  songId: number | null
  title: string | null
  song: SetlistSong | null
}

/** Gives each free-text entry its stand-in song (`freeTextSong`); song entries stay as read. */
export function withFreeText<T extends { song: SetlistSong }> (rows: JoinedEntryRow<T>[]): T[] {
  return rows.map((row) =>
    row.songId === null || row.song === null || row.song.id === null
      ? ({ ...row, song: freeTextSong(row.title ?? '') } as unknown as T)
      : (row as unknown as T)
  )
}

export function toEntry (
  row: EntryRow,
  plannedStart: string,
  durationSeconds: number
): SetlistEntryType {
  return {
    id: row.id,
    setId: row.setId,
    songId: row.songId,
    title: row.songId === null ? (row.title ?? '') : row.song.title,
    song: row.songId === null
      ? null
      : {
          id: row.song.id,
          title: row.song.title,
          artist: row.song.artist,
          key: row.song.key,
          leadSinger: row.song.leadSinger,
          durationSeconds: row.song.durationSeconds,
          tempoBpm: row.song.tempoBpm,
          hasChart: row.song.hasChart,
          status: row.song.status
        },
    notes: row.notes,
    transpose: row.transpose,
    capo: row.capo,
    plannedStart,
    durationSeconds,
    customDurationSeconds: row.durationSeconds,
    status: row.status,
    inserted: row.inserted,
    rating: row.rating as 1 | 2 | 3 | null
  }
}

/** Sets with their timed entries; skipped entries take no time (the contract's timing rules). */
export function buildSets (
  data: Pick<SetlistData, 'sets' | 'entries'> & { gig: Pick<GigRow, 'date' | 'startTime'> },
  defaults: TimingDefaults
): { sets: SetlistType['sets']; timing: SetlistTiming } {
  const { sets: timed, timing } = timeSets(data.gig, data.sets, data.entries, defaults)
  const sets = timed.map(({ set, entries, timing: t }) => ({
    id: set.id,
    name: set.name,
    breakAfterSeconds: t.breakAfterSeconds,
    customBreakAfterSeconds: set.breakAfterSeconds,
    start: t.start,
    end: t.end,
    durationSeconds: t.durationSeconds,
    entries: entries.map((e, j) =>
      toEntry(e, t.entries[j]!.plannedStart, t.entries[j]!.durationSeconds)
    )
  }))
  return { sets, timing }
}

export function toSetlist (data: SetlistData, defaults: TimingDefaults): SetlistType {
  const { sets, timing } = buildSets(data, defaults)
  return {
    gigId: data.gig.id,
    version: data.gig.setlistVersion,
    sets,
    totalSeconds: timing.totalSeconds
  }
}

export function loadSetlist (
  db: Db,
  gigId: number,
  defaults: TimingDefaults
): SetlistType | undefined {
  const data = readSetlistData(db, gigId)
  return data && toSetlist(data, defaults)
}
