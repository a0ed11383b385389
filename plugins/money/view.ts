import type { GigMoneyType, SeasonType, BalancesType } from '#schemas/money.js'
import type { MoneyConfigType } from '#schemas/app-config.js'
import {
  credit,
  distribute,
  partyKey,
  settle,
  type Balance,
  type MoneyRules,
  type Party
} from '#shared/money.js'
import type { GigMoneyRow } from './repository.js'

export const NO_RULES: MoneyRules = { players: null, fixed: [], percentages: [] }

const apiRules = (rules: MoneyRules) => ({
  players: rules.players,
  fixed: rules.fixed.map((f) => ({ to: f.to, amountCents: f.amountCents })),
  percentages: rules.percentages.map((p) => ({ to: p.to, percent: p.basisPoints / 100 }))
})

type MoneyFacts = Pick<GigMoneyRow, 'feeCents' | 'expenses' | 'rules'>

/** The shares of a stored row, the default players standing in for `players: null`. */
export function rowDistribution (row: MoneyFacts, yes: number[]) {
  return distribute(row.feeCents, row.expenses.map((e) => e.amountCents), row.rules,
    row.rules.players ?? yes)
}

/**
 * A gig's money as one viewer may see it: `full` for editors (and members where the band shows
 * everything), else the totals and the viewer's own share.
 */
export function moneyView (
  gigId: number,
  row: GigMoneyRow | undefined,
  yes: number[],
  viewer: { userId: number, full: boolean },
  config: MoneyConfigType
): GigMoneyType {
  const stored = row ?? {
    gigId,
    feeCents: 0,
    currency: config.currency,
    paid: false,
    paidOn: null,
    receivedBy: null,
    invoiceNumber: null,
    expenses: [],
    rules: NO_RULES,
    version: 0,
    updatedAt: null
  }
  const { netCents, shares, unassignedCents } = rowDistribution(stored, yes)
  const mine = shares.find((s) => 'userId' in s.to && s.to.userId === viewer.userId)
  const view: GigMoneyType = {
    gigId,
    view: viewer.full ? 'full' : 'own',
    version: stored.version,
    totals: {
      feeCents: stored.feeCents,
      expensesCents: stored.expenses.reduce((sum, e) => sum + e.amountCents, 0),
      netCents,
      currency: stored.currency,
      paid: stored.paid
    },
    myShareCents: mine?.amountCents ?? 0,
    updatedAt: row?.updatedAt ?? null
  }
  if (!viewer.full) return view
  return {
    ...view,
    fee: {
      amountCents: stored.feeCents,
      currency: stored.currency,
      paid: stored.paid,
      paidAt: stored.paidOn,
      receivedBy: stored.receivedBy,
      invoiceNumber: stored.invoiceNumber
    },
    expenses: stored.expenses,
    rules: apiRules(stored.rules),
    distribution: shares,
    unassignedCents
  }
}

/**
 * Who owes whom: a paid fee is owed out by whoever received it, expenses are owed to whoever laid
 * them out (the receiver, when paid from the fee), shares to their parties, and payments move
 * money from one party to another. Unpaid gigs owe nothing yet.
 */
export function balancesOf (
  rows: GigMoneyRow[],
  yes: Map<number, number[]>,
  payments: Array<{ fromParty: Party, toParty: Party, amountCents: number }>
): Balance[] {
  const balances = new Map<string, Balance>()
  for (const row of rows) {
    if (!row.paid || !row.receivedBy) continue
    const { shares, unassignedCents } = rowDistribution(row, yes.get(row.gigId) ?? [])
    credit(balances, row.receivedBy, -row.feeCents + unassignedCents)
    for (const expense of row.expenses) {
      credit(balances, expense.paidBy ?? row.receivedBy, expense.amountCents)
    }
    for (const share of shares) credit(balances, share.to, share.amountCents)
  }
  for (const payment of payments) {
    credit(balances, payment.fromParty, payment.amountCents)
    credit(balances, payment.toParty, -payment.amountCents)
  }
  return [...balances.values()]
    .filter((b) => b.amountCents !== 0)
    .sort((a, b) => partyKey(a.party).localeCompare(partyKey(b.party)))
}

export function balancesAnswer (balances: Balance[], currency: string,
  onlyFor?: number): BalancesType {
  const involves = (party: Party) =>
    onlyFor === undefined || ('userId' in party && party.userId === onlyFor)
  return {
    currency,
    balances: balances.filter((b) => involves(b.party))
      .map((b) => ({ ...b.party, amountCents: b.amountCents })),
    transfers: settle(balances).filter((t) => involves(t.from) || involves(t.to))
  }
}

/** A year's figures: the gigs' totals and each party's shares, income, open shares, outlays. */
export function seasonOf (
  year: number,
  currency: string,
  rows: Array<{ money: GigMoneyRow, name: string, date: string }>,
  yes: Map<number, number[]>,
  names: Map<number, string>
): SeasonType {
  const parties = new Map<string, SeasonType['members'][number]>()
  const party = (p: Party) => {
    const key = partyKey(p)
    const known = parties.get(key)
    if (known) return known
    const zero = { sharesCents: 0, incomeCents: 0, openCents: 0, expensesCents: 0 }
    const entry = 'userId' in p
      ? { userId: p.userId, name: names.get(p.userId) ?? `#${p.userId}`, ...zero }
      : { name: p.name, ...zero }
    parties.set(key, entry)
    return entry
  }
  const totals = { incomeCents: 0, expensesCents: 0, netCents: 0, openCents: 0 }
  const gigs: SeasonType['gigs'] = []
  for (const { money, name, date } of rows) {
    const { netCents, shares } = rowDistribution(money, yes.get(money.gigId) ?? [])
    const expensesCents = money.expenses.reduce((sum, e) => sum + e.amountCents, 0)
    gigs.push({
      gigId: money.gigId,
      name,
      date,
      feeCents: money.feeCents,
      expensesCents,
      netCents,
      paid: money.paid
    })
    totals.incomeCents += money.feeCents
    totals.expensesCents += expensesCents
    totals.netCents += netCents
    if (!money.paid) totals.openCents += money.feeCents
    for (const share of shares) {
      const entry = party(share.to)
      entry.sharesCents += share.amountCents
      if (money.paid) entry.incomeCents += share.amountCents
      else entry.openCents += share.amountCents
    }
    for (const expense of money.expenses) {
      const payer = expense.paidBy ?? money.receivedBy
      if (payer) party(payer).expensesCents += expense.amountCents
    }
  }
  const members = [...parties.values()].sort((a, b) => a.name.localeCompare(b.name))
  return { year, currency, totals, members, gigs }
}
