import { createHash, randomBytes } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import {
  binaryFile,
  DOCUMENT_QUEUE_DESCRIPTION,
  DocumentQueueErrors,
  DownloadFlag,
  SetlistStyleQuery,
  SongbookQuery,
  type SongbookPrint,
  XLSX_TYPE
} from '#schemas/documents.js'
import { forbidden, notFound } from '#src/errors.js'
import { findGigFee } from '#src/repositories/gig-money.js'
import type { DocumentFile } from '#plugins/app/serve-document.js'
import { slug } from '#src/http/content-disposition.js'
import type { GigDocument } from '#src/documents/gig-document.js'
import type { DocumentJob } from '#src/documents/pool.js'
import type { SetlistStyle } from '#src/documents/setlist-pdf.js'
import { entityTag } from '#plugins/app/response-cache.js'
import { documentLanguage, FILE_PREFIXES } from '#src/documents/labels.js'
import { loadDocumentLogo, loadGigDocument } from './repository.js'
import { chartsTooLarge, gigChartBytes, readGigCharts } from '#src/repositories/gig-charts.js'
import { MAX_SONGBOOK_CHART_BYTES } from '#schemas/charts.js'
import textDocumentRoutes from './text-routes.js'

/** Per start: a document's ETag from an earlier run (maybe another release) never matches. */
const RENDERER = randomBytes(6).toString('hex')

const PdfFile = binaryFile('application/pdf', 'PDF document')
const ScheduleQuery = Type.Object({
  download: Type.Optional(DownloadFlag),
  fee: Type.Optional(Type.Boolean({ description: 'print the agreed fee (the organiser\'s copy)' }))
})
const XlsxFile = binaryFile(XLSX_TYPE, 'Excel workbook (.xlsx)')
/** A missing gig and the queue's refusals, in every document route's schema. */
const DOCUMENT_ERRORS = { 404: ErrorResponse, ...DocumentQueueErrors }

type Kind = Exclude<DocumentJob['kind'], 'songbook'>

const FILES: Record<Kind, Pick<DocumentFile, 'type' | 'disposition'>> = {
  setlist: { type: 'application/pdf', disposition: 'inline' },
  schedule: { type: 'application/pdf', disposition: 'inline' },
  gema: { type: XLSX_TYPE, disposition: 'attachment' }
}

/**
 * GET /gigs/{id}/setlist.pdf, /schedule.pdf, /gema: admitted by one bounded queue, data loaded when
 * a worker is free, rendered in a worker thread.
 */
