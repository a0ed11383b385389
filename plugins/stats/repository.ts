import { sql, type SQL } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  SONG_GIGS_LISTED,
  TOP_LIST_LENGTH,
  type GigStatsType,
  type PlayedStatsType,
  type SeasonStatsType,
  type SongStatsType
} from '#schemas/stats.js'

// Statistics in SQL: each answer is a fixed number of aggregate statements, whatever the band's
// history. A gig counts as played when it is confirmed and not in the future (band timezone); its
// entries count as played unless skipped (live mode left unused means the plan was played, as for
// the GEMA report).

interface Aggregates {
  songsPlanned: number
  songsPlayed: number
  uniqueSongs: number
  skipped: number
  inserted: number
  ratingAverage: number | null
  ratingCount: number
  ok: number
  good: number
  great: number
}

/** Aggregates over `e` (setlist entries); `played` gates what counts as played (1 or 0). */
const aggregates = (played: SQL) => sql`
  coalesce(sum(e.inserted = 0), 0) AS songsPlanned,
  coalesce(sum(e.status != 'skipped' AND ${played}), 0) AS songsPlayed,
  count(DISTINCT CASE WHEN e.status != 'skipped' AND ${played} THEN e.song_id END) AS uniqueSongs,
  coalesce(sum(e.status = 'skipped'), 0) AS skipped,
  coalesce(sum(e.inserted = 1), 0) AS inserted,
  avg(e.rating) AS ratingAverage,
  count(e.rating) AS ratingCount,
  coalesce(sum(e.rating = 1), 0) AS ok,
  coalesce(sum(e.rating = 2), 0) AS good,
  coalesce(sum(e.rating = 3), 0) AS great`

const round = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100)

function playedStats (a: Aggregates, genres: PlayedStatsType['genres']): PlayedStatsType {
  return {
    songsPlanned: a.songsPlanned,
    songsPlayed: a.songsPlayed,
    uniqueSongs: a.uniqueSongs,
    skipped: a.skipped,
    inserted: a.inserted,
    rating: {
      average: round(a.ratingAverage),
      count: a.ratingCount,
      distribution: { ok: a.ok, good: a.good, great: a.great }
    },
    genres
  }
}

/** Played gigs (confirmed, up to today), optionally within a date range. */
const playedGigs = (today: string, range?: { from: string; to: string }) =>
  sql`g.status = 'confirmed' AND g.date <= ${today}${
    range ? sql` AND g.date BETWEEN ${range.from} AND ${range.to}` : sql``
  }`

/** A season (a calendar year) or all time: four statements. */
export function seasonStats (db: Db, season: number | undefined, today: string): SeasonStatsType {
  const range =
    season === undefined ? undefined : { from: `${season}-01-01`, to: `${season}-12-31` }
  const played = playedGigs(today, range)
  const totals = db.get<Aggregates & { gigsPlayed: number; gigsUpcoming: number }>(sql`
    SELECT
      (SELECT count(*) FROM gigs g WHERE ${played}) AS gigsPlayed,
      (SELECT count(*) FROM gigs g WHERE g.status = 'confirmed' AND g.date > ${today}${
        range ? sql` AND g.date BETWEEN ${range.from} AND ${range.to}` : sql``
      }) AS gigsUpcoming,
      ${aggregates(sql`1`)}
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id
    WHERE ${played}`)
  const genres = db.all<{ genre: string | null; count: number }>(sql`
    SELECT s.genre AS genre, count(*) AS count
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id JOIN songs s ON s.id = e.song_id
    WHERE ${played} AND e.status != 'skipped'
    GROUP BY s.genre ORDER BY count DESC, s.genre IS NULL, s.genre`)
  const topSongs = db.all<SeasonStatsType['topSongs'][number]>(sql`
    SELECT s.id AS songId, s.title AS title, s.artist AS artist, count(*) AS played,
      avg(e.rating) AS averageRating
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id JOIN songs s ON s.id = e.song_id
    WHERE ${played} AND e.status != 'skipped'
    GROUP BY s.id ORDER BY played DESC, s.title, s.id LIMIT ${TOP_LIST_LENGTH}`)
  const mostSkipped = db.all<Omit<SeasonStatsType['mostSkipped'][number], 'skipRate'>>(sql`
    SELECT s.id AS songId, s.title AS title, s.artist AS artist,
      sum(e.status = 'skipped') AS skipped, count(*) AS appearances
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id JOIN songs s ON s.id = e.song_id
    WHERE ${played}
    GROUP BY s.id HAVING skipped > 0
    ORDER BY skipped DESC, skipped * 1.0 / appearances DESC, s.title, s.id
    LIMIT ${TOP_LIST_LENGTH}`)
  return {
    season: season ?? null,
    gigsPlayed: totals!.gigsPlayed,
    gigsUpcoming: totals!.gigsUpcoming,
    ...playedStats(totals!, genres),
    topSongs: topSongs.map((s) => ({ ...s, averageRating: round(s.averageRating) })),
    mostSkipped: mostSkipped.map((s) => ({ ...s, skipRate: round(s.skipped / s.appearances)! }))
  }
}

