import { Type, type Static } from '@sinclair/typebox'
import { DateString, Id, StrictObject } from './common.js'
import { Nullable } from './nullable.js'
import { LINEUP_LIMITS } from '#shared/limits.js'
import { GigListQuery } from './gigs.js'

const Instrument = Type.String({
  minLength: 1, maxLength: LINEUP_LIMITS.instrument, pattern: '\\S'
})

export const LineupNeed = StrictObject({
  instrument: Instrument,
  count: Type.Integer({ minimum: 1, maximum: LINEUP_LIMITS.count })
})

export const LineupPut = StrictObject({
  needs: Type.Array(LineupNeed, { maxItems: LINEUP_LIMITS.needs })
})
export type LineupPutType = Static<typeof LineupPut>

const Player = Type.Object({ userId: Id, displayName: Type.String() })

export const Substitute = Type.Object({
  id: Id,
  name: Type.String(),
  instrument: Type.String(),
  contact: Type.Union([Type.String(), Type.Null()])
})

export const Lineup = Type.Object({
  needs: Type.Array(Type.Object({
    instrument: Type.String(),
    count: Type.Integer(),
    yes: Type.Array(Player),
    maybe: Type.Array(Player),
    unanswered: Type.Array(Player),
    no: Type.Array(Player),
    substitutes: Type.Array(Substitute, {
      description: 'named without a login: each counts as a yes'
    }),
    missing: Type.Integer({
      minimum: 0,
      description: 'count minus the players who said yes and the substitutes'
    })
  }), {
    description: 'in the order given; players by their instruments (case does not matter); ' +
      'occasional members only when asked for the gig or when they answered'
  }),
  asked: Type.Array(Type.Object({ ...Player.properties, instruments: Type.Array(Type.String()) }), {
    description: 'the occasional members an editor asked to play this gig'
  }),
  substitutes: Type.Array(Substitute, { description: 'every substitute named on the gig' })
})
export type LineupType = Static<typeof Lineup>

export const AskedPost = StrictObject({ userId: Id })
export const AskedParams = StrictObject({ id: Id, userId: Id })

export const SubstitutePost = StrictObject({
  name: Type.String({ minLength: 1, maxLength: LINEUP_LIMITS.substituteName, pattern: '\\S' }),
  instrument: Instrument,
  contact: Type.Optional(Nullable(Type.String({ maxLength: LINEUP_LIMITS.substituteContact })))
})
export const SubstituteParams = StrictObject({ id: Id, substituteId: Id })

export const LineupGapsQuery = GigListQuery
export const LineupGaps = Type.Object({
  gigs: Type.Array(Type.Object({
    gigId: Id,
    date: DateString,
    open: Type.Array(Type.Object({
      instrument: Type.String(),
      missing: Type.Integer({ minimum: 1 }),
      confirmed: Type.Integer({ minimum: 0, description: 'yes answers and substitutes' })
    }))
  }), { description: 'only gigs with an open need, in date order' })
})
export type LineupGapsType = Static<typeof LineupGaps>

export const ReminderPost = StrictObject({
  instrument: Type.Optional(Type.String({
    minLength: 1,
    maxLength: LINEUP_LIMITS.instrument,
    pattern: '\\S',
    description: "only this instrument's players (a need of the gig's lineup)"
  }))
})
