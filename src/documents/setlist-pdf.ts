import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js'
import { colourForName } from './palette.js'
import { entryLength, formatDateIn, formatLength, joinPresent } from './format.js'
import type { DocumentContext, DocumentEntry, GigDocument } from './gig-document.js'
import { addSecondsLocal, timeOf } from '#shared/local-time.js'
import { renderPdf } from './pdf.js'
import { documentLanguage, SETLIST_LABELS, type DocumentLanguage } from './labels.js'
import { playedKey, showKey } from '#shared/keys.js'
import type { SetlistStyle } from '#schemas/documents.js'

export type { SetlistStyle }

interface Theme {
  background: string
  text: string
  highlight: string
  muted: string
  rule: string
  titleSize: number
  detailSize: number
  headerSize: number
}

// Print: black on white, compact enough that 60 songs fit on two pages. Stage: black on white too
// (a printer makes a black page of a dark one), titles of 28 pt to be read from the floor, one set
// per page. Stage-dark: white and yellow on black for a screen or a tablet on stage (the page
// background is painted black).
const THEMES: Record<SetlistStyle, Theme> = {
  print: {
    background: '#ffffff',
    text: '#111111',
    highlight: '#000000',
    muted: '#555555',
    rule: '#bbbbbb',
    titleSize: 13,
    detailSize: 9,
    headerSize: 22
  },
  stage: {
    background: '#ffffff',
    text: '#000000',
    highlight: '#000000',
    muted: '#333333',
    rule: '#888888',
    titleSize: 28,
    detailSize: 12,
    headerSize: 32
  },
  'stage-dark': {
    background: '#000000',
    text: '#ffffff',
    highlight: '#ffd60a',
    muted: '#d0d0d0',
    rule: '#666666',
    titleSize: 28,
    detailSize: 12,
    headerSize: 32
  }
}
const isStage = (style: SetlistStyle) => style !== 'print'

const A4 = { width: 595.28, height: 841.89 }
// Roboto has no star glyph: ratings print as filled/empty circles.
const ratingMarks = (rating: number | null) =>
  rating ? '●'.repeat(rating) + '○'.repeat(3 - rating) : ''

function entryRow (
  entry: DocumentEntry,
  theme: Theme,
  live: boolean,
  language: DocumentLanguage
): TableCell[] {
  const labels = SETLIST_LABELS[language]
  const skipped = live && entry.status === 'skipped'
  const marks: Content[] = []
  if (live && entry.inserted) {
    marks.push({
      text: ` ${labels.inserted}`,
      color: theme.highlight,
      bold: true,
      fontSize: theme.detailSize
    })
  }
  if (skipped) {
    marks.push({
      text: ` ${labels.skipped}`,
      color: theme.muted,
      italics: true,
      fontSize: theme.detailSize
    })
  }
  const details = joinPresent([entry.song.artist, entry.notes], ' · ')
  const singer = entry.song.leadSinger?.trim()
  const faded = skipped ? theme.muted : theme.text
  return [
    {
      text: String(entry.number),
      color: theme.highlight,
      bold: true,
      fontSize: theme.titleSize - 2,
      alignment: 'right'
    },
    {
      text: entry.plannedStart,
      color: theme.muted,
      fontSize: theme.detailSize + 1,
      margin: [0, 2, 0, 0]
    },
    {
      // One line per song where the title allows: details follow the title in small type (fewer
      // pages).
      text: [
        {
          text: entry.song.title,
          fontSize: theme.titleSize,
          bold: true,
          color: faded,
          decoration: skipped ? 'lineThrough' : undefined
        },
        ...(marks as never[]),
        ...(live && entry.rating
          ? [
              {
                text: `  ${ratingMarks(entry.rating)}`,
                fontSize: theme.detailSize + 1,
                color: theme.highlight
              }
            ]
          : []),
        ...(details
          ? [{ text: `   ${details}`, fontSize: theme.detailSize, color: theme.muted }]
          : [])
      ]
    },
    {
      // Short in English (B♭ → "Bb", "Gm"), "B-Dur" in German; ASCII: Roboto has no ♭.
      // As played tonight: moved by the gig's transposition.
      text: showKey(playedKey(entry.song.key, entry.transpose ?? 0), language, 'short', 'ascii') ??
        '',
      noWrap: true,
      fontSize: theme.detailSize + 1,
      bold: true,
      color: faded,
      margin: [0, 2, 0, 0]
    },
    singer
      ? {
          text: singer,
          fontSize: theme.detailSize + 1,
          bold: true,
          color: colourForName(singer, theme.background),
          margin: [0, 2, 0, 0]
        }
      : { text: '' },
    {
      text: entryLength(entry),
      fontSize: theme.detailSize + 1,
      color: faded,
      alignment: 'right',
      margin: [0, 2, 0, 0]
    }
  ]
}

