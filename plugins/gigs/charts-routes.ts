import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import { GigCharts, MAX_GIG_CHART_BYTES } from '#schemas/charts.js'
import { notFound } from '#src/errors.js'
import { readGigCharts } from '#src/repositories/gig-charts.js'
import { JSON_TYPE } from '#plugins/app/response-cache.js'
import { chartsJson } from './charts-json.js'

/** The gig's songbook as one document: what every phone fetches (and keeps) for the stage. */
const chartsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/gigs/:id/charts',
    {
      config: { access: 'member', compress: false },
      schema: {
        tags: ['gigs'],
        summary: "Every chart of the gig's setlist in running order, with its transposition",
        description:
          'One document for the stage view: every song entry with its song, `transpose`, ' +
          '`capo` and the moved key, and in `songs` each chart once (by song id; a song ' +
          'without a chart has none there). At most ' +
          `${MAX_GIG_CHART_BYTES / 1024 / 1024} MiB of chart text (UTF-8, each song once); ` +
          'more is 413 CHARTS_TOO_LARGE. Carries an `ETag`; `If-None-Match` answers 304 ' +
          'while nothing changed.',
        params: IdParams,
        response: {
          200: GigCharts,
          304: NotModified,
          404: { ...ErrorResponse, description: 'Unknown gig' },
          413: { ...ErrorResponse, description: 'CHARTS_TOO_LARGE: more chart text than allowed' }
        }
      }
    },
    async (request, reply) => {
      const { id } = request.params
      const notation = app.appSettings.get().chordNotation ?? 'german'
      // Megabytes at the cap: read, serialized and digested a part at a time.
      return app.sendCachedParts(request, reply, `charts:${id}:${notation}`, JSON_TYPE,
        async function * () {
          const charts = await readGigCharts(app.db, id, notation)
          if (!charts) throw notFound('gig', id)
          yield * chartsJson(charts, (doc) => reply.serialize(doc) as string)
        })
    }
  )
}
export default chartsRoutes
