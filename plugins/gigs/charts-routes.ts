import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import { GigCharts } from '#schemas/charts.js'
import { notFound } from '#src/errors.js'
import { loadGigCharts } from './charts-repository.js'

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
          'One document for the stage view: every setlist entry (also those without a ' +
          'chart: `chart` null) with its song, `transpose`, `capo` and the moved key. ' +
          'Carries an `ETag`; `If-None-Match` answers 304 while nothing changed.',
        params: IdParams,
        response: {
          200: GigCharts,
          304: NotModified,
          404: { ...ErrorResponse, description: 'Unknown gig' }
        }
      }
    },
    async (request, reply) => {
      const notation = app.appSettings.get().chordNotation ?? 'german'
      return app.sendCachedJson(request, reply, `charts:${request.params.id}:${notation}`, () => {
        const charts = loadGigCharts(app.db, request.params.id, notation)
        if (!charts) throw notFound('gig', request.params.id)
        return charts
      })
    }
  )
}
export default chartsRoutes
