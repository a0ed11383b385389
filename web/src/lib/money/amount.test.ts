import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { amountInput, formatMoney, parseAmount } from './amount'

describe('parseAmount', () => {
  it('reads English and German spellings as cents', () => {
    expect(parseAmount('12')).toBe(1200)
    expect(parseAmount('12.5')).toBe(1250)
    expect(parseAmount('12,50')).toBe(1250)
    expect(parseAmount('1.234,56')).toBe(123456)
    expect(parseAmount('1,234.56')).toBe(123456)
    expect(parseAmount("1'234.56")).toBe(123456)
    expect(parseAmount(' 1 234 ')).toBe(123400)
    expect(parseAmount('-5,01')).toBe(-501)
    expect(parseAmount('1.234')).toBe(123400)
  })
  it('refuses what is no amount', () => {
    for (const text of ['', 'abc', '12€', '1,2,3x', '.', '--1', '1e5']) {
      expect(parseAmount(text)).toBeNull()
    }
  })
  it('reads back what it writes, in both languages', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }),
      fc.constantFrom('en-GB', 'de-DE'), (cents, locale) => {
        expect(parseAmount(amountInput(cents, locale))).toBe(cents)
      }))
  })
})

describe('formatMoney', () => {
  it('shows cents in the currency and locale', () => {
    expect(formatMoney(123456, 'EUR', 'de-DE')).toMatch(/1\.234,56\s€/)
    expect(formatMoney(123456, 'GBP', 'en-GB')).toBe('£1,234.56')
  })
})