const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const fileName = (prefix: string, doc: GigDocument, extension: string) =>
    `${prefix}-${doc.gig.date}-${slug(doc.gig.name)}.${extension}`

  /** Runs when a worker is free: reads the gig (a constant number of statements) and renders. */
  const render = async (kind: Kind, id: number, style: SetlistStyle, fee = false):
  Promise<DocumentFile> => {
    const settings = app.appSettings.get()
    const loaded = loadGigDocument(app.db, id, settings.timing)
    if (!loaded) throw notFound('gig', id)
    const doc = fee ? { ...loaded, fee: feeLine(id) } : loaded
    const ctx = {
      bandName: settings.bandName,
      timezone: settings.timezone,
      locale: settings.locale,
      generatedAt: app.clock(),
      logo: kind === 'schedule' ? loadDocumentLogo(app.db) : null
    }
    const body = await app.documentWorkers.render(
      kind === 'setlist' ? { kind, doc, ctx, style } : { kind, doc, ctx }
    )
    const file = { body, ...FILES[kind] }
    // GEMA is the German collecting society: its report (and its name) is German for every band.
    if (kind === 'gema') return { ...file, fileName: fileName('GEMA', doc, 'xlsx') }
    const prefixes = FILE_PREFIXES[documentLanguage(settings.locale)]
    if (kind === 'schedule') return { ...file, fileName: fileName(prefixes.schedule, doc, 'pdf') }
    const prefix = style === 'print' ? prefixes.setlist : prefixes.stage
    return { ...file, fileName: fileName(prefix, doc, 'pdf') }
  }

  /**
   * What a gig document is made of, as an ETag: the gig's data, the band's settings and logo it
   * prints, and this server's start (a new release may render differently). The bytes carry the
   * time they were made, so they cannot be the tag. A refresh of an unchanged document (the
   * offline gig pack) costs a 304 and no render. Throws 404 for a missing gig.
   */
  const documentTag = (key: string, kind: Kind, id: number, fee = false): string => {
    const settings = app.appSettings.get()
    const loaded = loadGigDocument(app.db, id, settings.timing)
    if (!loaded) throw notFound('gig', id)
    const doc = fee ? { ...loaded, fee: feeLine(id) } : loaded
    const { bandName, timezone, locale } = settings
    const logo = kind === 'schedule' ? loadDocumentLogo(app.db) : null
    // The logo's image by its digest, not its bytes.
    const inputs = JSON.stringify({ RENDERER, doc, bandName, timezone, locale, logo }, (_, v) =>
      v instanceof Uint8Array ? createHash('sha256').update(v).digest('base64url') : v)
    return entityTag(key, Buffer.from(inputs))
  }

  const serve = (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: Kind,
    id: number,
    style: SetlistStyle = 'print',
    fee = false
  ) => {
    const key = `${kind}:${style}:${fee ? 'fee:' : ''}${id}`
    const etag = documentTag(key, kind, id, fee)
    return app.serveDocument(request, reply, key, () => render(kind, id, style, fee), etag)
  }

  /** The fee as the running-order sheet prints it: amount, and the invoice number if any. */
  const feeLine = (id: number): string => {
    const { locale } = app.appSettings.get()
    const money = findGigFee(app.db, id)
    if (!money) return '–'
    const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency })
      .format(money.feeCents / 100)
    return money.invoiceNumber ? `${amount} · ${money.invoiceNumber}` : amount
  }

  app.get(
    '/gigs/:id/setlist.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'Setlist as PDF (A4; print or stage style; shows the live record after the show)',
        description: DOCUMENT_QUEUE_DESCRIPTION,
        params: IdParams,
        querystring: SetlistStyleQuery,
        response: { 200: PdfFile, 304: NotModified, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) =>
      serve(request, reply, 'setlist', request.params.id, request.query.style)
  )

  app.get(
    '/gigs/:id/schedule.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary:
          'Running-order sheet as PDF (A4 portrait, master data, colours from the ' +
          'band logo, logo watermark)',
        description: DOCUMENT_QUEUE_DESCRIPTION + ' `fee=true` prints the agreed fee (for ' +
          "the organiser's copy): editors, or members where the band shows them everything.",
        params: IdParams,
        querystring: ScheduleQuery,
        response: { 200: PdfFile, 304: NotModified, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => {
      const fee = request.query.fee === true
      const shown = app.hasRole(request.user, 'editor') ||
        app.appSettings.get().money?.membersSee === 'everything'
      if (fee && !shown) throw forbidden("this band shows a gig's fee to editors only")
      return serve(request, reply, 'schedule', request.params.id, 'print', fee)
    }
  )

  /** The songbook: the charts document, rendered in a worker like every other document. */
  const renderSongbook = async (id: number, print: SongbookPrint): Promise<DocumentFile> => {
    const settings = app.appSettings.get()
    const doc = loadGigDocument(app.db, id, settings.timing)
    const charts = doc && await readGigCharts(app.db, id, settings.chordNotation ?? 'german')
    if (!doc || !charts) throw notFound('gig', id)
    const ctx = {
      bandName: settings.bandName,
      timezone: settings.timezone,
      locale: settings.locale,
      generatedAt: app.clock()
    }
    const book = {
      gig: { name: doc.gig.name, date: doc.gig.date },
      notation: charts.notation,
      charts: charts.charts,
      print,
      songs: charts.songs
    }
    const body = await app.documentWorkers.render({ kind: 'songbook', book, ctx })
    return {
      body,
      type: 'application/pdf',
      disposition: 'inline',
      fileName: fileName(print === 'large' ? 'Songbook-large' : 'Songbook', doc, 'pdf')
    }
  }

  app.get(
    '/gigs/:id/songbook.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary:
          'Songbook as PDF: every chart of the setlist in running order, transposed for the ' +
          'gig, each song on a new page',
        description: `${DOCUMENT_QUEUE_DESCRIPTION} At most ` +
          `${MAX_SONGBOOK_CHART_BYTES / 1024 / 1024} MiB of chart text, each entry's chart ` +
          'counted: more is 413 CHARTS_TOO_LARGE.',
        params: IdParams,
        querystring: SongbookQuery,
        response: {
          200: PdfFile,
          ...DOCUMENT_ERRORS,
          413: { ...ErrorResponse, description: 'CHARTS_TOO_LARGE: more chart text than allowed' }
        }
      }
    },
    async (request, reply) => {
      const { print } = request.query
      // Before the queue: a songbook's render time grows with the chart text it lays out.
      const bytes = gigChartBytes(app.db, request.params.id, true)
      if (bytes !== undefined && bytes > MAX_SONGBOOK_CHART_BYTES) {
        throw chartsTooLarge(bytes, MAX_SONGBOOK_CHART_BYTES, 'The songbook')
      }
      return app.serveDocument(request, reply, `songbook:${print}:${request.params.id}`, () =>
        renderSongbook(request.params.id, print))
    }
  )

  app.get(
    '/gigs/:id/gema',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'GEMA music report (.xlsx, layout of the GEMA title upload template v1.2)',
        description: DOCUMENT_QUEUE_DESCRIPTION,
        params: IdParams,
        response: { 200: XlsxFile, 304: NotModified, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => serve(request, reply, 'gema', request.params.id)
  )
  await app.register(textDocumentRoutes)
}
export default documentRoutes
