import { Type, type Static } from '@sinclair/typebox'
import { Id, Instant, LiteralUnion, StrictObject } from './common.js'
import { SONG_STATUSES, VOTE_VALUES } from '#shared/enums.js'
import { Nullable, NullableString as NullableText } from './nullable.js'
import { SONG_LIMITS } from '#shared/limits.js'
import { KEY_PATTERN } from '#shared/keys.js'

/** The API's key: canonical only, so that every client reads it the same way. */
const KeySchema = Type.String({
  pattern: KEY_PATTERN,
  description:
    'pitch class + mode: tonic in English letters with # or b, then "m" for minor ' +
    '("Bb" = B♭ major, "Gm" = G minor, "F#m"); see docs/keys.md',
  examples: ['Bb', 'Gm', 'F#m']
})

export const SongStatus = LiteralUnion(SONG_STATUSES, {
  description:
      'proposed → accepted → rehearsing → ready; retired songs are hidden from ' +
      'the list unless asked for'
})
export type SongStatusType = Static<typeof SongStatus>

export const VoteValue = LiteralUnion(VOTE_VALUES)

// The GEMA export splits each name at the first comma into surname and first name.
const PersonList = Type.Array(Type.String({ minLength: 1, maxLength: 120 }), {
  maxItems: 10,
  description:
    'person names as "Lastname, Firstname" (the GEMA report splits at the comma); ' +
    'at most 10, each ≤ 120 characters',
  examples: [['Joplin, Scott']]
})
const Link = Type.String({
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
  maxLength: 500,
  description: 'http(s) URL'
})
const Links = Type.Array(Link, {
  maxItems: 10,
  description: 'at most 10 http(s) URLs, each ≤ 500 characters'
})
const Duration = Nullable(Type.Integer({ minimum: 1, maximum: 7200 }), {
  description: 'seconds, 1 s – 2 h'
})
const Tempo = Nullable(Type.Integer({ minimum: 20, maximum: 400 }), {
  description: 'beats per minute, 20–400'
})
const Label = (description: string) =>
  Nullable(Type.String({ minLength: 1, maxLength: 60 }), { description })
const GemaWorkNumber = Nullable(
  Type.String({ pattern: '^[0-9]{1,12}(-[0-9]{1,4})?$', maxLength: SONG_LIMITS.gemaWorkNumber }),
  {
    description: 'GEMA Werknummer, e.g. 1234567-001',
    examples: ['1234567-001']
  }
)
const Iswc = Nullable(Type.String({ pattern: '^T-?[0-9]{3}\\.?[0-9]{3}\\.?[0-9]{3}-?[0-9]$' }), {
  description: 'ISWC, e.g. T-034.524.680-1',
  examples: ['T-034.524.680-1']
})

/** Largest chart in UTF-8 bytes (checked by the route: JSON Schema counts UTF-16 units). */
export const MAX_CHART_BYTES = 64 * 1024
const Chart = Nullable(Type.String({ maxLength: MAX_CHART_BYTES }), {
  description:
    'ChordPro text (chordpro.org), stored exactly as sent; at most 64 KiB of UTF-8, its ' +
    '{chorus} recalls at most 1,000 lines and 4 times its text (CHART_EXPANDS_TOO_FAR); ' +
    'null: none'
})

const songFields = {
  // At least one character that is not white space: "   " is no title.
  title: Type.String({ minLength: 1, maxLength: SONG_LIMITS.title, pattern: '\\S' }),
  artist: NullableText(SONG_LIMITS.artist),
  genre: Label('one of the configured genres (GET /public/app_config)'),
  durationSeconds: Duration,
  key: Nullable(Type.String({ minLength: 1, maxLength: 60 }), {
    description: `${KeySchema.description}; anything else is refused (INVALID_KEY), ` +
      'setting a key clears `keyText`',
    examples: KeySchema.examples
  }),
  tempoBpm: Tempo,
  leadSinger: NullableText(SONG_LIMITS.leadSinger),
  backingVocals: NullableText(SONG_LIMITS.backingVocals),
  composers: PersonList,
  lyricists: PersonList,
  arrangers: PersonList,
  publisher: NullableText(SONG_LIMITS.publisher),
  gemaWorkNumber: GemaWorkNumber,
  iswc: Iswc,
  isOriginal: Type.Boolean({ description: 'an own composition of the band' }),
  status: SongStatus,
  notes: NullableText(SONG_LIMITS.notes),
  chart: Chart,
  links: Links
}

