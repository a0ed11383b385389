import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { GigStats, SeasonStats, SeasonStatsQuery, SongStats } from '#schemas/stats.js'
import { notFound } from '#src/errors.js'
import { todayIn } from '#shared/local-time.js'
import { gigStats, seasonStats, songStats } from './repository.js'

/** Statistics for the season and all time, per gig and per song; computed in SQL. */
const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const today = () => todayIn(app.appSettings.get().timezone, app.clock())

  app.get(
    '/stats',
    {
      config: { access: 'member' },
      schema: {
        tags: ['statistics'],
        summary: 'Statistics of a season (`season=2026`, a calendar year) or of all time',
        description:
          'Played gigs are confirmed gigs up to today; their entries count as played unless ' +
          'skipped. Four SQL statements whatever the history.',
        querystring: SeasonStatsQuery,
        response: { 200: SeasonStats }
      }
    },
    async (request) => seasonStats(app.db, request.query.season, today())
  )

  app.get(
    '/gigs/:id/stats',
    {
      config: { access: 'member' },
      schema: {
        tags: ['statistics'],
        summary: 'Statistics of a gig, in total and per set',
        params: IdParams,
        response: { 200: GigStats, 404: { ...ErrorResponse, description: 'Unknown gig' } }
      }
    },
    async (request) => {
      const stats = gigStats(app.db, request.params.id, today())
      if (!stats) throw notFound('gig', request.params.id)
      return stats
    }
  )

  app.get(
    '/songs/:id/stats',
    {
      config: { access: 'member' },
      schema: {
        tags: ['statistics'],
        summary: 'A song’s record: gigs played at, skip rate, rating, rehearsals, set partners',
        params: IdParams,
        response: { 200: SongStats, 404: { ...ErrorResponse, description: 'Unknown song' } }
      }
    },
    async (request) => {
      const stats = songStats(app.db, request.params.id, today())
      if (!stats) throw notFound('song', request.params.id)
      return stats
    }
  )
}
export default statsRoutes
