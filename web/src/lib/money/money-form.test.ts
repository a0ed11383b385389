import { describe, expect, it } from 'vitest'
import { moneyBody, moneyValues, ValueProblem, type GigMoney } from './money-form'

const stored: GigMoney = {
  gigId: 3,
  view: 'full',
  version: 2,
  totals: { feeCents: 150050, expensesCents: 3000, netCents: 147050, currency: 'EUR', paid: true },
  myShareCents: 0,
  fee: {
    amountCents: 150050,
    currency: 'EUR',
    paid: true,
    paidAt: '2026-06-21',
    receivedBy: { userId: 4 },
    invoiceNumber: 'R-1'
  },
  expenses: [{ paidBy: null, title: 'Fuel', amountCents: 3000, receiptFileId: 7 }],
  rules: {
    players: [4, 5],
    fixed: [{ to: { name: 'Sub' }, amountCents: 10000 }],
    percentages: [{ to: { name: 'Band fund' }, percent: 12.5 }]
  },
  distribution: [],
  unassignedCents: 0,
  updatedAt: null
}

describe('the money form', () => {
  it('gives back the stored body, in German and English spelling', () => {
    for (const locale of ['de-DE', 'en-GB']) {
      const values = moneyValues(stored, locale)
      expect(moneyBody(values, 2, 'EUR')).toEqual({
        version: 2,
        fee: stored.fee,
        expenses: stored.expenses,
        rules: stored.rules
      })
    }
    expect(moneyValues(stored, 'de-DE').fee).toBe('1500,50')
  })
  it('names the field of a value that is no amount', () => {
    const values = moneyValues(stored, 'en-GB')
    values.expenses[0]!.amount = '12 euro'
    expect(() => moneyBody(values, 2, 'EUR')).toThrow(ValueProblem)
    try {
      moneyBody(values, 2, 'EUR')
    } catch (error) {
      expect((error as ValueProblem).field).toBe('expenses.0.amountCents')
    }
    values.expenses[0]!.amount = '12'
    values.fixed[0]!.to = { pick: 'name', name: ' ' }
    expect(() => moneyBody(values, 2, 'EUR')).toThrow(/required/)
  })
  it('an empty form is no money: zero fee, the yes players', () => {
    const empty = moneyValues({ ...stored, fee: undefined, expenses: undefined, rules: undefined },
      'en-GB')
    expect(moneyBody(empty, 0, 'CHF')).toEqual({
      version: 0,
      fee: {
        amountCents: 0,
        currency: 'CHF',
        paid: false,
        paidAt: null,
        receivedBy: null,
        invoiceNumber: null
      },
      expenses: [],
      rules: { players: null, fixed: [], percentages: [] }
    })
  })
})
