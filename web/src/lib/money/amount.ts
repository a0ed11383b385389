// Amounts typed by a person ("1.234,50", "1234.5", "12") as integer cents, and cents shown in the
// band's currency. The API counts in cents only: no float ever reaches it.

/**
 * Cents from a typed amount, or null when it is no amount. The last `,` or `.` followed by one or
 * two digits is the decimal sign; other separators group thousands.
 */
export function parseAmount (text: string): number | null {
  const trimmed = text.trim().replace(/\s/g, '')
  if (!/^-?[\d.,']+$/.test(trimmed)) return null
  const negative = trimmed.startsWith('-')
  const body = negative ? trimmed.slice(1) : trimmed
  const decimal = /[.,](\d{1,2})$/.exec(body)
  const whole = (decimal ? body.slice(0, decimal.index) : body).replace(/[.,']/g, '')
  if (!/^\d+$/.test(whole)) return null
  const cents = Number(whole) * 100 + (decimal ? Number(decimal[1]!.padEnd(2, '0')) : 0)
  if (!Number.isSafeInteger(cents)) return null
  return negative ? -cents : cents
}

/** Cents for an input field: "1234.50" in English, "1234,50" in German (no grouping). */
export function amountInput (cents: number, locale: string): string {
  const text = (cents / 100).toFixed(2)
  return locale.toLowerCase().startsWith('de') ? text.replace('.', ',') : text
}

/** Cents as money in the band's currency, in the reader's locale ("€1,234.50", "1.234,50 €"). */
export function formatMoney (cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100)
}
