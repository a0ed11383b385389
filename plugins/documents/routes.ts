import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { notFound } from '#src/errors.js'
import { contentDisposition, slug } from '#src/services/content-disposition.js'
import type { DocumentContext, GigDocument } from '#src/services/gig-document.js'
import { closeDocumentWorkers, renderPdfJob } from '#src/services/document-workers.js'
import { loadGigDocument, loadLogo } from './repository.js'

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
 * GET /gigs/{id}/setlist.pdf, /schedule.pdf, /gema: data loaded here, rendered by the pure
 * services.
 */
const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Idle workers end by themselves; on shutdown they must not outlive the server.
  app.addHook('onClose', async () => closeDocumentWorkers())
  const load = (id: number): { doc: GigDocument; ctx: DocumentContext } => {
    const settings = app.appSettings.get()
    const doc = loadGigDocument(app.db, id, settings.timing)
    if (!doc) throw notFound('gig', id)
    return {
      doc,
      ctx: { bandName: settings.bandName, timezone: settings.timezone, generatedAt: app.clock() }
    }
  }
  const fileName = (prefix: string, doc: GigDocument, extension: string) =>
    `${prefix}-${doc.gig.date}-${slug(doc.gig.name)}.${extension}`

  app.get(
    '/gigs/:id/setlist.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'Setlist as PDF (A4; print or stage style; shows the live record after the show)',
        params: IdParams,
        querystring: SetlistQuery,
        response: { 200: PdfFile, 404: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { doc, ctx } = load(request.params.id)
      const pdf = await renderPdfJob({ kind: 'setlist', doc, ctx, style: request.query.style })
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          contentDisposition(
            'inline',
            fileName(request.query.style === 'stage' ? 'Setlist-Buehne' : 'Setlist', doc, 'pdf')
          )
        )
        .header('cache-control', 'private, no-cache')
        .send(pdf)
    }
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
        params: IdParams,
        response: { 200: PdfFile, 404: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { doc, ctx } = load(request.params.id)
      const pdf = await renderPdfJob({
        kind: 'schedule',
        doc,
        ctx: { ...ctx, logo: loadLogo(app.db) }
      })
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          contentDisposition('inline', fileName('Ablaufplan', doc, 'pdf'))
        )
        .header('cache-control', 'private, no-cache')
        .send(pdf)
    }
  )

  app.get(
    '/gigs/:id/gema',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'GEMA music report (.xlsx, layout of the GEMA title upload template v1.2)',
        params: IdParams,
        response: { 200: XlsxFile, 404: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { doc, ctx } = load(request.params.id)
      return (
        reply
          .type(XLSX_TYPE)
          .header(
            'content-disposition',
            contentDisposition('attachment', fileName('GEMA', doc, 'xlsx'))
          )
          .header('cache-control', 'private, no-cache')
          // xlsx is loaded on the first export only (~300 ms and ~35 MB that most requests never
          // need).
          .send((await import('#src/services/gema-xlsx.js')).renderGemaXlsx(doc, ctx))
      )
    }
  )
}
export default documentRoutes
