import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import {
  binaryFile,
  CSV_TYPE,
  DOCUMENT_QUEUE_DESCRIPTION,
  DocumentQueueErrors,
  SetlistStyleQuery,
  textFile
} from '#schemas/documents.js'
import { notFound } from '#src/errors.js'
import { contentDisposition, slug } from '#src/http/content-disposition.js'
import { formatLength } from '#src/documents/format.js'
import { assembleGigDocument, type GigDocument } from '#src/documents/gig-document.js'
import { renderSetlistCsv } from '#src/documents/setlist-csv.js'
import {
  documentLanguage, FILE_PREFIXES, SETLIST_LABELS, type DocumentLanguage
} from '#src/documents/labels.js'
import type { TimingDefaults } from '#shared/timing.js'
import { readRepertoire, type RepertoireData } from './repository.js'

const PdfFile = binaryFile('application/pdf', 'PDF document')
const NotFound = { ...ErrorResponse, description: 'Unknown repertoire setlist' }

/** A programme as a gig document without date, venue or start: the setlist renderers take it. */
export function repertoireDocument (
  data: RepertoireData,
  defaults: TimingDefaults,
  language: DocumentLanguage
): GigDocument {
  const { header } = data
  const doc = assembleGigDocument(
    {
      gig: {
        id: header.id,
        name: header.name,
        date: '2000-01-01',
        startTime: '00:00',
        kind: null,
        status: 'confirmed',
        venueName: null,
        venueAddress: null,
        venueCity: null,
        organizerName: null,
        organizerContact: null,
        getInTime: null,
        soundcheckTime: null,
        doorsTime: null,
        endTime: null,
        notes: header.notes
      },
      sets: data.sets,
      entries: data.entries,
      schedule: [],
      musicianCount: 0
    },
    defaults
  )
  const sets = doc.sets.length
  doc.programme = {
    subtitle: SETLIST_LABELS[language].repertoire(sets, formatLength(doc.totalSeconds))
  }
  return doc
}

/** GET /repertoire/{id}/setlist.pdf and .csv, with the gig setlist's renderers. */
const repertoireDocumentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const load = (id: number) => {
    const data = readRepertoire(app.db, id)
    if (!data) throw notFound('repertoire setlist', id)
    const { timing, locale } = app.appSettings.get()
    const language = documentLanguage(locale)
    const doc = repertoireDocument(data, timing, language)
    return { doc, language, name: slug(data.header.name) }
  }

  app.get(
    '/repertoire/:id/setlist.pdf',
    {
      config: { access: 'member' },
      schema: {
        tags: ['repertoire'],
        summary: 'A repertoire setlist as PDF (print or stage style, like a gig setlist)',
        description: DOCUMENT_QUEUE_DESCRIPTION,
        params: IdParams,
        querystring: SetlistStyleQuery,
        response: { 200: PdfFile, 404: NotFound, ...DocumentQueueErrors }
      }
    },
    async (request, reply) => {
      const { id } = request.params
      const style = request.query.style
      return app.serveDocument(request, reply, `repertoire:${style}:${id}`, async () => {
        const { doc, language, name } = load(id)
        const settings = app.appSettings.get()
        const body = await app.documentWorkers.render({
          kind: 'setlist',
          doc,
          ctx: {
            bandName: settings.bandName,
            timezone: settings.timezone,
            locale: settings.locale,
            generatedAt: app.clock()
          },
          style
        })
        const prefix = FILE_PREFIXES[language][style === 'print' ? 'setlist' : 'stage']
        return {
          body, type: 'application/pdf', disposition: 'inline', fileName: `${prefix}-${name}.pdf`
        }
      })
    }
  )

  app.get(
    '/repertoire/:id/setlist.csv',
    {
      config: { access: 'member' },
      schema: {
        tags: ['repertoire'],
        summary: 'A repertoire setlist as CSV (the columns of GET /gigs/{id}/setlist.csv)',
        params: IdParams,
        response: { 200: textFile(CSV_TYPE, 'CSV file'), 404: NotFound }
      }
    },
    async (request, reply) => {
      const { doc, language, name } = load(request.params.id)
      return reply
        .type(CSV_TYPE)
        .header('content-disposition', contentDisposition('attachment', `Setlist-${name}.csv`))
        .header('cache-control', 'private, no-cache')
        .send(renderSetlistCsv(doc, undefined, language))
    }
  )
}
export default repertoireDocumentRoutes
