import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js'
import { formatDateIn } from './format.js'
import { renderPdf } from './pdf.js'
import { lyricRows, PRINT_SIZES, type PrintSize } from './songbook-lines.js'
import type { SongbookPrint } from '#schemas/documents.js'
import {
  documentLanguage, SONGBOOK_LABELS, type DocumentLanguage, type SongbookLabels
} from './labels.js'
import { canonicalKey, playedKey, showKey } from '#shared/keys.js'
import type { DocumentContext } from './gig-document.js'
import type { GigChartType, SongChartType } from '#schemas/charts.js'
import { chartNotations, type ChordNotation } from '#shared/chords/chord.js'
import { parseChordPro, type ChartLine, type ChartSection } from '#shared/chords/chordpro.js'
import { transposeChart } from '#shared/chords/transpose.js'

/** The gig's charts in running order (GET /gigs/{id}/charts) and what the header names. */
export interface SongbookDocument {
  gig: { name: string; date: string }
  notation: ChordNotation
  charts: GigChartType[]
  /** `large`: lyrics of 17 pt and chords of 15 pt, for a music stand. */
  print?: SongbookPrint
  /** Each song's chart once, however often the setlist plays it. */
  songs: SongChartType[]
}

const MUTED = '#555555'
const ACCENT = '#8a5a00'
const NBSP = '\u00a0'
/** A4 less the page margins: the width a line may take. */
const PAGE_TEXT_WIDTH = 595.28 - 80
/** A chorus stands right of its rule. */
const CHORUS_INSET = 24

/** The rows one chart line prints as (a long lyric line wraps into several). */
function lineRows (
  line: Exclude<ChartLine, { kind: 'pagebreak' }>,
  size: PrintSize,
  available: number
): Content[] {
  switch (line.kind) {
    case 'lyrics':
      return lyricRows(line, size, available)
    case 'comment':
      return [{ text: line.text, italics: line.italic === true, bold: !line.italic, color: MUTED }]
    case 'tab':
      // Tabs need their columns: spaces kept, a narrower size.
      return [{
        text: line.text.replace(/ /g, NBSP) || NBSP, fontSize: size.tab, preserveLeadingSpaces: true
      }]
    case 'empty':
      return [{ text: NBSP, fontSize: size.lyrics / 2 }]
    case 'delegate':
      // Music for another program (ABC, LilyPond, SVG): the songbook prints the song without it.
      return []
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

/** Rows kept on one page: a section starts with two of its lines and ends with two. */
const KEEP = 2

/**
 * A section in pieces pdfmake never splits: its label with its first lines, its last lines
 * together, the rest line by line; so a section never starts at the foot of a page nor leaves one
 * line over. A short one is one piece.
 */
function sectionPieces (rows: Content[], label: Content | null): Content[][] {
  const head = label ? 1 + KEEP : KEEP
  const all = label ? [label, ...rows] : rows
  if (all.length <= head + KEEP + 1) return [all]
  return [
    all.slice(0, head),
    ...all.slice(head, all.length - KEEP).map((row) => [row]),
    all.slice(all.length - KEEP)
  ]
}

/** Rows pdfmake keeps on one page; a chorus's with its part of the rule on the left. */
const keptTogether = (rows: Content[], chorus: boolean): Content =>
  chorus
    ? {
        table: { widths: ['*'], body: [[{ stack: rows, margin: [6, 0, 0, 0] }]] },
        layout: {
          hLineWidth: () => 0,
          vLineWidth: (i: number) => (i === 0 ? 2.5 : 0),
          vLineColor: () => ACCENT,
          paddingTop: () => 0,
          paddingBottom: () => 0
        },
        unbreakable: true
      }
    : { stack: rows, unbreakable: true }

function sectionContent (section: ChartSection, labels: SongbookLabels, size: PrintSize):
Content[] {
  const chorus = section.kind === 'chorus'
  const available = PAGE_TEXT_WIDTH - (chorus ? CHORUS_INSET : 0)
  const text = section.label ?? sectionLabel(section.kind, labels)
  const label = text ? { text, bold: true, color: ACCENT, fontSize: size.facts } : null
  // A page break ({new_page}) ends a run of rows; the pieces are kept together within a run.
  const runs: Content[][] = [[]]
  for (const line of section.lines) {
    if (line.kind === 'pagebreak') runs.push([])
    else runs.at(-1)!.push(...lineRows(line, size, available))
  }
  const content = runs.flatMap((rows, i): Content[] => [
    ...(i > 0 ? [{ text: '', pageBreak: 'after' } as Content] : []),
    ...sectionPieces(rows, i === 0 ? label : null).map((piece) => keptTogether(piece, chorus))
  ])
  return [...content, { text: '', margin: [0, 0, 0, 6] }]
}

/**
 * "Key E major"; with a capo the key heard and the shapes played ("Sounds in A · Capo 2 · G
 * shapes"), as the stage view says it.
 */
function keyFacts (entry: GigChartType, language: DocumentLanguage): string | null {
  const labels = SONGBOOK_LABELS[language]
  const sounds = entry.song.keyTransposed
  if (!entry.capo) return sounds ? labels.key(showKey(sounds, language, 'long', 'ascii')!) : null
  const shapes = canonicalKey(sounds) && playedKey(sounds, -entry.capo)
  if (!shapes) {
    return [showKey(sounds, language, 'short', 'ascii'), labels.capo(entry.capo)]
      .filter(Boolean).join(' · ')
  }
  return labels.soundsCapo(showKey(sounds, language, 'short', 'ascii')!, entry.capo,
    showKey(shapes, language, 'short', 'ascii')!)
}

function songContent (
  entry: GigChartType,
  text: string | undefined,
  book: SongbookDocument,
  first: boolean,
  language: DocumentLanguage
): Content[] {
  const labels = SONGBOOK_LABELS[language]
  const size = PRINT_SIZES[book.print ?? 'normal']
  const facts = [
    `${labels.song(entry.position)} · ${entry.setName} #${entry.positionInSet}`,
    keyFacts(entry, language),
    entry.transpose
      ? labels.transposed(`${entry.transpose > 0 ? '+' : ''}${entry.transpose}`)
      : null,
    entry.song.tempoBpm ? `${entry.song.tempoBpm} BPM` : null,
    entry.song.leadSinger ? labels.vocals(entry.song.leadSinger) : null
  ].filter(Boolean).join('  ·  ')
  const head: Content[] = [
    {
      text: entry.song.title,
      fontSize: size.title,
      bold: true,
      ...(first ? {} : { pageBreak: 'before' as const })
    },
    ...(entry.song.artist ? [{ text: entry.song.artist, color: MUTED } as Content] : []),
    { text: facts, fontSize: size.facts, color: MUTED, margin: [0, 2, 0, 10] }
  ]
  if (!text) return [...head, { text: labels.noChart, italics: true }]
  const notations = chartNotations(text, book.notation)
  const chart = transposeChart(
    parseChordPro(text, { notation: notations.read }),
    entry.transpose,
    notations,
    canonicalKey(entry.song.key)
  )
  return [...head, ...chart.sections.flatMap((s) => sectionContent(s, labels, size))]
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
    defaultStyle: { fontSize: PRINT_SIZES[book.print ?? 'normal'].lyrics, lineHeight: 1.1 }
  }
  return renderPdf(definition)
}
