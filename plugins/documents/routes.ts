import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import {
  binaryFile,
  DOCUMENT_QUEUE_DESCRIPTION,
  DocumentQueueErrors,
  DownloadQuery,
  SetlistStyleQuery,
  XLSX_TYPE
} from '#schemas/documents.js'
import { notFound } from '#src/errors.js'
import type { DocumentFile } from '#plugins/app/document-workers.js'
import { slug } from '#src/services/content-disposition.js'
import type { GigDocument } from '#src/services/gig-document.js'
import type { DocumentJob } from '#src/services/document-workers.js'
import type { SetlistStyle } from '#src/services/setlist-pdf.js'
import { loadDocumentLogo, loadGigDocument } from './repository.js'
import { loadGigCharts } from '#plugins/gigs/charts-repository.js'

const PdfFile = binaryFile('application/pdf', 'PDF document')
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
  const render = async (kind: Kind, id: number, style: SetlistStyle): Promise<DocumentFile> => {
    const settings = app.appSettings.get()
    const doc = loadGigDocument(app.db, id, settings.timing)
    if (!doc) throw notFound('gig', id)
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
    if (kind === 'gema') return { ...file, fileName: fileName('GEMA', doc, 'xlsx') }
    if (kind === 'schedule') return { ...file, fileName: fileName('Ablaufplan', doc, 'pdf') }
    const prefix = style === 'print' ? 'Setlist' : 'Setlist-Buehne'
    return { ...file, fileName: fileName(prefix, doc, 'pdf') }
  }

  const serve = (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: Kind,
    id: number,
    style: SetlistStyle = 'print'
  ) => app.serveDocument(request, reply, `${kind}:${style}:${id}`, () => render(kind, id, style))

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
        response: { 200: PdfFile, ...DOCUMENT_ERRORS }
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
        description: DOCUMENT_QUEUE_DESCRIPTION,
        params: IdParams,
        querystring: DownloadQuery,
        response: { 200: PdfFile, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => serve(request, reply, 'schedule', request.params.id)
  )

  /** The songbook: the charts document, rendered in a worker like every other document. */
  const renderSongbook = async (id: number): Promise<DocumentFile> => {
    const settings = app.appSettings.get()
    const doc = loadGigDocument(app.db, id, settings.timing)
    const charts = doc && loadGigCharts(app.db, id, settings.chordNotation ?? 'german')
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
      charts: charts.charts
    }
    const body = await app.documentWorkers.render({ kind: 'songbook', book, ctx })
    return {
      body,
      type: 'application/pdf',
      disposition: 'inline',
      fileName: fileName('Songbook', doc, 'pdf')
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
        description: DOCUMENT_QUEUE_DESCRIPTION,
        params: IdParams,
        response: { 200: PdfFile, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) =>
      app.serveDocument(request, reply, `songbook:${request.params.id}`, () =>
        renderSongbook(request.params.id))
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
        response: { 200: XlsxFile, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => serve(request, reply, 'gema', request.params.id)
  )
}
export default documentRoutes