export function setlistDocDefinition (
  doc: GigDocument,
  ctx: DocumentContext,
  style: SetlistStyle = 'print'
): TDocumentDefinitions {
  const theme = THEMES[style]
  const language = documentLanguage(ctx.locale)
  const labels = SETLIST_LABELS[language]
  const date = formatDateIn(doc.gig.date, language)
  const { gig } = doc
  const live = doc.liveUsed
  const venue = joinPresent([gig.venueName, gig.venueCity])
  const content: Content[] = [
    { text: gig.name, fontSize: theme.headerSize, bold: true, color: theme.highlight },
    {
      text:
        doc.programme?.subtitle ??
        joinPresent(
          [
            date,
            venue,
            labels.start(gig.startTime ?? timeOf(doc.startAt), gig.startTime === null)
          ],
          '  ·  '
        ),
      fontSize: theme.detailSize + 3,
      color: theme.text,
      margin: [0, 2, 0, 10]
    }
  ]
  if (live) {
    content.push({
      text: labels.legend,
      fontSize: theme.detailSize,
      color: theme.muted,
      margin: [0, 0, 0, 8]
    })
  }
  if (doc.sets.length === 0) {
    content.push({
      text: labels.empty,
      fontSize: theme.titleSize,
      color: theme.text,
      margin: [0, 20, 0, 0]
    })
  }
  for (const [index, set] of doc.sets.entries()) {
    // On stage every set starts a page: the floor list of set 2 is the page turned at the break.
    const newPage = isStage(style) && index > 0
    const heading: TableCell[] = [
      {
        text: [
          { text: set.name, bold: true, color: theme.highlight },
          {
            text:
              `   ${set.start}–${set.end} · ${formatLength(set.durationSeconds)} · ` +
              labels.songs(set.entries.length),
            color: theme.muted,
            fontSize: theme.detailSize + 2
          }
        ],
        fontSize: theme.titleSize + 2,
        colSpan: 6,
        margin: [0, 4, 0, 4]
      },
      {},
      {},
      {},
      {},
      {}
    ]
    content.push({
      pageBreak: newPage ? 'before' : undefined,
      table: {
        headerRows: 1,
        keepWithHeaderRows: 1,
        dontBreakRows: true,
        widths: isStage(style) ? [36, 40, '*', 62, 64, 40] : [22, 34, '*', 50, 60, 40],
        body: [heading, ...set.entries.map((e) => entryRow(e, theme, live, language))]
      },
      layout: {
        hLineWidth: (i) => (i === 1 ? 1.2 : i === 0 ? 0 : 0.4),
        vLineWidth: () => 0,
        hLineColor: () => theme.rule,
        paddingTop: () => (isStage(style) ? 4 : 2.5),
        paddingBottom: () => (isStage(style) ? 4 : 2.5),
        paddingLeft: () => 3,
        paddingRight: () => 3
      },
      margin: [0, 0, 0, 4]
    })
    if (set.entries.length === 0) {
      content.push({
        text: labels.emptySet,
        color: theme.muted,
        fontSize: theme.detailSize + 1,
        margin: [28, 0, 0, 4]
      })
    }
    if (!set.isLast) {
      const breakEnd = timeOf(addSecondsLocal(set.endAt, set.breakAfterSeconds))
      content.push({
        text: labels.pause(formatLength(set.breakAfterSeconds), set.end, breakEnd),
        fontSize: theme.detailSize + 3,
        bold: true,
        color: theme.muted,
        alignment: 'center',
        margin: [0, 2, 0, 10]
      })
    }
  }
  if (doc.sets.length > 0) {
    const songs = doc.sets.reduce((n, s) => n + s.entries.length, 0)
    content.push({
      text: labels.total(
        formatLength(doc.totalSeconds),
        timeOf(doc.startAt),
        timeOf(doc.endAt),
        songs,
        doc.sets.length
      ),
      fontSize: theme.detailSize + 3,
      bold: true,
      color: theme.text,
      margin: [0, 8, 0, 0]
    })
  }
  return {
    pageSize: 'A4',
    pageOrientation: 'portrait',
    pageMargins: [32, 30, 32, 36],
    info: {
      title: `Setlist – ${gig.name}${doc.programme ? '' : ` – ${date}`}`,
      author: ctx.bandName,
      creator: 'Bandstand',
      subject: 'Setlist'
    },
    background:
      style === 'stage-dark'
        ? () => ({
            canvas: [
              { type: 'rect', x: 0, y: 0, w: A4.width, h: A4.height, color: theme.background }
            ]
          })
        : undefined,
    footer: (currentPage, pageCount) => ({
      columns: [
        {
          text: joinPresent(
            [ctx.bandName, gig.name, doc.programme ? null : date],
            ' · '
          ),
          color: theme.muted,
          fontSize: 8
        },
        {
          text: labels.page(currentPage, pageCount),
          alignment: 'right',
          color: theme.muted,
          fontSize: 9,
          bold: true
        }
      ],
      margin: [32, 12, 32, 0]
    }),
    defaultStyle: { color: theme.text, fontSize: 10 },
    content
  }
}

export const renderSetlistPdf = (
  doc: GigDocument,
  ctx: DocumentContext,
  style: SetlistStyle = 'print'
) => renderPdf(setlistDocDefinition(doc, ctx, style))
