import { Type, type Static } from '@sinclair/typebox'
import { DateString, Id, Instant, StrictObject, TimeString } from './common.js'
import { Nullable, NullableString as NullableText } from './nullable.js'
import { REHEARSAL_LIMITS } from '#shared/limits.js'

export const RehearsalSongInput = StrictObject({
  songId: Id,
  notes: Type.Optional(NullableText(REHEARSAL_LIMITS.songNotes)),
  done: Type.Optional(Type.Boolean({ default: false }))
})
const RehearsalSongs = Type.Array(RehearsalSongInput, {
  maxItems: 100,
  description: 'the songs to work on, in order; replaces the whole list'
})

export const RehearsalSong = Type.Object({
  songId: Type.Integer(),
  title: Type.String({ description: 'the song title (read-only convenience)' }),
  notes: Type.Union([Type.String(), Type.Null()]),
  done: Type.Boolean()
})

export const Rehearsal = Type.Object({
  id: Type.Integer(),
  date: DateString,
  startTime: TimeString,
  endTime: TimeString,
  location: Type.Union([Type.String(), Type.Null()]),
  notes: Type.Union([Type.String(), Type.Null()]),
  songs: Type.Array(RehearsalSong),
  sequence: Type.Integer({ description: 'revision counter, bumped on every change' }),
  createdAt: Instant,
  updatedAt: Instant
})
export type RehearsalType = Static<typeof Rehearsal>

export const RehearsalCreate = StrictObject({
  date: DateString,
  startTime: TimeString,
  endTime: Type.Optional(
    Nullable(TimeString, { description: 'default start + 2 h, at most 23:59' })
  ),
  location: Type.Optional(NullableText(REHEARSAL_LIMITS.location)),
  notes: Type.Optional(NullableText(REHEARSAL_LIMITS.notes)),
  songs: Type.Optional(RehearsalSongs)
})
export type RehearsalCreateType = Static<typeof RehearsalCreate>

export const RehearsalPatch = StrictObject(
  {
    date: Type.Optional(DateString),
    startTime: Type.Optional(TimeString),
    endTime: Type.Optional(Nullable(TimeString, { description: 'null resets to start + 2 h' })),
    location: Type.Optional(NullableText(REHEARSAL_LIMITS.location)),
    notes: Type.Optional(NullableText(REHEARSAL_LIMITS.notes)),
    songs: Type.Optional(RehearsalSongs)
  },
  { minProperties: 1 }
)
export type RehearsalPatchType = Static<typeof RehearsalPatch>

export const RehearsalListQuery = Type.Object({
  from: Type.Optional(DateString),
  to: Type.Optional(DateString),
  upcoming: Type.Optional(
    Type.Boolean({ description: 'only rehearsals from today on (band timezone)' })
  )
})
export type RehearsalListQueryType = Static<typeof RehearsalListQuery>

export const RehearsalIdParams = StrictObject({ id: Id })
