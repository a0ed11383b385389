import { Type, type Static } from '@sinclair/typebox'
import { DateString, Id, Instant, Nullable, NullableText, StrictObject } from './common.js'
import { MONEY_LIMITS } from '#shared/limits.js'

const Cents = Type.Integer({ minimum: 0, maximum: MONEY_LIMITS.amountCents })
/** A balance or a loss may be below zero. */
const SignedCents = Type.Integer({
  minimum: -MONEY_LIMITS.amountCents * 1000,
  maximum: MONEY_LIMITS.amountCents * 1000
})

export const PartySchema = StrictObject({
  userId: Type.Optional(Id),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: MONEY_LIMITS.partyName }))
}, {
  minProperties: 1,
  maxProperties: 1,
  description: 'a member (`userId`) or a named party without a login (`name`: the band fund, ' +
    'a substitute)'
})
export type PartyBody = Static<typeof PartySchema>

const Fee = StrictObject({
  amountCents: Cents,
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: "the band's currency" }),
  paid: Type.Boolean(),
  paidAt: Nullable(DateString),
  receivedBy: Nullable(PartySchema, { description: 'who holds the fee; required once paid' }),
  invoiceNumber: NullableText(MONEY_LIMITS.invoiceNumber)
})

const Expense = StrictObject({
  paidBy: Nullable(PartySchema, { description: 'who laid the money out; null: the fee itself' }),
  title: Type.String({ minLength: 1, maxLength: MONEY_LIMITS.title }),
  amountCents: Cents,
  receiptFileId: Type.Optional(Nullable(Id, {
    description: 'the receipt: a file of this gig (GET /gigs/{id}/files), else 400 UNKNOWN_FILE'
  }))
})

const Rules = StrictObject({
  players: Nullable(Type.Array(Id, { maxItems: MONEY_LIMITS.rules, uniqueItems: true }), {
    description: 'who shares the rest equally; null: the members who answered yes'
  }),
  fixed: Type.Array(StrictObject({ to: PartySchema, amountCents: Cents }), {
    maxItems: MONEY_LIMITS.rules,
    description: "fixed amounts taken first (a substitute's fee, the van)"
  }),
  percentages: Type.Array(
    StrictObject({ to: PartySchema, percent: Type.Number({ minimum: 0, maximum: 100 }) }),
    {
      maxItems: MONEY_LIMITS.rules,
      description: 'shares of the net (fee less expenses), at most two decimals'
    }
  )
})

export const GigMoneyPut = StrictObject({
  version: Type.Integer({
    minimum: 0,
    description: 'the version the change is based on (0 while the gig has no money)'
  }),
  fee: Fee,
  expenses: Type.Array(Expense, { maxItems: MONEY_LIMITS.expenses }),
  rules: Rules
})
export type GigMoneyPutType = Static<typeof GigMoneyPut>

const ShareSchema = Type.Object({ to: PartySchema, amountCents: SignedCents })

export const GigMoney = Type.Object({
  gigId: Id,
  view: Type.Union([Type.Literal('full'), Type.Literal('own')], {
    description: "full: everything (editors, or members where the band allows); own: a member's " +
      "share and the gig's totals"
  }),
  version: Type.Integer(),
  totals: Type.Object({
    feeCents: Cents,
    expensesCents: Type.Integer(),
    netCents: SignedCents,
    currency: Type.String(),
    paid: Type.Boolean()
  }),
  myShareCents: Type.Integer({ description: 'what the asking member gets of this gig' }),
  fee: Type.Optional(Fee),
  expenses: Type.Optional(Type.Array(Expense)),
  rules: Type.Optional(Rules),
  distribution: Type.Optional(Type.Array(ShareSchema, {
    description: 'the computed shares: they add up to the net, less `unassignedCents`'
  })),
  unassignedCents: Type.Optional(Type.Integer({
    description: 'the rest when nobody plays: it stays with whoever received the fee'
  })),
  updatedAt: Nullable(Instant)
})
export type GigMoneyType = Static<typeof GigMoney>

export const MoneyConflict = Type.Object({
  statusCode: Type.Literal(409),
  error: Type.String(),
  code: Type.Literal('MONEY_VERSION_CONFLICT'),
  message: Type.String(),
  current: GigMoney
}, { description: "The gig's money changed meanwhile: `current` is what is stored" })

export const PaymentPost = StrictObject({
  from: PartySchema,
  to: PartySchema,
  amountCents: Type.Integer({ minimum: 1, maximum: MONEY_LIMITS.amountCents }),
  paidOn: Type.Optional(DateString),
  note: Type.Optional(NullableText(MONEY_LIMITS.note))
})
export type PaymentPostType = Static<typeof PaymentPost>

export const Payment = Type.Object({
  id: Id,
  from: PartySchema,
  to: PartySchema,
  amountCents: Type.Integer(),
  paidOn: DateString,
  note: Type.Union([Type.String(), Type.Null()]),
  createdAt: Instant
})
export type PaymentType = Static<typeof Payment>

export const Balances = Type.Object({
  currency: Type.String(),
  balances: Type.Array(Type.Object({
    userId: Type.Optional(Id),
    name: Type.Optional(Type.String()),
    amountCents: SignedCents
  }), { description: 'positive: is owed money; negative: owes money' }),
  transfers: Type.Array(Type.Object({
    from: PartySchema,
    to: PartySchema,
    amountCents: Type.Integer()
  }), { description: 'the transfers that settle every balance' })
})
export type BalancesType = Static<typeof Balances>

export const SeasonParams = StrictObject({ year: Type.Integer({ minimum: 1900, maximum: 2999 }) })

export const Season = Type.Object({
  year: Type.Integer(),
  currency: Type.String(),
  totals: Type.Object({
    incomeCents: Type.Integer({ description: 'fees of the gigs in the year' }),
    expensesCents: Type.Integer(),
    netCents: Type.Integer(),
    openCents: Type.Integer({ description: 'fees not paid yet' })
  }),
  members: Type.Array(Type.Object({
    userId: Type.Optional(Id),
    name: Type.String(),
    sharesCents: Type.Integer({ description: 'shares of every gig of the year' }),
    incomeCents: Type.Integer({ description: 'shares of the gigs whose fee was paid' }),
    openCents: Type.Integer({ description: 'shares of the gigs whose fee is not paid yet' }),
    expensesCents: Type.Integer({ description: 'expenses the party laid out' })
  })),
  gigs: Type.Array(Type.Object({
    gigId: Id,
    name: Type.String(),
    date: DateString,
    feeCents: Type.Integer(),
    expensesCents: Type.Integer(),
    netCents: Type.Integer(),
    paid: Type.Boolean()
  }))
})
export type SeasonType = Static<typeof Season>
