import { Type, type Static } from '@sinclair/typebox'
import { ErrorResponse, Id, Instant, NullableText, StrictObject, StringEnum } from './common.js'
import { MAX_SETS, Setlist, SetlistSet, SetlistSetInput } from './setlists.js'
import { PROGRAMME_LIMITS } from '#shared/limits.js'

/** Repertoire setlists the band keeps at most. */
export const MAX_REPERTOIRE_SETLISTS = 100

const Name = Type.String({ minLength: 1, maxLength: PROGRAMME_LIMITS.name, pattern: '\\S' })

const header = {
  id: Type.Integer(),
  name: Type.String(),
  notes: Type.Union([Type.String(), Type.Null()]),
  version: Type.Integer({ description: 'send it back with PUT …/setlist; a stale one gets 409' }),
  totalSeconds: Type.Integer({
    description: 'sets plus the breaks between them (default song length where none is known)'
  }),
  createdAt: Instant,
  updatedAt: Instant
}

export const RepertoireSummary = Type.Object({
  ...header,
  setCount: Type.Integer(),
  songCount: Type.Integer()
})
export type RepertoireSummaryType = Static<typeof RepertoireSummary>

export const Repertoire = Type.Object(
  { ...header, sets: Type.Array(SetlistSet) },
  {
    description:
      'Sets and entries have the shape of a gig setlist (the same editor works for both). ' +
      'Times count from 00:00 (elapsed time); the live fields are always planned, not inserted, ' +
      'unrated.'
  }
)
export type RepertoireType = Static<typeof Repertoire>

export const RepertoireCreate = StrictObject({
  name: Name,
  notes: Type.Optional(NullableText(PROGRAMME_LIMITS.notes)),
  sets: Type.Optional(
    Type.Array(SetlistSetInput, {
      maxItems: MAX_SETS,
      description: 'initial sets and entries (no ids); or use fromGigId'
    })
  ),
  fromGigId: Type.Optional(Id)
})
export type RepertoireCreateType = Static<typeof RepertoireCreate>

export const RepertoirePatch = StrictObject(
  { name: Type.Optional(Name), notes: Type.Optional(NullableText(PROGRAMME_LIMITS.notes)) },
  { minProperties: 1 }
)
export type RepertoirePatchType = Static<typeof RepertoirePatch>

export const RepertoireConflict = Type.Object(
  { ...ErrorResponse.properties, current: Repertoire },
  { description: 'Stale version: the body carries the current repertoire setlist' }
)

/** 409 of the copy: a stale version (with the current gig setlist) or a limit reached. */
export const SetlistCopyConflict = Type.Object(
  { ...ErrorResponse.properties, current: Type.Optional(Setlist) },
  {
    description:
      'SETLIST_VERSION_CONFLICT with the current gig setlist in `current`, or LIMIT_REACHED'
  }
)

export const SetlistCopy = StrictObject({
  repertoireId: Id,
  version: Type.Integer({ minimum: 0, description: "the gig setlist's version" }),
  mode: Type.Optional(
    StringEnum(['replace', 'append'], {
      description:
        "replace (default): the gig's sets are replaced (with their live record); " +
        'append: the sets are added after the existing ones'
    })
  )
})
export type SetlistCopyType = Static<typeof SetlistCopy>
