import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js'
import { paletteForAccent, type DocumentPalette } from './palette.js'
import { formatDateIn, formatLength, formatLocalDateTimeIn, joinPresent } from './format.js'
import type { DocumentContext, GigDocument } from './gig-document.js'
import { addSecondsLocal, minutesOf, timeOf, utcToZoned } from '#shared/local-time.js'
import { renderPdf } from './pdf.js'
import {
  RUNNING_ORDER_LABELS,
  SCHEDULE_LABELS,
  STATUS_LABELS,
  documentLanguage,
  type DocumentLanguage,
  type RunningOrderLabels
} from './labels.js'

export interface RunningOrderRow {
  /** Local `YYYY-MM-DDTHH:MM`. */
  at: string
  until?: string
  title: string
  who: string | null
  where: string | null
  notes: string | null
  kind: 'item' | 'gig' | 'set' | 'break'
}

const localAt = (date: string, time: string) => `${date}T${time}`

/**
 * The day's running order: the schedule items, the gig's own times (get-in, soundcheck, doors,
 * start, end) and the computed set blocks with their breaks, merged in time order. At equal times
 * the schedule items come first (they are what the band wrote down), then gig times, then sets.
 */
export function runningOrder (
  doc: GigDocument,
  labels: RunningOrderLabels = RUNNING_ORDER_LABELS.de
): RunningOrderRow[] {
  const { gig } = doc
  const rows: RunningOrderRow[] = doc.schedule.map((item) => ({
    at: item.at,
    title: item.title,
    who: item.who,
    where: item.where,
    notes: item.notes,
    kind: 'item'
  }))
  const gigTimes: Array<[string | null, string]> = [
    [gig.getInTime, labels.getIn],
    [gig.soundcheckTime, labels.soundcheck],
    [gig.doorsTime, labels.doors],
    [gig.startTime, labels.start]
  ]
  for (const [time, title] of gigTimes) {
    if (time) {
      rows.push({
        at: localAt(gig.date, time),
        title,
        who: null,
        where: gig.venueName,
        notes: null,
        kind: 'gig'
      })
    }
  }
  if (gig.endTime) {
    // An end before the start is the next day (contract).
    const nextDay = gig.startTime !== null && minutesOf(gig.endTime) <= minutesOf(gig.startTime)
    const at = nextDay
      ? addSecondsLocal(localAt(gig.date, gig.endTime), 86_400)
      : localAt(gig.date, gig.endTime)
    rows.push({ at, title: labels.end, who: null, where: gig.venueName, notes: null, kind: 'gig' })
  }
  for (const set of doc.sets) {
    rows.push({
      at: set.startAt,
      until: set.endAt,
      title: labels.set(set.name, set.entries.length, formatLength(set.durationSeconds)),
      who: labels.band,
      where: null,
      notes: null,
      kind: 'set'
    })
    if (!set.isLast && set.breakAfterSeconds > 0) {
      rows.push({
        at: set.endAt,
        until: addSecondsLocal(set.endAt, set.breakAfterSeconds),
        title: labels.pause(formatLength(set.breakAfterSeconds)),
        who: null,
        where: null,
        notes: null,
        kind: 'break'
      })
    }
  }
  const rank = { item: 0, gig: 1, set: 2, break: 3 }
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        a.row.at.localeCompare(b.row.at) || rank[a.row.kind] - rank[b.row.kind] || a.index - b.index
    )
    .map((r) => r.row)
}

const cell = (text: string | null | undefined, extra: Record<string, unknown> = {}): TableCell => ({
  text: text ?? '',
  ...extra
})

function masterData (doc: GigDocument, palette: DocumentPalette, language: DocumentLanguage):
Content {
  const { gig } = doc
  const label = SCHEDULE_LABELS[language].fields
  const rows: Array<[string, string | null]> = [
    [label.date, formatDateIn(gig.date, language)],
    // The kind is the band's own text ("Hochzeit", "Festival"): printed as written.
    [label.kind, gig.kind],
    [label.status, STATUS_LABELS[language][gig.status] ?? gig.status],
    [label.organizer, gig.organizerName],
    [label.contact, gig.organizerContact],
    // Only when the band asked for it (?fee=true): the sheet usually goes to the organiser.
    ...(doc.fee ? [[label.fee, doc.fee] as [string, string]] : []),
    [label.venue, gig.venueName],
    [label.address, joinPresent([gig.venueAddress, gig.venueCity])],
    [label.getIn, gig.getInTime],
    [label.soundcheck, gig.soundcheckTime],
    [label.doors, gig.doorsTime],
    [label.start, gig.startTime],
    [label.end, gig.endTime],
    [label.notes, gig.notes]
  ]
  return {
    table: {
      widths: [90, '*'],
      body: rows.map(([label, value]) => [
        cell(label, { bold: true, color: palette.textOnTint, fillColor: palette.tint }),
        cell(value?.trim() ? value : '–', { color: palette.text })
      ])
    },
    layout: {
      hLineColor: () => palette.tint,
      vLineColor: () => palette.tint,
      hLineWidth: () => 0.6,
      vLineWidth: () => 0.6,
      paddingTop: () => 3,
      paddingBottom: () => 3
    },
    margin: [0, 0, 0, 14]
  }
}

