import { Readable } from 'node:stream'
import { setImmediate as yieldTurn } from 'node:timers/promises'
import type { GigDocument } from './gig-document.js'
import { SETLIST_CSV_LABELS, type DocumentLanguage } from './labels.js'
import { showKey } from '#shared/keys.js'

// A setlist as CSV for spreadsheets: UTF-8 with a byte order mark (without it Excel reads the file
// as Windows-1252 and breaks every umlaut; LibreOffice accepts either), `;` as separator (what
// Excel expects in German locales, and LibreOffice asks), CRLF line ends (RFC 4180), a header row.
// No `sep=;` line: Excel ignores the BOM when one is present, and other programs show it as data.

const BOM = '\uFEFF'

/** A gig entry's chart columns (GET /gigs/{id}/charts), by entry id. */
export interface EntryChart {
  transpose: number
  capo: number | null
  chart: string | null
}

/**
 * One field: a value a spreadsheet would take as a formula gets a leading apostrophe (OWASP's
 * advice against CSV injection); fields with `;`, quotes or line breaks are quoted.
 */
export function csvField (value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** `0:03:45`: always with hours, so spreadsheets read a duration, not a time of day `3:45`. */
const hms = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds))
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`
}

/**
 * The setlist's lines (a byte order mark and the header first, each line with its CRLF); with
 * `charts` (a gig's), each entry's transposition, capo and ChordPro chart in the last columns (a
 * chart's line breaks stay inside its quoted field). Line by line, so that a long one can be sent
 * as it is made (streamSetlistCsv).
 */
export function * setlistCsvLines (
  doc: GigDocument,
  charts = new Map<number, EntryChart>(),
  language: DocumentLanguage = 'de'
): Generator<string> {
  const labels = SETLIST_CSV_LABELS[language]
  const line = (row: string[]) => `${row.map(csvField).join(';')}\r\n`
  yield BOM + line([...labels.header])
  for (const set of doc.sets) {
    for (const entry of set.entries) {
      yield line([
        set.name,
        String(entry.number),
        entry.plannedStart,
        entry.song.title,
        entry.song.artist ?? '',
        // As the band reads a key ("B-Dur" / "B♭"): a bare "B" would mean two keys.
        showKey(entry.song.key, language, 'short') ?? '',
        entry.song.leadSinger ?? '',
        hms(entry.seconds),
        entry.notes ?? '',
        labels.status[entry.status] ?? entry.status,
        entry.inserted ? labels.yes : '',
        entry.rating === null ? '' : String(entry.rating),
        charts.get(entry.id)?.transpose.toString() ?? '',
        charts.get(entry.id)?.capo?.toString() ?? '',
        charts.get(entry.id)?.chart ?? ''
      ])
    }
  }
}

/** The setlist CSV in one piece. */
export const renderSetlistCsv = (...args: Parameters<typeof setlistCsvLines>): Buffer =>
  Buffer.from([...setlistCsvLines(...args)].join(''), 'utf8')

/** Bytes of CSV made between two turns of the event loop. */
const CHUNK_BYTES = 256 * 1024

/**
 * The CSV as a stream that gives the event loop a turn after every CHUNK_BYTES made: a setlist
 * with megabytes of charts never holds up other requests while it is written.
 */
export function streamSetlistCsv (...args: Parameters<typeof setlistCsvLines>): Readable {
  const lines = setlistCsvLines(...args)
  return Readable.from((async function * () {
    let pending: string[] = []
    let size = 0
    for (const text of lines) {
      pending.push(text)
      size += text.length
      if (size < CHUNK_BYTES) continue
      yield Buffer.from(pending.join(''), 'utf8')
      pending = []
      size = 0
      await yieldTurn()
    }
    if (pending.length) yield Buffer.from(pending.join(''), 'utf8')
  })(), { objectMode: false })
}
