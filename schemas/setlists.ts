import { Type, type Static } from '@sinclair/typebox'
import {
  ErrorResponse,
  Id,
  Nullable,
  NullableText,
  StringEnum,
  StrictObject,
  TimeString
} from './common.js'
import { ENTRY_STATUSES } from '#shared/enums.js'
import { SETLIST_LIMITS } from '#shared/limits.js'

export const LiveStatus = StringEnum(ENTRY_STATUSES)
export type LiveStatusType = Static<typeof LiveStatus>

export const SongSummary = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  artist: Nullable(Type.String()),
  key: Nullable(Type.String({
    description: 'canonical key ("Bb", "Gm"; docs/keys.md), or an old key that could not be ' +
      'read, as written'
  })),
  leadSinger: Nullable(Type.String()),
  durationSeconds: Nullable(Type.Integer()),
  tempoBpm: Nullable(Type.Integer()),
  hasChart: Type.Boolean({ description: 'the song has a chart (GET /gigs/{id}/charts)' }),
  status: Type.String()
})

/** Semitones a gig moves a song's chart, and the capo fret: defined once for all schemas. */
export const Transpose = Type.Integer({
  minimum: -11,
  maximum: 11,
  description: 'semitones this gig plays the song away from its chart (−11…11, 0 as written)'
})
export const Capo = Nullable(Type.Integer({ minimum: 0, maximum: 11 }), {
  description: 'capo fret for this gig (0…11), null: none given'
})

/** A free-text entry's title (a speech, the first dance, a medley intro): defined once. */
export const EntryTitle = Type.String({
  minLength: 1,
  maxLength: SETLIST_LIMITS.entryTitle,
  pattern: '\\S',
  description: 'a free-text entry (no song): its title'
})

export const SetlistEntry = Type.Object({
  id: Type.Integer(),
  setId: Type.Integer(),
  songId: Nullable(Type.Integer({ description: 'null for a free-text entry' })),
  song: Nullable(SongSummary, { description: 'null for a free-text entry' }),
  title: Type.String({
    description: "what the entry shows: the song's title, or a free-text entry's own title"
  }),
  notes: Nullable(Type.String()),
  transpose: Transpose,
  capo: Capo,
  plannedStart: TimeString,
  durationSeconds: Type.Integer({
    description: 'effective duration: the entry override, else the song, else the default'
  }),
  customDurationSeconds: Nullable(
    Type.Integer({ description: 'the entry override as stored (PUT durationSeconds)' })
  ),
  status: LiveStatus,
  inserted: Type.Boolean(),
  rating: Nullable(Type.Integer({ minimum: 1, maximum: 3, description: '1 ok, 2 good, 3 great' }))
})
export type SetlistEntryType = Static<typeof SetlistEntry>

export const SetlistSet = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  breakAfterSeconds: Type.Integer({
    description: 'effective break after this set (no break follows the last set)'
  }),
  customBreakAfterSeconds: Nullable(Type.Integer()),
  start: TimeString,
  end: TimeString,
  durationSeconds: Type.Integer(),
  entries: Type.Array(SetlistEntry)
})
export type SetlistSetType = Static<typeof SetlistSet>

export const Setlist = Type.Object({
  gigId: Type.Integer(),
  version: Type.Integer({ description: 'send it back with PUT; a stale one gets 409' }),
  sets: Type.Array(SetlistSet),
  totalSeconds: Type.Integer({ description: 'sets plus the breaks between them' })
})
export type SetlistType = Static<typeof Setlist>

/**
 * Limits of one setlist (a gig's or a repertoire setlist): sets, entries per set, and entries in
 * all (what the stage view, the CSV and the documents of one gig are sized for).
 */
export const MAX_SETS = 20
export const MAX_ENTRIES_PER_SET = 200
export const MAX_SETLIST_ENTRIES = 400

/**
 * One entry of a PUT: a song (`songId`, as always) or a free-text entry (`title`, no song): exactly
 * one of the two. A free-text entry without `durationSeconds` takes no time.
 */
export const SetlistEntryInput = StrictObject({
  id: Type.Optional(Id),
  songId: Type.Optional(Id),
  title: Type.Optional(EntryTitle),
  notes: Type.Optional(NullableText(SETLIST_LIMITS.entryNotes)),
  durationSeconds: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 7200, description: 'override; null = song duration' })
    )
  ),
  transpose: Type.Optional({ ...Transpose, description: `${Transpose.description}; default 0` }),
  capo: Type.Optional(Capo)
})
export const SetlistSetInput = StrictObject({
  id: Type.Optional(Id),
  name: Type.String({ minLength: 1, maxLength: SETLIST_LIMITS.setName, pattern: '\\S' }),
  breakAfterSeconds: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 7200, description: 'null = configured default' }))
  ),
  entries: Type.Array(SetlistEntryInput, { maxItems: MAX_ENTRIES_PER_SET })
})
export const SetlistPut = StrictObject({
  version: Type.Integer({ minimum: 0 }),
  sets: Type.Array(SetlistSetInput, {
    maxItems: MAX_SETS,
    description: `at most ${MAX_SETS} sets of at most ${MAX_ENTRIES_PER_SET} entries, ` +
      `${MAX_SETLIST_ENTRIES} entries in all (SETLIST_TOO_LONG)`
  })
})
export type SetlistPutType = Static<typeof SetlistPut>

export const SetlistConflict = Type.Object(
  { ...ErrorResponse.properties, current: Setlist },
  { description: 'Stale version: the body carries the current setlist' }
)

export const SetlistPublish = StrictObject({
  version: Type.Integer({ minimum: 0, description: 'the setlist version you publish (current)' })
})

export const SetlistPublication = Type.Object({
  gigId: Type.Integer(),
  published: Type.Boolean(),
  version: Nullable(Type.Integer({ description: 'the setlist version that was published' })),
  publishedAt: Nullable(Type.String({ format: 'date-time' })),
  publishedBy: Nullable(Type.Integer()),
  publishedByName: Nullable(Type.String()),
  changedSince: Type.Boolean({ description: 'the setlist was saved again after publishing' })
})
export type SetlistPublicationType = Static<typeof SetlistPublication>
