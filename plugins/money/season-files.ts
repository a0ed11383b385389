import { createRequire } from 'node:module'
import type XLSX from 'xlsx'
import type { SeasonType } from '#schemas/money.js'
import { csvField } from '#src/documents/setlist-csv.js'

// xlsx (~35 MB once loaded) is loaded on the first export, as for the GEMA report.
const require = createRequire(import.meta.url)
let xlsxModule: typeof XLSX | undefined
const xlsx = (): typeof XLSX => (xlsxModule ??= require('xlsx') as typeof XLSX)

const LABELS = {
  en: {
    members: 'Members',
    gigs: 'Gigs',
    name: 'Name',
    shares: 'Shares',
    income: 'Paid out',
    open: 'Open',
    expenses: 'Expenses laid out',
    gig: 'Gig',
    date: 'Date',
    fee: 'Fee',
    gigExpenses: 'Expenses',
    net: 'Net',
    paid: 'Paid',
    yes: 'yes',
    no: 'no'
  },
  de: {
    members: 'Mitglieder',
    gigs: 'Auftritte',
    name: 'Name',
    shares: 'Anteile',
    income: 'Ausgezahlt',
    open: 'Offen',
    expenses: 'Ausgelegt',
    gig: 'Auftritt',
    date: 'Datum',
    fee: 'Gage',
    gigExpenses: 'Ausgaben',
    net: 'Netto',
    paid: 'Bezahlt',
    yes: 'ja',
    no: 'nein'
  }
}

const labelsFor = (locale: string) => locale.toLowerCase().startsWith('de') ? LABELS.de : LABELS.en

/** The members' and the gigs' rows, amounts in currency units (cents / 100). */
function tables (season: SeasonType, locale: string) {
  const l = labelsFor(locale)
  const units = (cents: number) => cents / 100
  const members = [
    [l.name, l.shares, l.income, l.open, l.expenses],
    ...season.members.map((m) => [m.name, units(m.sharesCents), units(m.incomeCents),
      units(m.openCents), units(m.expensesCents)])
  ]
  const gigs = [
    [l.date, l.gig, l.fee, l.gigExpenses, l.net, l.paid],
    ...season.gigs.map((g) => [g.date, g.name, units(g.feeCents), units(g.expensesCents),
      units(g.netCents), g.paid ? l.yes : l.no])
  ]
  return { l, members, gigs }
}

/** A workbook of two sheets; amounts are numbers shown in the band's currency, no formulas. */
export function seasonWorkbook (season: SeasonType, locale: string): Buffer {
  const X = xlsx()
  const { l, members, gigs } = tables(season, locale)
  const format = `#,##0.00 "${season.currency}"`
  const sheet = (rows: Array<Array<string | number>>, amountColumns: number[]) => {
    const ws = X.utils.aoa_to_sheet(rows)
    for (let r = 1; r < rows.length; r++) {
      for (const c of amountColumns) {
        const cell = ws[X.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined
        if (cell) cell.z = format
      }
    }
    return ws
  }
  const book = X.utils.book_new()
  X.utils.book_append_sheet(book, sheet(members, [1, 2, 3, 4]), l.members)
  X.utils.book_append_sheet(book, sheet(gigs, [2, 3, 4]), l.gigs)
  return X.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
}

/**
 * The members' figures as CSV the way the setlist's is written (a byte order mark, `;`, CRLF, the
 * formula guard); amounts with two decimals and the band language's decimal sign.
 */
export function seasonCsv (season: SeasonType, locale: string): string {
  const { members } = tables(season, locale)
  const comma = locale.toLowerCase().startsWith('de')
  const cell = (value: string | number) => typeof value === 'number'
    ? (comma ? value.toFixed(2).replace('.', ',') : value.toFixed(2))
    : csvField(value)
  return '\uFEFF' + members.map((row) => row.map(cell).join(';')).join('\r\n') + '\r\n'
}