/** A gig, total and per set: four statements; undefined for an unknown gig. */
export function gigStats (db: Db, gigId: number, today: string): GigStatsType | undefined {
  const gig = db.get<{ played: number }>(sql`
    SELECT g.status = 'confirmed' AND g.date <= ${today} AS played
    FROM gigs g WHERE g.id = ${gigId}`)
  if (!gig) return undefined
  const played = sql`${gig.played}`
  const total = db.get<Aggregates>(sql`
    SELECT ${aggregates(played)} FROM setlist_entries e WHERE e.gig_id = ${gigId}`)!
  const sets = db.all<Aggregates & { setId: number; name: string }>(sql`
    SELECT ss.id AS setId, ss.name AS name, ${aggregates(played)}
    FROM setlist_sets ss LEFT JOIN setlist_entries e ON e.set_id = ss.id
    WHERE ss.gig_id = ${gigId}
    GROUP BY ss.id ORDER BY ss.position, ss.id`)
  const genres = db.all<{ setId: number; genre: string | null; count: number }>(sql`
    SELECT e.set_id AS setId, s.genre AS genre, count(*) AS count
    FROM setlist_entries e JOIN songs s ON s.id = e.song_id
    WHERE e.gig_id = ${gigId} AND e.status != 'skipped' AND ${played}
    GROUP BY e.set_id, s.genre ORDER BY count DESC, s.genre IS NULL, s.genre`)
  const genresOf = (setId?: number) => {
    const counts = new Map<string | null, number>()
    for (const g of genres) {
      if (setId === undefined || g.setId === setId) {
        counts.set(g.genre, (counts.get(g.genre) ?? 0) + g.count)
      }
    }
    return [...counts]
      .map(([genre, count]) => ({ genre, count }))
      .sort(
        (a, b) => b.count - a.count || (a.genre ?? '\uffff').localeCompare(b.genre ?? '\uffff')
      )
  }
  return {
    gigId,
    played: gig.played === 1,
    total: playedStats(total, genresOf()),
    sets: sets.map(({ setId, name, ...a }) => ({ setId, name, ...playedStats(a, genresOf(setId)) }))
  }
}

/** A song's record: five statements; undefined for an unknown song. */
export function songStats (db: Db, songId: number, today: string): SongStatsType | undefined {
  const song = db.get<{ title: string }>(sql`SELECT title FROM songs WHERE id = ${songId}`)
  if (!song) return undefined
  const played = playedGigs(today)
  const totals = db.get<Aggregates & { appearances: number }>(sql`
    SELECT count(e.id) AS appearances, ${aggregates(sql`1`)}
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id
    WHERE e.song_id = ${songId} AND ${played}`)!
  const gigs = db.all<
    Omit<SongStatsType['gigs'][number], 'skipped' | 'inserted'> & { inserted: number }
  >(sql`
    SELECT g.id AS gigId, g.name AS name, g.date AS date, ss.name AS setName, e.status AS status,
      e.inserted AS inserted, e.rating AS rating
    FROM setlist_entries e JOIN gigs g ON g.id = e.gig_id JOIN setlist_sets ss ON ss.id = e.set_id
    WHERE e.song_id = ${songId} AND ${played}
    ORDER BY g.date DESC, g.id DESC, ss.position, e.position
    LIMIT ${SONG_GIGS_LISTED}`)
  const rehearsals = db.get<{ count: number; first: string | null; last: string | null }>(sql`
    SELECT count(DISTINCT r.id) AS count, min(r.date) AS first, max(r.date) AS last
    FROM rehearsal_songs rs JOIN rehearsals r ON r.id = rs.rehearsal_id
    WHERE rs.song_id = ${songId} AND r.date <= ${today}`)!
  const playedWith = db.all<SongStatsType['playedWith'][number]>(sql`
    SELECT s.id AS songId, s.title AS title, s.artist AS artist,
      count(DISTINCT mine.set_id) AS sets
    FROM setlist_entries mine
      JOIN gigs g ON g.id = mine.gig_id
      JOIN setlist_entries other ON other.set_id = mine.set_id AND other.song_id != mine.song_id
      JOIN songs s ON s.id = other.song_id
    WHERE mine.song_id = ${songId} AND ${played}
      AND mine.status != 'skipped' AND other.status != 'skipped'
    GROUP BY s.id ORDER BY sets DESC, s.title, s.id LIMIT ${TOP_LIST_LENGTH}`)
  const { rating } = playedStats(totals, [])
  return {
    songId,
    title: song.title,
    played: totals.songsPlayed,
    appearances: totals.appearances,
    skipped: totals.skipped,
    inserted: totals.inserted,
    skipRate: totals.appearances ? round(totals.skipped / totals.appearances) : null,
    rating,
    gigs: gigs.map((g) => ({ ...g, skipped: g.status === 'skipped', inserted: g.inserted === 1 })),
    rehearsals,
    playedWith
  }
}
