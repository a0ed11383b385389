// The money form's values (text as typed) to and from the API's body: amounts are typed as text
// and become cents here; a party is picked as `u:<id>` (a member) or `name` (typed).
import type { Body, Ok } from '$lib/api/types'
import { amountInput, parseAmount } from '$lib/money/amount'

export type GigMoney = Ok<'/gigs/{id}/money', 'get'>
export type MoneyBody = Body<'/gigs/{id}/money', 'put'>
type ApiParty = { userId?: number, name?: string }

export interface PartyValue { pick: string, name: string }
export interface ExpenseValue {
  key: string
  title: string
  amount: string
  paidBy: string
  /** The receipt's file id ('' for none). */
  receipt: string
}
export interface FixedValue { key: string, to: PartyValue, amount: string }
export interface PercentValue { key: string, to: PartyValue, percent: string }

export interface MoneyValues {
  fee: string
  paid: boolean
  paidAt: string
  receivedBy: string
  invoiceNumber: string
  expenses: ExpenseValue[]
  playersChosen: boolean
  players: number[]
  fixed: FixedValue[]
  percentages: PercentValue[]
}

let counter = 0
export const newKey = () => `k${Date.now().toString(36)}${++counter}`

const partyValue = (party: ApiParty | null | undefined): PartyValue =>
  party?.userId !== undefined
    ? { pick: `u:${party.userId}`, name: '' }
    : { pick: 'name', name: party?.name ?? '' }
const memberPick = (party: ApiParty | null | undefined) =>
  party?.userId !== undefined ? `u:${party.userId}` : ''

export function moneyValues (money: GigMoney, locale: string): MoneyValues {
  const amount = (cents: number) => (cents === 0 ? '' : amountInput(cents, locale))
  return {
    fee: amount(money.fee?.amountCents ?? 0),
    paid: money.fee?.paid ?? false,
    paidAt: money.fee?.paidAt ?? '',
    receivedBy: memberPick(money.fee?.receivedBy),
    invoiceNumber: money.fee?.invoiceNumber ?? '',
    expenses: (money.expenses ?? []).map((e) => ({
      key: newKey(),
      title: e.title,
      amount: amount(e.amountCents),
      paidBy: memberPick(e.paidBy),
      receipt: e.receiptFileId ? String(e.receiptFileId) : ''
    })),
    playersChosen: money.rules?.players !== null && money.rules?.players !== undefined,
    players: money.rules?.players ?? [],
    fixed: (money.rules?.fixed ?? []).map((f) => ({
      key: newKey(), to: partyValue(f.to), amount: amount(f.amountCents)
    })),
    percentages: (money.rules?.percentages ?? []).map((p) => ({
      key: newKey(),
      to: partyValue(p.to),
      percent: locale.startsWith('de') ? String(p.percent).replace('.', ',') : String(p.percent)
    }))
  }
}

/** A picked party for the API, or null (nobody: the fee itself pays). */
export function apiParty (value: PartyValue | string): ApiParty | null {
  const pick = typeof value === 'string' ? value : value.pick
  if (pick.startsWith('u:')) return { userId: Number(pick.slice(2)) }
  if (typeof value !== 'string' && pick === 'name' && value.name.trim()) {
    return { name: value.name.trim() }
  }
  return null
}

export class ValueProblem extends Error {
  constructor (readonly field: string, readonly key: string) { super(key) }
}

const cents = (text: string, field: string, emptyIsZero = true): number => {
  if (emptyIsZero && text.trim() === '') return 0
  const value = parseAmount(text)
  if (value === null || value < 0) throw new ValueProblem(field, 'money.invalidAmount')
  return value
}

const percentOf = (text: string, field: string): number => {
  const value = Number(text.trim().replace(',', '.'))
  if (text.trim() === '' || !Number.isFinite(value)) {
    throw new ValueProblem(field, 'money.invalidAmount')
  }
  return value
}

/** The body to send; throws ValueProblem naming the field of a value that is no amount. */
export function moneyBody (values: MoneyValues, version: number, currency: string): MoneyBody {
  const to = (party: PartyValue, field: string) => {
    const api = apiParty(party)
    if (!api) throw new ValueProblem(field, 'errors.field.required')
    return api
  }
  return {
    version,
    fee: {
      amountCents: cents(values.fee, 'fee.amountCents'),
      currency,
      paid: values.paid,
      paidAt: values.paid && values.paidAt ? values.paidAt : null,
      receivedBy: apiParty(values.receivedBy),
      invoiceNumber: values.invoiceNumber.trim() || null
    },
    expenses: values.expenses.map((e, i) => ({
      title: e.title.trim(),
      amountCents: cents(e.amount, `expenses.${i}.amountCents`, false),
      paidBy: apiParty(e.paidBy),
      receiptFileId: e.receipt ? Number(e.receipt) : null
    })),
    rules: {
      players: values.playersChosen ? values.players : null,
      fixed: values.fixed.map((f, i) => ({
        to: to(f.to, `rules.fixed.${i}.to`),
        amountCents: cents(f.amount, `rules.fixed.${i}.amountCents`, false)
      })),
      percentages: values.percentages.map((p, i) => ({
        to: to(p.to, `rules.percentages.${i}.to`),
        percent: percentOf(p.percent, `rules.percentages.${i}.percent`)
      }))
    }
  }
}