export const Song = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  artist: Type.Union([Type.String(), Type.Null()]),
  genre: Type.Union([Type.String(), Type.Null()]),
  durationSeconds: Type.Union([Type.Integer(), Type.Null()]),
  key: Type.Union([Type.String({ pattern: KeySchema.pattern }), Type.Null()], {
    description: KeySchema.description
  }),
  keyText: Type.Union([Type.String(), Type.Null()], {
    description:
      'a key written before keys were music that could not be read (shown as written until ' +
      'a key is chosen); null otherwise'
  }),
  tempoBpm: Type.Union([Type.Integer(), Type.Null()]),
  leadSinger: Type.Union([Type.String(), Type.Null()]),
  backingVocals: Type.Union([Type.String(), Type.Null()]),
  composers: Type.Array(Type.String()),
  lyricists: Type.Array(Type.String()),
  arrangers: Type.Array(Type.String()),
  publisher: Type.Union([Type.String(), Type.Null()]),
  gemaWorkNumber: Type.Union([Type.String(), Type.Null()]),
  iswc: Type.Union([Type.String(), Type.Null()]),
  isOriginal: Type.Boolean(),
  status: SongStatus,
  notes: Type.Union([Type.String(), Type.Null()]),
  links: Type.Array(Type.String()),
  hasChart: Type.Boolean({ description: 'the song has a chart (GET /songs/{id} has it)' }),
  proposedBy: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the member who proposed the song'
  }),
  createdAt: Instant,
  updatedAt: Instant
})
export type SongListItemType = Static<typeof Song>

/** One song with its chart; lists stay light (`hasChart` only). */
export const SongDetail = Type.Object({
  ...Song.properties,
  chart: Type.Union([Type.String(), Type.Null()], { description: 'ChordPro text, null: none' })
})
export type SongType = Static<typeof SongDetail>

// Every field optional except the title; `status` describes the rules for creating.
export const SongCreate = StrictObject({
  ...Type.Partial(Type.Object(songFields)).properties,
  title: songFields.title,
  status: Type.Optional({
    ...songFields.status,
    description:
      'members may only propose (status proposed, the default for members); editors ' +
      'default to accepted'
  })
})
export type SongCreateType = Static<typeof SongCreate>

// The create body with every field optional (at least one), `status` with its general description.
export const SongPatch = StrictObject(
  { ...Type.Partial(SongCreate).properties, status: Type.Optional(songFields.status) },
  { minProperties: 1 }
)
export type SongPatchType = Static<typeof SongPatch>

export const SongListQuery = Type.Object({
  status: Type.Optional(SongStatus),
  includeRetired: Type.Optional(
    Type.Boolean({ description: 'also list retired songs (default false)' })
  ),
  genre: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SONG_LIMITS.query,
      description: 'substring of title or artist, case-insensitive'
    })
  )
})
export type SongListQueryType = Static<typeof SongListQuery>

export const SongDeleteResult = Type.Object(
  {
    deleted: Type.Boolean(),
    retired: Type.Boolean(),
    song: Type.Optional(Song)
  },
  {
    description:
      'deleted: true when the song is gone; a song used by a setlist is retired ' +
      'instead (deleted: false, retired: true, song)'
  }
)

export const VoteBody = StrictObject({ vote: VoteValue })
export type VoteBodyType = Static<typeof VoteBody>

export const SongVotes = Type.Object({
  songId: Type.Integer(),
  counts: Type.Object({ yes: Type.Integer(), no: Type.Integer(), abstain: Type.Integer() }),
  votes: Type.Array(
    Type.Object({
      userId: Type.Integer(),
      displayName: Type.String(),
      vote: VoteValue,
      updatedAt: Instant
    })
  )
})
export type SongVotesType = Static<typeof SongVotes>

export const SongIdParams = StrictObject({ id: Id })
