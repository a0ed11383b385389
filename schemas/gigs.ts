import { Type, type Static } from '@sinclair/typebox'
import {
  DateString,
  Id,
  Instant,
  LocalDateTime,
  Nullable,
  NullableText,
  StrictObject,
  StringEnum,
  TimeString
} from './common.js'
import { GIG_STATUSES } from '#shared/enums.js'
import { GIG_LIMITS, SCHEDULE_LIMITS } from '#shared/limits.js'

export const GigStatus = StringEnum(GIG_STATUSES)
export type GigStatusType = Static<typeof GigStatus>

const NullableTime = Nullable(TimeString)
const Text = () => Nullable(Type.String())

export const Gig = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  date: DateString,
  kind: Nullable(Type.String()),
  status: GigStatus,
  venue: Type.Object({ name: Text(), address: Text(), city: Text() }),
  organizer: Type.Object({ name: Text(), contact: Text() }),
  getInTime: NullableTime,
  soundcheckTime: NullableTime,
  doorsTime: NullableTime,
  startTime: NullableTime,
  endTime: NullableTime,
  endsNextDay: Type.Boolean({
    description: 'true when endTime is before startTime: the gig ends after midnight'
  }),
  notes: Nullable(Type.String()),
  createdAt: Instant,
  updatedAt: Instant
})
export type GigType = Static<typeof Gig>

const VenueInput = StrictObject({
  name: Type.Optional(NullableText(GIG_LIMITS.venueName)),
  address: Type.Optional(NullableText(GIG_LIMITS.venueAddress)),
  city: Type.Optional(NullableText(GIG_LIMITS.venueCity))
})
const OrganizerInput = StrictObject({
  name: Type.Optional(NullableText(GIG_LIMITS.organizerName)),
  contact: Type.Optional(NullableText(GIG_LIMITS.organizerContact))
})

const gigFields = {
  kind: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 60, description: 'one of the app config gigKinds' })
    )
  ),
  status: Type.Optional(GigStatus),
  venue: Type.Optional(VenueInput),
  organizer: Type.Optional(OrganizerInput),
  getInTime: Type.Optional(NullableTime),
  soundcheckTime: Type.Optional(NullableTime),
  doorsTime: Type.Optional(NullableTime),
  startTime: Type.Optional(NullableTime),
  endTime: Type.Optional(
    Nullable(Type.String({ ...TimeString, description: 'before startTime means the next day' }))
  ),
  notes: Type.Optional(NullableText(GIG_LIMITS.notes))
}
const Name = Type.String({ minLength: 1, maxLength: GIG_LIMITS.name, pattern: '\\S' })

export const GigCreate = StrictObject({ name: Name, date: DateString, ...gigFields })
export type GigCreateType = Static<typeof GigCreate>

export const GigPatch = StrictObject(
  { name: Type.Optional(Name), date: Type.Optional(DateString), ...gigFields },
  { minProperties: 1 }
)
export type GigPatchType = Static<typeof GigPatch>

export const GigListQuery = Type.Object({
  from: Type.Optional(DateString),
  to: Type.Optional(DateString),
  status: Type.Optional(GigStatus),
  upcoming: Type.Optional(Type.Boolean({ description: 'only gigs from today on (band timezone)' }))
})
export type GigListQueryType = Static<typeof GigListQuery>

// Running order of the day.
export const ScheduleItemInput = StrictObject({
  id: Type.Optional(Id),
  at: LocalDateTime,
  title: Type.String({ minLength: 1, maxLength: SCHEDULE_LIMITS.title, pattern: '\\S' }),
  who: Type.Optional(NullableText(SCHEDULE_LIMITS.who)),
  where: Type.Optional(NullableText(SCHEDULE_LIMITS.where)),
  notes: Type.Optional(NullableText(SCHEDULE_LIMITS.notes))
})
export const SchedulePut = StrictObject({ items: Type.Array(ScheduleItemInput, { maxItems: 100 }) })
export type SchedulePutType = Static<typeof SchedulePut>

/** A running order row's kind: a code, never an English word (clients translate it). */
export const SCHEDULE_ROW_KINDS = [
  'item',
  'getIn',
  'soundcheck',
  'doors',
  'start',
  'end',
  'set'
] as const
export type ScheduleRowKind = (typeof SCHEDULE_ROW_KINDS)[number]

export const ScheduleItem = Type.Object({
  id: Nullable(
    Type.Integer({ description: 'null for read-only items derived from the gig and the setlist' })
  ),
  at: LocalDateTime,
  endAt: Nullable(LocalDateTime),
  title: Nullable(
    Type.String({
      description:
        'what the band wrote (items) or the set\'s name; null for the gig\'s own times, which ' +
        'the client names from `kind` in its language'
    })
  ),
  who: Nullable(Type.String()),
  where: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  source: StringEnum(['item', 'gig', 'set']),
  kind: StringEnum(SCHEDULE_ROW_KINDS, {
    description: 'what the row is; the client and the documents translate it'
  }),
  songCount: Nullable(Type.Integer({ minimum: 0, description: 'songs in the set (kind set)' })),
  readOnly: Type.Boolean()
})
export type ScheduleItemType = Static<typeof ScheduleItem>
export const Schedule = Type.Object({ gigId: Type.Integer(), items: Type.Array(ScheduleItem) })
export type ScheduleType = Static<typeof Schedule>
