import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  credit,
  distribute,
  equalParts,
  MoneyRuleError,
  percentageParts,
  settle,
  type Balance,
  type MoneyRules
} from '#shared/money.js'

const rules = (part: Partial<MoneyRules> = {}): MoneyRules =>
  ({ players: null, fixed: [], percentages: [], ...part })
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

test('equal shares: the cents of rounding go one each to the first players', () => {
  assert.deepEqual(equalParts(1000, 3), [334, 333, 333])
  assert.deepEqual(equalParts(1001, 3), [334, 334, 333])
  assert.deepEqual(equalParts(-1000, 3), [-334, -333, -333])
  assert.deepEqual(equalParts(500, 0), [])
})

test('percentages by largest remainder: 1/3 each of 100 cents is 34, 33, 33', () => {
  assert.deepEqual(percentageParts(100, [3333, 3333, 3334]), [33, 33, 34])
  assert.deepEqual(percentageParts(1000, [1000]), [100])
  assert.deepEqual(percentageParts(999, [5000, 5000]), [500, 499])
})

test('a wedding: 10 % to the fund, the sub fixed, the rest among three players', () => {
  const { netCents, shares, unassignedCents } = distribute(250000, [30000, 4550], rules({
    fixed: [{ to: { name: 'Sub Tom' }, amountCents: 25000 }],
    percentages: [{ to: { name: 'Band fund' }, basisPoints: 1000 }]
  }), [1, 2, 3])
  assert.equal(netCents, 215450)
  assert.deepEqual(shares, [
    { to: { name: 'Band fund' }, amountCents: 21545 },
    { to: { name: 'Sub Tom' }, amountCents: 25000 },
    { to: { userId: 1 }, amountCents: 56302 },
    { to: { userId: 2 }, amountCents: 56302 },
    { to: { userId: 3 }, amountCents: 56301 }
  ])
  assert.equal(unassignedCents, 0)
})

test('a loss is borne by the players; shares over 100 % or the net are refused', () => {
  const loss = distribute(10000, [16000], rules(), [1, 2])
  assert.deepEqual(loss.shares.map((s) => s.amountCents), [-3000, -3000])
  assert.throws(() => distribute(10000, [], rules({
    percentages: [
      { to: { name: 'A' }, basisPoints: 6000 },
      { to: { name: 'B' }, basisPoints: 5000 }
    ]
  }), [1]), MoneyRuleError)
  assert.throws(() => distribute(10000, [5000], rules({
    fixed: [{ to: { name: 'Van' }, amountCents: 6000 }]
  }), [1]), /exceed the net/)
  const nobody = distribute(10000, [], rules(), [])
  assert.deepEqual(nobody.shares, [])
  assert.equal(nobody.unassignedCents, 10000)
})

test('a party named twice gets one share of both amounts', () => {
  const { shares } = distribute(10000, [], rules({
    fixed: [{ to: { userId: 1 }, amountCents: 1000 }]
  }), [1, 2])
  assert.deepEqual(shares, [
    { to: { userId: 1 }, amountCents: 5500 },
    { to: { userId: 2 }, amountCents: 4500 }
  ])
})

const party = fc.oneof(
  fc.integer({ min: 1, max: 8 }).map((userId) => ({ userId })),
  fc.constantFrom('Band fund', 'Van', 'Sub').map((name) => ({ name }))
)

const gig = fc.record({
  fee: fc.integer({ min: 0, max: 10_000_000 }),
  expenses: fc.array(fc.integer({ min: 0, max: 2_000_000 }), { maxLength: 6 }),
  players: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 8 }),
  percentages: fc.array(fc.record({ to: party, basisPoints: fc.integer({ min: 0, max: 3000 }) }),
    { maxLength: 3 }),
  fixed: fc.array(fc.record({ to: party, amountCents: fc.integer({ min: 0, max: 100_000 }) }),
    { maxLength: 3 })
})

test('property: shares add up to the net, equal shares differ by at most a cent', () => {
  fc.assert(fc.property(gig, (g) => {
    let result
    try {
      result = distribute(g.fee, g.expenses, rules({ fixed: g.fixed, percentages: g.percentages }),
        g.players)
    } catch (error) {
      assert.ok(error instanceof MoneyRuleError)
      return
    }
    const net = g.fee - sum(g.expenses)
    assert.equal(result.netCents, net)
    assert.equal(sum(result.shares.map((s) => s.amountCents)) + result.unassignedCents, net)
    if (net >= 0) {
      assert.ok(result.shares.every((s) => s.amountCents >= 0), 'no negative share')
    }
    if (g.fixed.length === 0 && g.percentages.length === 0 && g.players.length > 0) {
      const amounts = result.shares.map((s) => s.amountCents)
      assert.ok(Math.max(...amounts) - Math.min(...amounts) <= 1, 'within a cent')
    }
  }), { numRuns: 500 })
})

test('property: percentages by largest remainder lose no cent and stay within one', () => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 10_000_000 }),
    fc.array(fc.integer({ min: 0, max: 2500 }), { maxLength: 4 }),
    (net, points) => {
      const parts = percentageParts(net, points)
      assert.equal(sum(parts), Math.floor(net * sum(points) / 10000))
      parts.forEach((part, i) => assert.ok(Math.abs(part - net * points[i]! / 10000) < 1))
    }), { numRuns: 500 })
})

test('property: the settling transfers bring every balance to zero, at most n − 1 of them', () => {
  fc.assert(fc.property(fc.array(fc.integer({ min: -100000, max: 100000 }), { maxLength: 9 }),
    (amounts) => {
      const balances = new Map<string, Balance>()
      amounts.forEach((amount, i) => credit(balances, { userId: i + 1 }, amount))
      // The balances of a closed system add up to zero: the last party takes the rest.
      credit(balances, { name: 'Band fund' }, -sum(amounts))
      const list = [...balances.values()]
      const transfers = settle(list)
      const after = new Map(list.map((b) => [JSON.stringify(b.party), b.amountCents]))
      for (const t of transfers) {
        assert.ok(t.amountCents > 0)
        after.set(JSON.stringify(t.from), after.get(JSON.stringify(t.from))! + t.amountCents)
        after.set(JSON.stringify(t.to), after.get(JSON.stringify(t.to))! - t.amountCents)
      }
      assert.ok([...after.values()].every((v) => v === 0))
      const nonZero = list.filter((b) => b.amountCents !== 0).length
      assert.ok(transfers.length <= Math.max(nonZero - 1, 0))
    }), { numRuns: 300 })
})
