import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { CSV_TYPE, TEXT_TYPE, textFile } from '#schemas/documents.js'
import { notFound } from '#src/errors.js'
import { contentDisposition, slug } from '#src/http/content-disposition.js'
import { streamSetlistCsv } from '#src/documents/setlist-csv.js'
import { renderSetlistText } from '#src/documents/setlist-text.js'
import { documentLanguage } from '#src/documents/labels.js'
import { loadGigDocument } from './repository.js'
import {
  chartsBySong, chartsTooLarge, gigChartBytes, readGigCharts
} from '#src/repositories/gig-charts.js'
import { MAX_GIG_CHART_BYTES } from '#schemas/charts.js'

/** GET /gigs/{id}/setlist.csv and .txt: the setlist for spreadsheets and for chat or mail. */
const textDocumentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const load = (id: number) => {
    const doc = loadGigDocument(app.db, id, app.appSettings.get().timing)
    if (!doc) throw notFound('gig', id)
    return { doc, name: `Setlist-${doc.gig.date}-${slug(doc.gig.name)}` }
  }

  /**
   * Every entry's chart columns. The CSV repeats a chart for each entry of its song, so its chart
   * text is counted per entry against the limit, before any chart is read.
   */
  const entryCharts = async (id: number) => {
    const bytes = gigChartBytes(app.db, id, true) ?? 0
    if (bytes > MAX_GIG_CHART_BYTES) {
      throw chartsTooLarge(bytes, MAX_GIG_CHART_BYTES, 'The CSV')
    }
    const doc = await readGigCharts(app.db, id, app.appSettings.get().chordNotation ?? 'german')
    const charts = doc ? chartsBySong(doc) : new Map<number, string>()
    return new Map((doc?.charts ?? []).map((c) => [
      c.entryId,
      { transpose: c.transpose, capo: c.capo, chart: charts.get(c.song.id) ?? null }
    ]))
  }

  app.get(
    '/gigs/:id/setlist.csv',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary: 'Setlist as CSV (UTF-8 with BOM, `;`, header row; Excel and LibreOffice)',
        description:
          'Header and status words in the band\'s language (`locale`). German: Set, Nr., ' +
          'Beginn, Titel, Interpret, Tonart, Gesang, Dauer (h:mm:ss), Notizen, Status ' +
          '(geplant/gespielt/ausgelassen), Eingefügt (ja), Bewertung (1–3), Transponierung ' +
          '(Halbtöne), Kapo, Chart (ChordPro). English: Set, No., Start, Title, Artist, Key, ' +
          'Vocals, Length, Notes, Status (planned/played/skipped), Added (yes), Rating, ' +
          'Transpose, Capo, Chart.',
        params: IdParams,
        response: {
          200: textFile(CSV_TYPE, 'CSV file'),
          404: ErrorResponse,
          413: {
            ...ErrorResponse,
            description: 'CHARTS_TOO_LARGE: more than 8 MiB of chart text, counted per entry'
          }
        }
      }
    },
    async (request, reply) => {
      // The charts' size first: a CSV over the cap is refused before the gig is read.
      const charts = await entryCharts(request.params.id)
      const { doc, name } = load(request.params.id)
      return reply
        .type(CSV_TYPE)
        .header('content-disposition', contentDisposition('attachment', `${name}.csv`))
        .header('cache-control', 'private, no-cache')
        .send(streamSetlistCsv(
          doc,
          charts,
          documentLanguage(app.appSettings.get().locale)
        ))
    }
  )

  app.get(
    '/gigs/:id/setlist.txt',
    {
      config: { access: 'member' },
      schema: {
        tags: ['documents'],
        summary:
          'Setlist as plain text (sets, numbered songs with times, breaks, total) in the ' +
          'band\'s language',
        params: IdParams,
        response: { 200: textFile(TEXT_TYPE, 'Plain text'), 404: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { doc, name } = load(request.params.id)
      return reply
        .type(TEXT_TYPE)
        .header('content-disposition', contentDisposition('inline', `${name}.txt`))
        .header('cache-control', 'private, no-cache')
        .send(renderSetlistText(doc, documentLanguage(app.appSettings.get().locale)))
    }
  )
}
export default textDocumentRoutes
