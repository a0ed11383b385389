import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js'
import { formatDateIn } from './format.js'
import { renderPdf } from './pdf.js'
import {
  documentLanguage, SONGBOOK_LABELS, type DocumentLanguage, type SongbookLabels
} from './labels.js'
import { canonicalKey, showKey } from '#shared/keys.js'
import type { DocumentContext } from './gig-document.js'
import type { GigChartType, SongChartType } from '#schemas/charts.js'
import type { ChordNotation } from '#shared/chords/chord.js'
import { parseChordPro, type ChartLine, type ChartSection } from '#shared/chords/chordpro.js'
import { transposeChart } from '#shared/chords/transpose.js'

/** The gig's charts in running order (GET /gigs/{id}/charts) and what the header names. */
export interface SongbookDocument {
  gig: { name: string; date: string }
  notation: ChordNotation
  charts: GigChartType[]
  /** Each song's chart once, however often the setlist plays it. */
  songs: SongChartType[]
}

const CHORD = '#0b4f9c'
const MUTED = '#555555'
const ACCENT = '#8a5a00'
const NBSP = '\u00a0'

// pdfmake drops spaces at the end of a column: inner ones become non-breaking, trailing ones a
// right margin of about a space's width each (Roboto at 12 pt).
const keepSpaces = (text: string) => text.replace(/ /g, NBSP)
const SPACE_PT = 3.2
const trailingSpaces = (text: string) => text.length - text.trimEnd().length

/**
 * One lyric line: each chord stacked over the text it belongs to, side by side (auto-width
 * columns), so a chord stands above its syllable however wide the letters are.
 */
function lyricLine (line: Extract<ChartLine, { kind: 'lyrics' }>): Content {
  const hasChords = line.pairs.some((p) => p.chord !== null)
  if (!hasChords) return { text: line.pairs.map((p) => p.text).join('') || NBSP, margin: [0, 1] }
  return {
    columns: line.pairs.map((pair) => ({
      width: 'auto',
      // A chord wider than its syllable keeps a gap to the next chord.
      margin: [0, 0, Math.max(trailingSpaces(pair.text) * SPACE_PT, pair.chord ? SPACE_PT : 0), 0],
      stack: [
        {
          text: pair.chord === null ? NBSP : pair.chord,
          color: CHORD,
          bold: !pair.annotation,
          italics: pair.annotation === true,
          fontSize: 10
        },
        { text: keepSpaces(pair.text.trimEnd()) || NBSP }
      ]
    })),
    columnGap: 0,
    margin: [0, 1]
  } as Content
}

function lineContent (line: ChartLine): Content {
  switch (line.kind) {
    case 'lyrics':
      return lyricLine(line)
    case 'comment':
      return { text: line.text, italics: line.italic === true, bold: !line.italic, color: MUTED }
    case 'tab':
      // Tabs need their columns: spaces kept, a narrower size.
      return { text: keepSpaces(line.text) || NBSP, fontSize: 9, preserveLeadingSpaces: true }
    case 'empty':
      return { text: NBSP, fontSize: 6 }
    case 'pagebreak':
      return { text: '', pageBreak: 'after' }
  }
}

const sectionLabel = (kind: ChartSection['kind'], labels: SongbookLabels): string | null => {
  switch (kind) {
    case 'chorus': return labels.chorus
    case 'bridge': return 'Bridge'
    case 'tab': return 'Tab'
    default: return null
  }
}

function sectionContent (section: ChartSection, labels: SongbookLabels): Content {
  const label = section.label ?? sectionLabel(section.kind, labels)
  const body: Content[] = [
    ...(label ? [{ text: label, bold: true, color: ACCENT, fontSize: 10 } as Content] : []),
    ...section.lines.map(lineContent)
  ]
  // A chorus is marked by a rule on its left, as in the stage view.
  if (section.kind !== 'chorus') return { stack: body, margin: [0, 0, 0, 6] }
  return {
    table: { widths: ['*'], body: [[{ stack: body, margin: [6, 0, 0, 0] }]] },
    layout: {
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? 2.5 : 0),
      vLineColor: () => ACCENT
    },
    margin: [0, 0, 0, 6]
  }
}

function songContent (
  entry: GigChartType,
  text: string | undefined,
  book: SongbookDocument,
  first: boolean,
  language: DocumentLanguage
): Content[] {
  const labels = SONGBOOK_LABELS[language]
  const key = showKey(entry.song.keyTransposed, language, 'long', 'ascii')
  const facts = [
    `${labels.song(entry.position)} · ${entry.setName} #${entry.positionInSet}`,
    key ? labels.key(key) : null,
    entry.transpose
      ? labels.transposed(`${entry.transpose > 0 ? '+' : ''}${entry.transpose}`)
      : null,
    entry.capo ? labels.capo(entry.capo) : null,
    entry.song.tempoBpm ? `${entry.song.tempoBpm} BPM` : null,
    entry.song.leadSinger ? labels.vocals(entry.song.leadSinger) : null
  ].filter(Boolean).join('  ·  ')
  const head: Content[] = [
    {
      text: entry.song.title,
      fontSize: 20,
      bold: true,
      ...(first ? {} : { pageBreak: 'before' as const })
    },
    ...(entry.song.artist ? [{ text: entry.song.artist, color: MUTED } as Content] : []),
    { text: facts, fontSize: 10, color: MUTED, margin: [0, 2, 0, 10] }
  ]
  if (!text) return [...head, { text: labels.noChart, italics: true }]
  const chart = transposeChart(
    parseChordPro(text),
    entry.transpose,
    book.notation,
    canonicalKey(entry.song.key)
  )
  return [...head, ...chart.sections.map((s) => sectionContent(s, labels))]
}

/** The songbook: every chart of the setlist in running order, each song on a new page. */
export async function renderSongbookPdf (book: SongbookDocument, ctx: DocumentContext):
Promise<Buffer> {
  const language = documentLanguage(ctx.locale)
  const labels = SONGBOOK_LABELS[language]
  const charts = new Map(book.songs.map((song) => [song.id, song.chart]))
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 50, 40, 40],
    info: { title: `Songbook ${book.gig.name}`, author: ctx.bandName },
    header: () => ({
      text: `${ctx.bandName} · ${book.gig.name} · ${formatDateIn(book.gig.date, language)}`,
      fontSize: 8,
      color: MUTED,
      margin: [40, 20, 40, 0]
    }),
    footer: (page: number, pages: number) => ({
      text: `Songbook · ${labels.page(page, pages)}`,
      fontSize: 8,
      color: MUTED,
      alignment: 'right',
      margin: [40, 10, 40, 0]
    }),
    content: book.charts.length
      ? book.charts.flatMap((entry, i) =>
        songContent(entry, charts.get(entry.song.id), book, i === 0, language))
      : [{ text: labels.empty }],
    defaultStyle: { fontSize: 12, lineHeight: 1.1 }
  }
  return renderPdf(definition)
}
