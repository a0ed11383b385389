// A gig's money, worked out: the net (fee less expenses) split by the band's rules into shares
// that add up to the net to the cent, and balances across gigs settled by the fewest transfers
// the greedy match finds. Integer cents throughout; shared so the web app shows the same split
// the server stores.

/** Who gets or pays money: a member (by id) or a named party (the band fund, a substitute). */
export type Party = { userId: number } | { name: string }

export interface MoneyRules {
  /** Who shares the rest equally; `null`: the members who answered yes for the gig. */
  players: number[] | null
  /** Fixed amounts taken first (a substitute's fee, the van). */
  fixed: Array<{ to: Party, amountCents: number }>
  /** Percentages of the net (fee less expenses), in hundredths of a percent (1000 = 10 %). */
  percentages: Array<{ to: Party, basisPoints: number }>
}

export interface Share { to: Party, amountCents: number }

export interface Distribution {
  netCents: number
  shares: Share[]
  /** Left with whoever received the fee: the rest when nobody plays (no equal share). */
  unassignedCents: number
}

export const partyKey = (party: Party) =>
  'userId' in party ? `u:${party.userId}` : `n:${party.name.trim().toLowerCase()}`

/** `total` split into `count` parts that differ by at most one cent, the larger ones first. */
export function equalParts (total: number, count: number): number[] {
  if (count <= 0) return []
  const base = Math.trunc(total / count)
  const rest = total - base * count
  // A negative rest (a loss) gives the extra cent of loss to the first members, as a gain would.
  return Array.from({ length: count }, (_, i) => base + (i < Math.abs(rest) ? Math.sign(rest) : 0))
}

/**
 * Largest remainder: each percentage's exact amount floored, then the cents lost to rounding
 * handed out one by one by the largest fraction (ties: in the rules' order).
 */
export function percentageParts (net: number, basisPoints: number[]): number[] {
  const exact = basisPoints.map((bp) => net * bp)
  const floors = exact.map((value) => Math.floor(value / 10000))
  const target = Math.floor(exact.reduce((sum, value) => sum + value, 0) / 10000)
  let missing = target - floors.reduce((sum, value) => sum + value, 0)
  const order = exact
    .map((value, index) => ({ index, fraction: value - floors[index]! * 10000 }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index)
  for (const { index } of order) {
    if (missing <= 0) break
    floors[index]! += 1
    missing -= 1
  }
  return floors
}

export class MoneyRuleError extends Error {}

/**
 * The shares of one gig. Percentages are of the net, fixed amounts come next, the rest is split
 * equally among the players. Fixed and percentage shares above a positive net are refused; a
 * loss (expenses above the fee) is borne by the players alone.
 */
export function distribute (
  feeCents: number,
  expenseCents: number[],
  rules: MoneyRules,
  players: number[]
): Distribution {
  const netCents = feeCents - expenseCents.reduce((sum, value) => sum + value, 0)
  const basisPoints = rules.percentages.map((p) => p.basisPoints)
  if (basisPoints.reduce((sum, value) => sum + value, 0) > 10000) {
    throw new MoneyRuleError('the percentages add up to more than 100 %')
  }
  const positive = Math.max(netCents, 0)
  const percent = percentageParts(positive, basisPoints)
  const shares: Share[] = rules.percentages.map((p, i) => ({ to: p.to, amountCents: percent[i]! }))
  for (const fixed of rules.fixed) shares.push({ to: fixed.to, amountCents: fixed.amountCents })
  const taken = shares.reduce((sum, share) => sum + share.amountCents, 0)
  if (taken > positive) {
    throw new MoneyRuleError(
      `fixed and percentage shares (${taken} cents) exceed the net of ${netCents} cents`)
  }
  const rest = netCents - taken
  const parts = equalParts(rest, players.length)
  players.forEach((userId, i) => shares.push({ to: { userId }, amountCents: parts[i]! }))
  return { netCents, shares: merged(shares), unassignedCents: players.length === 0 ? rest : 0 }
}

/** One share per party, in the order each party first appears. */
function merged (shares: Share[]): Share[] {
  const byParty = new Map<string, Share>()
  for (const share of shares) {
    const key = partyKey(share.to)
    const known = byParty.get(key)
    if (known) known.amountCents += share.amountCents
    else byParty.set(key, { to: share.to, amountCents: share.amountCents })
  }
  return [...byParty.values()]
}

export interface Balance { party: Party, amountCents: number }
export interface Transfer { from: Party, to: Party, amountCents: number }

/** Adds `amount` to a party's balance in `balances` (positive: the party is owed money). */
export function credit (balances: Map<string, Balance>, party: Party, amount: number) {
  const key = partyKey(party)
  const known = balances.get(key)
  if (known) known.amountCents += amount
  else balances.set(key, { party, amountCents: amount })
}

/**
 * Transfers that settle every balance: the largest debtor pays the largest creditor, again and
 * again. At most one transfer fewer than the parties with a balance (finding the true minimum is
 * NP-hard; this is the usual answer and never worse than n − 1).
 */
export function settle (balances: Balance[]): Transfer[] {
  const creditors = balances.filter((b) => b.amountCents > 0).map((b) => ({ ...b }))
  const debtors = balances.filter((b) => b.amountCents < 0)
    .map((b) => ({ ...b, amountCents: -b.amountCents }))
  const largestFirst = (a: Balance, b: Balance) =>
    b.amountCents - a.amountCents || partyKey(a.party).localeCompare(partyKey(b.party))
  const transfers: Transfer[] = []
  while (creditors.length > 0 && debtors.length > 0) {
    creditors.sort(largestFirst)
    debtors.sort(largestFirst)
    const creditor = creditors[0]!
    const debtor = debtors[0]!
    const amountCents = Math.min(creditor.amountCents, debtor.amountCents)
    transfers.push({ from: debtor.party, to: creditor.party, amountCents })
    creditor.amountCents -= amountCents
    debtor.amountCents -= amountCents
    if (creditor.amountCents === 0) creditors.shift()
    if (debtor.amountCents === 0) debtors.shift()
  }
  return transfers
}
