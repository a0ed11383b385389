import { Type, type Static } from '@sinclair/typebox'
import { Id, Nullable, StrictObject } from './common.js'
import { Gig } from './gigs.js'
import { LiveStatus, SetlistEntry, SetlistSet } from './setlists.js'

export const LiveState = Type.Object({
  gig: Gig,
  version: Type.Integer({ description: 'changes with every live update; also in the ETag' }),
  current: Type.Union([SetlistEntry, Type.Null()], {
    description: 'the first planned entry, null when all are done'
  }),
  currentSince: Nullable(
    Type.String({
      format: 'date-time',
      description:
        'actual start of the current song: when the entry before it was marked played or ' +
        'skipped; null before the first mark and when all are done'
    })
  ),
  sets: Type.Array(SetlistSet),
  totalSeconds: Type.Integer(),
  progress: Type.Object({
    planned: Type.Integer(),
    played: Type.Integer(),
    skipped: Type.Integer()
  })
})
export type LiveStateType = Static<typeof LiveState>

const LiveVersion = Type.Integer({
  minimum: 0,
  description: 'the live version the tap was made on (GET /gigs_lm/{id} `version`); 409 when stale'
})
const IdempotencyKey = Type.String({
  minLength: 8,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description:
    'optional, unique per tap (e.g. a UUID): a request of the same user repeated with the same ' +
    'key is not applied again but answered with the current live view'
})

export const LiveUpdate = StrictObject(
  {
    entryId: Id,
    status: Type.Optional(LiveStatus),
    rating: Type.Optional(
      Nullable(
        Type.Integer({ minimum: 1, maximum: 3, description: '1 ok, 2 good, 3 great; null clears' })
      )
    ),
    version: Type.Optional(LiveVersion),
    songId: Type.Optional(Nullable(Id, {
      description: 'the song the entry played when the tap was made (null: a free-text ' +
        'entry); if a save changed it since, 409 LIVE_VERSION_CONFLICT'
    })),
    idempotencyKey: Type.Optional(IdempotencyKey)
  },
  // status or rating: the route refuses a body with neither (400).
  { minProperties: 2 }
)
export type LiveUpdateType = Static<typeof LiveUpdate>

export const LiveUpdateResult = Type.Object({ entry: SetlistEntry, version: Type.Integer() })
export type LiveUpdateResultType = Static<typeof LiveUpdateResult>

export const LiveInsert = StrictObject({
  songId: Id,
  setId: Id,
  afterEntryId: Type.Optional(Id),
  version: Type.Optional(LiveVersion),
  idempotencyKey: Type.Optional(IdempotencyKey)
})
export type LiveInsertType = Static<typeof LiveInsert>

export const LiveUndo = StrictObject({
  version: LiveVersion,
  idempotencyKey: Type.Optional(IdempotencyKey)
})
export type LiveUndoType = Static<typeof LiveUndo>

export const LiveMakeCurrent = StrictObject({
  entryId: Id,
  version: LiveVersion,
  idempotencyKey: Type.Optional(IdempotencyKey)
})
export type LiveMakeCurrentType = Static<typeof LiveMakeCurrent>
