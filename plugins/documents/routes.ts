import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { notFound } from '#src/errors.js'
import { errorBody } from '#plugins/app/errors.js'
import { contentDisposition, slug } from '#src/services/content-disposition.js'
import type { GigDocument } from '#src/services/gig-document.js'
import type { DocumentJob } from '#src/services/document-workers.js'
import { CancelledError, DocumentQueue } from '#src/services/document-queue.js'
import type { SetlistStyle } from '#src/services/setlist-pdf.js'
import { loadDocumentLogo, loadGigDocument } from './repository.js'

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
// Per-content-type response schemas, so the OpenAPI document names the real media types.
const binary = (mediaType: string, description: string) =>
  Type.Unsafe<Buffer>({
    description,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } }
  })
const PdfFile = binary('application/pdf', 'PDF document')
const XlsxFile = binary(XLSX_TYPE, 'Excel workbook (.xlsx)')
const SetlistQuery = Type.Object({
  style: Type.Union([Type.Literal('print'), Type.Literal('stage')], {
    default: 'print',
    description: 'print (default): black on white; stage: dark high-contrast, larger type'
  })
})
/**
 * Documents waiting for a worker. A band of ten opening every document of a gig at once stays
 * below it (identical requests share one render); beyond it a 60-song setlist would wait more than
 * ~1–2 s on two workers, so the 33rd is told to come back instead.
 */
export const DOCUMENT_QUEUE_WAITING = 32
/** Every document of one gig at once (setlist print and stage, running order, GEMA). */
export const DOCUMENTS_PER_USER = 4
const BUSY =
  'When the document queue is full: 503 DOCUMENTS_BUSY with Retry-After; more than ' +
  `${DOCUMENTS_PER_USER} documents of one member at once: 429 RATE_LIMITED with Retry-After.`

/** A missing gig and the queue's refusals, in every document route's schema. */
const DOCUMENT_ERRORS = {
  404: ErrorResponse,
  429: { ...ErrorResponse, description: `More than ${DOCUMENTS_PER_USER} documents of one member` },
  503: { ...ErrorResponse, description: 'The document queue is full' }
}

type Kind = DocumentJob['kind']
interface DocumentFile {
  body: Buffer
  fileName: string
}

const FILES: Record<Kind, { type: string; disposition: 'inline' | 'attachment' }> = {
  setlist: { type: 'application/pdf', disposition: 'inline' },
  schedule: { type: 'application/pdf', disposition: 'inline' },
  gema: { type: XLSX_TYPE, disposition: 'attachment' }
}

/**
 * GET /gigs/{id}/setlist.pdf, /schedule.pdf, /gema: admitted by one bounded queue, data loaded when
 * a worker is free, rendered in a worker thread.
 */
const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const queue = new DocumentQueue<DocumentFile>({
    running: app.documentWorkers.threads,
    waiting: DOCUMENT_QUEUE_WAITING,
    perUser: DOCUMENTS_PER_USER
  })

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
      generatedAt: app.clock(),
      logo: kind === 'schedule' ? loadDocumentLogo(app.db) : null
    }
    const body = await app.documentWorkers.render(
      kind === 'setlist' ? { kind, doc, ctx, style } : { kind, doc, ctx }
    )
    if (kind === 'gema') return { body, fileName: fileName('GEMA', doc, 'xlsx') }
    if (kind === 'schedule') return { body, fileName: fileName('Ablaufplan', doc, 'pdf') }
    const prefix = style === 'stage' ? 'Setlist-Buehne' : 'Setlist'
    return { body, fileName: fileName(prefix, doc, 'pdf') }
  }

  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: Kind,
    id: number,
    style: SetlistStyle = 'print'
  ) => {
    const revision = request.dbRevision ?? app.dbRevision()
    const admission = queue.submit({
      key: `${kind}:${style}:${id}@${revision}`,
      userId: request.user.id,
      run: () => render(kind, id, style)
    })
    if ('refused' in admission) {
      const seconds = admission.retryAfterSeconds
      const body =
        admission.refused === 'queue'
          ? errorBody('DOCUMENTS_BUSY', `too many documents in preparation; retry in ${seconds} s`)
          : errorBody('RATE_LIMITED', `at most ${DOCUMENTS_PER_USER} documents per member at once`)
      return reply.status(body.statusCode).header('retry-after', String(seconds)).send(body)
    }
    // A client that goes away while waiting gives its place back.
    const onClose = () => {
      if (!reply.raw.writableFinished) admission.cancel()
    }
    reply.raw.once('close', onClose)
    try {
      const file = await admission.result
      return reply
        .type(FILES[kind].type)
        .header('content-disposition', contentDisposition(FILES[kind].disposition, file.fileName))
        .header('cache-control', 'private, no-cache')
        .send(file.body)
    } catch (error) {
      // Nobody is listening any more (nginx's "client closed request" in the request log).
      if (error instanceof CancelledError) return reply.status(499).send()
      throw error
    } finally {
      reply.raw.off('close', onClose)
    }
  }

  app.get(
    '/gigs/:id/setlist.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'Setlist as PDF (A4; print or stage style; shows the live record after the show)',
        description: BUSY,
        params: IdParams,
        querystring: SetlistQuery,
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
        description: BUSY,
        params: IdParams,
        response: { 200: PdfFile, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => serve(request, reply, 'schedule', request.params.id)
  )

  app.get(
    '/gigs/:id/gema',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'GEMA music report (.xlsx, layout of the GEMA title upload template v1.2)',
        description: BUSY,
        params: IdParams,
        response: { 200: XlsxFile, ...DOCUMENT_ERRORS }
      }
    },
    async (request, reply) => serve(request, reply, 'gema', request.params.id)
  )
}
export default documentRoutes
