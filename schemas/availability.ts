import { Type, type Static } from '@sinclair/typebox'
import { Instant, Nullable, NullableText, StringEnum, StrictObject } from './common.js'
import { AVAILABILITY_STATUSES } from '#shared/enums.js'

// One shape for gigs and rehearsals (docs/api.md: rehearsal availability works as for gigs).
export const AvailabilityStatus = StringEnum(AVAILABILITY_STATUSES)
export type AvailabilityStatusType = Static<typeof AvailabilityStatus>

export const AvailabilityPut = StrictObject({
  status: AvailabilityStatus,
  note: Type.Optional(NullableText(500))
})
export type AvailabilityPutType = Static<typeof AvailabilityPut>

export const AvailabilityAnswer = Type.Object({
  userId: Type.Integer(),
  displayName: Type.String(),
  status: Type.Unsafe<AvailabilityStatusType | null>({
    type: ['string', 'null'],
    enum: [...AVAILABILITY_STATUSES, null],
    description: 'null: not answered yet'
  }),
  note: Nullable(Type.String()),
  updatedAt: Nullable(Instant, { description: 'null: not answered yet' })
})
export type AvailabilityAnswerType = Static<typeof AvailabilityAnswer>

export const Availability = Type.Object({
  answers: Type.Array(AvailabilityAnswer, {
    description:
      'every active musician (unanswered ones with status null) plus anyone else ' +
      'who answered, by display name'
  }),
  summary: Type.Object(
    { yes: Type.Integer(), no: Type.Integer(), maybe: Type.Integer(), unanswered: Type.Integer() },
    { description: 'counted over active musicians only' }
  )
})
export type AvailabilityType = Static<typeof Availability>
