import { Type, type Static } from '@sinclair/typebox'
import { Id, StrictObject } from './common.js'
import { LINEUP_LIMITS } from '#shared/limits.js'

export const LineupNeed = StrictObject({
  instrument: Type.String({ minLength: 1, maxLength: LINEUP_LIMITS.instrument, pattern: '\\S' }),
  count: Type.Integer({ minimum: 1, maximum: LINEUP_LIMITS.count })
})

export const LineupPut = StrictObject({
  needs: Type.Array(LineupNeed, { maxItems: LINEUP_LIMITS.needs })
})
export type LineupPutType = Static<typeof LineupPut>

const Player = Type.Object({ userId: Id, displayName: Type.String() })

export const Lineup = Type.Object({
  needs: Type.Array(Type.Object({
    instrument: Type.String(),
    count: Type.Integer(),
    yes: Type.Array(Player),
    maybe: Type.Array(Player),
    unanswered: Type.Array(Player),
    no: Type.Array(Player),
    missing: Type.Integer({ minimum: 0, description: 'count minus the players who said yes' })
  }), { description: 'in the order given; players by their instruments (case does not matter)' })
})
export type LineupType = Static<typeof Lineup>
