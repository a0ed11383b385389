import { Type, type Static } from '@sinclair/typebox'
import { DateString, Nullable, TimeString } from './common.js'
import { LiveStatus } from './setlists.js'

/** Entries in the top lists (songs, skipped songs, songs played together). */
export const TOP_LIST_LENGTH = 10
/** Gigs listed in a song's statistics, newest first (the counts cover all). */
export const SONG_GIGS_LISTED = 200

const Count = Type.Integer({ minimum: 0 })

export const RatingStats = Type.Object({
  average: Nullable(Type.Number({ description: '1 ok … 3 great; null without ratings' })),
  count: Count,
  distribution: Type.Object({ ok: Count, good: Count, great: Count })
})

const GenreCount = Type.Object({
  genre: Nullable(Type.String({ description: 'null: songs without a genre' })),
  count: Count
})

const playedFields = {
  songsPlanned: Type.Integer({ description: 'entries of the plan (not inserted during the show)' }),
  songsPlayed: Type.Integer({ description: 'entries not skipped (planned ones count as played)' }),
  uniqueSongs: Type.Integer({ description: 'different songs played' }),
  skipped: Count,
  inserted: Count,
  rating: RatingStats,
  genres: Type.Array(GenreCount, { description: 'songs played by genre, most first' })
}
export const PlayedStats = Type.Object(playedFields)
export type PlayedStatsType = Static<typeof PlayedStats>

const SongRef = {
  songId: Type.Integer(),
  title: Type.String(),
  artist: Nullable(Type.String())
}

export const SeasonStats = Type.Object({
  season: Nullable(Type.Integer({ description: 'the year; null: all time' })),
  gigsPlayed: Type.Integer({ description: 'confirmed gigs up to today' }),
  gigsUpcoming: Type.Integer({ description: 'confirmed gigs after today' }),
  ...playedFields,
  topSongs: Type.Array(
    Type.Object({ ...SongRef, played: Count, averageRating: Nullable(Type.Number()) }),
    { description: `most played first, at most ${TOP_LIST_LENGTH}` }
  ),
  mostSkipped: Type.Array(
    Type.Object({ ...SongRef, skipped: Count, appearances: Count, skipRate: Type.Number() }),
    { description: `most often skipped first, at most ${TOP_LIST_LENGTH}` }
  )
})
export type SeasonStatsType = Static<typeof SeasonStats>

export const SeasonStatsQuery = Type.Object({
  season: Type.Optional(
    Type.Integer({ minimum: 1900, maximum: 2999, description: 'a year; omitted: all time' })
  )
})

export const GigStats = Type.Object({
  gigId: Type.Integer(),
  played: Type.Boolean({ description: 'confirmed and not in the future: its songs count' }),
  total: PlayedStats,
  sets: Type.Array(Type.Object({ setId: Type.Integer(), name: Type.String(), ...playedFields }))
})
export type GigStatsType = Static<typeof GigStats>

export const SongStats = Type.Object({
  songId: Type.Integer(),
  title: Type.String(),
  played: Count,
  appearances: Type.Integer({ description: 'times in the setlists of played gigs' }),
  skipped: Count,
  inserted: Count,
  skipRate: Nullable(Type.Number({ description: 'skipped / appearances' })),
  rating: RatingStats,
  gigs: Type.Array(
    Type.Object({
      gigId: Type.Integer(),
      name: Type.String(),
      date: DateString,
      setName: Type.String(),
      status: LiveStatus,
      skipped: Type.Boolean(),
      inserted: Type.Boolean(),
      rating: Nullable(Type.Integer())
    }),
    { description: `played gigs with this song, newest first, at most ${SONG_GIGS_LISTED}` }
  ),
  rehearsals: Type.Object({
    count: Type.Integer({ description: 'rehearsals up to today with this song' }),
    first: Nullable(DateString),
    last: Nullable(DateString)
  }),
  playedWith: Type.Array(Type.Object({ ...SongRef, sets: Count }), {
    description: `songs most often played in the same set, at most ${TOP_LIST_LENGTH}`
  })
})
export type SongStatsType = Static<typeof SongStats>

export const SongRehearsal = Type.Object({
  rehearsalId: Type.Integer(),
  date: DateString,
  startTime: TimeString,
  endTime: TimeString,
  location: Nullable(Type.String()),
  notes: Nullable(Type.String({ description: "the song's notes for that rehearsal" })),
  done: Type.Boolean()
})
export const SongRehearsalQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 })
})

export const Singer = Type.Object({
  name: Type.String({ description: 'as written into a song’s leadSinger' }),
  userId: Nullable(Type.Integer({ description: 'the active singer of the band; null: a guest' })),
  songCount: Type.Integer({ description: 'songs (not retired) with this lead singer' })
})