function runningOrderTable (
  doc: GigDocument,
  palette: DocumentPalette,
  labels: RunningOrderLabels
): Content {
  const rows = runningOrder(doc, labels)
  if (rows.length === 0) {
    return { text: labels.empty, color: palette.mutedText, italics: true }
  }
  const head = labels.head.map((h) =>
    cell(h, { bold: true, color: palette.onAccent, fillColor: palette.accent })
  )
  const body = rows.map((row, index) => {
    const fill = index % 2 === 1 ? palette.tint : undefined
    const colour = fill ? palette.textOnTint : palette.text
    const nextDay = row.at.slice(0, 10) !== doc.gig.date
    const until = row.until ? `–${timeOf(row.until)}` : ''
    const time = `${timeOf(row.at)}${until}${nextDay ? ' (+1)' : ''}`
    const strong = row.kind !== 'item'
    return [
      cell(time, { color: colour, fillColor: fill, bold: true, noWrap: true }),
      cell(row.title, {
        color: strong ? (fill ? palette.textOnTint : palette.accentText) : colour,
        bold: strong,
        fillColor: fill
      }),
      cell(row.who, { color: colour, fillColor: fill }),
      cell(row.where, { color: colour, fillColor: fill }),
      cell(row.notes, { color: colour, fillColor: fill, fontSize: 9 })
    ]
  })
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [70, '*', 70, 80, 120],
      body: [head, ...body]
    },
    layout: {
      hLineWidth: () => 0,
      vLineWidth: () => 0,
      paddingTop: () => 4,
      paddingBottom: () => 4
    }
  }
}

export function scheduleDocDefinition (
  doc: GigDocument,
  ctx: DocumentContext
): TDocumentDefinitions {
  const palette = paletteForAccent(ctx.logo?.accent)
  const language = documentLanguage(ctx.locale)
  const labels = SCHEDULE_LABELS[language]
  const date = formatDateIn(doc.gig.date, language)
  const { gig } = doc
  const watermark = ctx.logo?.watermark
    ? `data:image/png;base64,${ctx.logo.watermark.toString('base64')}`
    : null
  const generated = formatLocalDateTimeIn(utcToZoned(ctx.generatedAt, ctx.timezone), language)
  return {
    pageSize: 'A4',
    pageOrientation: 'portrait',
    pageMargins: [36, 36, 36, 44],
    info: {
      title: `${labels.title} – ${gig.name} – ${date}`,
      author: ctx.bandName,
      creator: 'Bandstand',
      subject: labels.title
    },
    ...(watermark ? { images: { logo: watermark } } : {}),
    // The logo, faint and centred, behind every page.
    background: watermark
      ? () => ({
          image: 'logo',
          fit: [360, 360],
          opacity: 0.07,
          absolutePosition: { x: (595.28 - 360) / 2, y: (841.89 - 360) / 2 }
        })
      : undefined,
    footer: (currentPage, pageCount) => ({
      columns: [
        {
          text: labels.generated(generated, ctx.timezone, ctx.bandName),
          fontSize: 8,
          color: palette.mutedText
        },
        {
          text: labels.page(currentPage, pageCount),
          fontSize: 8,
          alignment: 'right',
          color: palette.mutedText
        }
      ],
      margin: [36, 16, 36, 0]
    }),
    defaultStyle: { fontSize: 10, color: palette.text },
    content: [
      {
        table: {
          widths: ['*'],
          body: [
            [
              {
                stack: [
                  { text: labels.title, fontSize: 10, color: palette.onAccent },
                  { text: gig.name, fontSize: 20, bold: true, color: palette.onAccent },
                  {
                    text: joinPresent([ctx.bandName, date, gig.venueName]),
                    fontSize: 11,
                    color: palette.onAccent
                  }
                ],
                fillColor: palette.accent,
                margin: [8, 6, 8, 8]
              }
            ]
          ]
        },
        layout: 'noBorders',
        margin: [0, 0, 0, 14]
      },
      {
        text: labels.details,
        fontSize: 13,
        bold: true,
        color: palette.accentText,
        margin: [0, 0, 0, 4]
      },
      masterData(doc, palette, language),
      {
        text: labels.runningOrder,
        fontSize: 13,
        bold: true,
        color: palette.accentText,
        margin: [0, 0, 0, 4]
      },
      runningOrderTable(doc, palette, RUNNING_ORDER_LABELS[language])
    ]
  }
}

/**
 * Renders the running-order sheet; a logo pdfkit cannot embed only costs the logo (watermark and
 * colours), never the sheet.
 */
export async function renderSchedulePdf (doc: GigDocument, ctx: DocumentContext): Promise<Buffer> {
  try {
    return await renderPdf(scheduleDocDefinition(doc, ctx))
  } catch (error) {
    if (!ctx.logo) throw error
    return renderPdf(scheduleDocDefinition(doc, { ...ctx, logo: null }))
  }
}
