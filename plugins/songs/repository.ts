import { and, asc, eq, getTableColumns, ne, sql, type SQL } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import type { VoteValue } from '#shared/enums.js'
import {
  repertoireEntries,
  setlistEntries,
  songs,
  songVotes,
  users,
  type SongRow
} from '#src/db/schema.js'
import type {
  SongListItemType,
  SongListQueryType,
  SongType,
  SongVotesType
} from '#schemas/songs.js'
import { writtenRow, returnedRow } from '#src/db/returning.js'
import { KEY_PATTERN } from '#shared/keys.js'

/** A song as lists read it: every column but the chart body, and whether there is one. */
export type SongListRow = Omit<SongRow, 'chart'> & { hasChart: boolean }

const { chart: _chart, ...listColumns } = getTableColumns(songs)
const songListColumns = {
  ...listColumns,
  hasChart: sql<number>`${songs.chart} IS NOT NULL`.mapWith((v: number) => v === 1)
}

export function toSong (row: SongRow): SongType {
  return { ...toSongListItem({ ...row, hasChart: row.chart !== null }), chart: row.chart }
}

/** A canonical key as the API answers it; anything else (an older version's) shows as written. */
const CANONICAL_KEY = new RegExp(KEY_PATTERN)

export function toSongListItem (row: SongListRow): SongListItemType {
  const readable = row.key === null || CANONICAL_KEY.test(row.key)
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    genre: row.genre,
    durationSeconds: row.durationSeconds,
    key: readable ? row.key : null,
    keyText: readable ? row.keyText : (row.keyText ?? row.key),
    tempoBpm: row.tempoBpm,
    leadSinger: row.leadSinger,
    backingVocals: row.backingVocals,
    composers: row.composers,
    lyricists: row.lyricists,
    arrangers: row.arrangers,
    publisher: row.publisher,
    gemaWorkNumber: row.gemaWorkNumber,
    iswc: row.iswc,
    isOriginal: row.isOriginal,
    status: row.status,
    notes: row.notes,
    links: row.links,
    hasChart: row.hasChart,
    proposedBy: row.proposedBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt
  }
}

/** `%` and `_` in a search term are literal characters, not wildcards. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export function listSongs (db: Db, query: SongListQueryType, locale: string): SongListRow[] {
  const where: SQL[] = []
  if (query.status) where.push(eq(songs.status, query.status))
  else if (!query.includeRetired) where.push(ne(songs.status, 'retired'))
  if (query.genre) where.push(eq(songs.genre, query.genre))
  if (query.q) {
    const pattern = likePattern(query.q)
    where.push(
      sql`(${songs.title} LIKE ${pattern} ESCAPE '\\'
        OR ${songs.artist} LIKE ${pattern} ESCAPE '\\')`
    )
  }
  const rows = db
    .select(songListColumns)
    .from(songs)
    .where(and(...where))
    .orderBy(asc(songs.id))
    .all()
  // SQLite's NOCASE knows only ASCII; the band's locale puts "Ärger" next to "Arger", not after
  // "Z".
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true })
  return rows.sort((a, b) => collator.compare(a.title, b.title) || a.id - b.id)
}

export function findSong (db: Db, id: number): SongRow | undefined {
  return db.select().from(songs).where(eq(songs.id, id)).get()
}

export function insertSong (db: Db, values: typeof songs.$inferInsert): SongRow {
  return writtenRow(db.insert(songs).values(values).returning())
}

export function updateSong (
  db: Db,
  id: number,
  values: Partial<typeof songs.$inferInsert>
): SongRow | undefined {
  return returnedRow(db.update(songs).set(values).where(eq(songs.id, id)).returning())
}

/**
 * Deletes a song, or retires it when a setlist (a gig's or a repertoire setlist) refers to it
 * (setlists are the gig's history and the GEMA report's source). Check and write happen in one
 * transaction so a setlist saved in between cannot slip by.
 */
export function deleteOrRetireSong (
  db: Db,
  id: number,
  now: string
): { deleted: true } | { deleted: false; song: SongRow } | undefined {
  return db.transaction((tx) => {
    const existing = tx.select({ id: songs.id }).from(songs).where(eq(songs.id, id)).get()
    if (!existing) return undefined
    const used =
      tx
        .select({ id: setlistEntries.id })
        .from(setlistEntries)
        .where(eq(setlistEntries.songId, id))
        .limit(1)
        .get() ??
      tx
        .select({ id: repertoireEntries.id })
        .from(repertoireEntries)
        .where(eq(repertoireEntries.songId, id))
        .limit(1)
        .get()
    if (used) {
      const song = writtenRow(
        tx
          .update(songs)
          .set({ status: 'retired', updatedAt: now })
          .where(eq(songs.id, id))
          .returning()
      )
      return { deleted: false as const, song }
    }
    tx.delete(songs).where(eq(songs.id, id)).run()
    return { deleted: true as const }
  })
}

export function upsertVote (
  db: Db,
  songId: number,
  userId: number,
  vote: VoteValue,
  now: string
): void {
  db.insert(songVotes)
    .values({ songId, userId, vote, updatedAt: now })
    .onConflictDoUpdate({
      target: [songVotes.songId, songVotes.userId],
      set: { vote, updatedAt: now }
    })
    .run()
}

export function deleteVote (db: Db, songId: number, userId: number): boolean {
  return (
    db
      .delete(songVotes)
      .where(and(eq(songVotes.songId, songId), eq(songVotes.userId, userId)))
      .run().changes > 0
  )
}

export function songVotesOf (db: Db, songId: number): SongVotesType {
  const rows = db
    .select({
      userId: songVotes.userId,
      displayName: users.displayName,
      vote: songVotes.vote,
      updatedAt: songVotes.updatedAt
    })
    .from(songVotes)
    .innerJoin(users, eq(users.id, songVotes.userId))
    .where(eq(songVotes.songId, songId))
    .orderBy(asc(users.displayName), asc(users.id))
    .all()
  const counts = { yes: 0, no: 0, abstain: 0 }
  for (const row of rows) counts[row.vote]++
  return { songId, counts, votes: rows }
}
