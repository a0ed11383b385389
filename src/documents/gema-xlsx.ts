import { createRequire } from 'node:module'
import type XLSX from 'xlsx'
import { formatDuration, joinPresent } from './format.js'
import { performedEntries, type DocumentContext, type GigDocument } from './gig-document.js'
import { timeOf } from '#shared/local-time.js'

// The GEMA music report as a workbook laid out like GEMA's title upload template (v1.2): a title,
// the event data as label/value rows, an empty row, the 15 column headings, then one row per
// performed work. It is German for every band, whatever its language: GEMA is the German
// collecting society and its template's headings are German.

export const GEMA_COLUMNS = [
  'Werknummer',
  'Titel',
  'Satzangabe/sonstige Titel',
  'Anzahl Musiker/Sänger',
  'Spieldauer',
  'Interpret/Komponist Nachname',
  'Interpret/Komponist Vorname',
  'Textdichter Nachname',
  'Textdichter Vorname',
  'Bearbeiter Nachname',
  'Bearbeiter Vorname',
  'Verlag',
  'Live/Tonträger',
  'veröffentlichtes Werk',
  'Potpourri/Fragment'
] as const

// xlsx (~35 MB once loaded) is loaded on the first export: most servers and workers never need it.
const require = createRequire(import.meta.url)
let xlsxModule: typeof XLSX | undefined
const xlsx = (): typeof XLSX => (xlsxModule ??= require('xlsx') as typeof XLSX)

const COLUMN_WIDTHS = [14, 40, 24, 12, 11, 30, 24, 26, 22, 22, 20, 28, 14, 14, 16]

/** `Lastname, Firstname` as stored; without a comma the last word is the surname. */
export function splitPersonName (name: string): { last: string; first: string } {
  const trimmed = name.trim()
  const comma = trimmed.indexOf(',')
  if (comma >= 0) {
    return { last: trimmed.slice(0, comma).trim(), first: trimmed.slice(comma + 1).trim() }
  }
  const space = trimmed.lastIndexOf(' ')
  return space < 0
    ? { last: trimmed, first: '' }
    : { last: trimmed.slice(space + 1), first: trimmed.slice(0, space).trim() }
}

/**
 * Several people share one cell pair, joined in the same order in both cells (`Lennon /
 * McCartney`).
 */
function people (names: string[]): [string, string] {
  const split = names.filter((n) => n.trim()).map(splitPersonName)
  return [split.map((p) => p.last).join(' / '), split.map((p) => p.first).join(' / ')]
}

export function gemaRows (doc: GigDocument): Array<Array<string | number>> {
  // A free-text entry (a speech, the first dance, a medley intro) is no work: never reported.
  return performedEntries(doc).filter((entry) => entry.songId !== null).map((entry) => {
    const song = entry.song
    // Without composer data the performing artist is what the band knows (the column is
    // "Interpret/Komponist").
    const [composerLast, composerFirst] =
      song.composers.length > 0 ? people(song.composers) : people(song.artist ? [song.artist] : [])
    const [lyricistLast, lyricistFirst] = people(song.lyricists)
    const [arrangerLast, arrangerFirst] = people(song.arrangers)
    return [
      song.gemaWorkNumber ?? '',
      song.title,
      '',
      doc.musicianCount,
      formatDuration(entry.seconds),
      composerLast,
      composerFirst,
      lyricistLast,
      lyricistFirst,
      arrangerLast,
      arrangerFirst,
      song.publisher ?? '',
      'Live',
      song.isOriginal && !song.publisher ? 'nein' : 'ja',
      ''
    ]
  })
}

/**
 * Every text is written as an explicit string cell (type `s`, never a formula), so a title such as
 * `=HYPERLINK(...)` or `+49 …` is shown as typed and no spreadsheet evaluates it.
 */
function setCell (
  sheet: XLSX.WorkSheet,
  row: number,
  column: number,
  value: string | number
): void {
  const address = xlsx().utils.encode_cell({ r: row, c: column })
  sheet[address] = typeof value === 'number' ? { t: 'n', v: value } : { t: 's', v: value }
}

export function gemaWorkbook (doc: GigDocument, ctx: DocumentContext): XLSX.WorkBook {
  const { gig } = doc
  const sheet: XLSX.WorkSheet = {}
  const [y, m, d] = gig.date.split('-')
  const header: Array<[string, string]> = [
    ['Veranstaltung', gig.name],
    ['Band / Interpret', ctx.bandName],
    ['Datum', `${d}.${m}.${y}`],
    ['Veranstaltungsort', gig.venueName ?? ''],
    ['Adresse', joinPresent([gig.venueAddress, gig.venueCity])],
    ['Veranstalter', joinPresent([gig.organizerName, gig.organizerContact])],
    ['Beginn', gig.startTime ?? timeOf(doc.startAt)],
    ['Ende', gig.endTime ?? timeOf(doc.endAt)]
  ]
  setCell(sheet, 0, 0, 'GEMA Musikfolge – Titelliste')
  setCell(sheet, 1, 0, 'Vorlage: GEMA Titel-Upload v1.2')
  header.forEach(([label, value], i) => {
    setCell(sheet, 3 + i, 0, label)
    setCell(sheet, 3 + i, 1, value)
  })
  const headingRow = 3 + header.length + 1
  GEMA_COLUMNS.forEach((title, c) => setCell(sheet, headingRow, c, title))
  const rows = gemaRows(doc)
  rows.forEach((values, r) =>
    values.forEach((value, c) => setCell(sheet, headingRow + 1 + r, c, value))
  )
  sheet['!ref'] = xlsx().utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: headingRow + Math.max(rows.length, 0), c: GEMA_COLUMNS.length - 1 }
  })
  sheet['!cols'] = COLUMN_WIDTHS.map((wch) => ({ wch }))
  const workbook = xlsx().utils.book_new()
  xlsx().utils.book_append_sheet(workbook, sheet, 'Titelliste')
  workbook.Props = {
    Title: `GEMA Musikfolge ${gig.name} ${gig.date}`,
    Author: ctx.bandName,
    CreatedDate: ctx.generatedAt
  }
  return workbook
}

export function renderGemaXlsx (doc: GigDocument, ctx: DocumentContext): Buffer {
  return xlsx().write(gemaWorkbook(doc, ctx), {
    type: 'buffer',
    bookType: 'xlsx',
    compression: true
  }) as Buffer
}
