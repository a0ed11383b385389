import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import { Schedule, SchedulePut } from '#schemas/gigs.js'
import { notFound } from '#src/errors.js'
import { loadSchedule, saveSchedule } from './schedule-repository.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }

/** The running order of the gig day. */
const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const timing = () => app.appSettings.get().timing

  app.get(
    '/gigs/:id/schedule',
    {
      // With an ETag: the gig pack (web app, offline) refreshes it for a 304.
      config: { access: 'member', compress: false },
      schema: {
        tags: ['gigs'],
        summary: 'The running order of the day, in time order',
        description:
          'Stored items (`source: item`) plus read-only items from the gig times ' +
          '(`gig`) and the computed set blocks (`set`).',
        params: IdParams,
        response: { 200: Schedule, 304: NotModified, 404: NotFound }
      }
    },
    async (request, reply) =>
      app.sendCachedJson(request, reply, `schedule:${request.params.id}`, () => {
        const schedule = loadSchedule(app.db, request.params.id, timing())
        if (!schedule) throw notFound('gig', request.params.id)
        return schedule
      })
  )

  app.put(
    '/gigs/:id/schedule',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Replace the running order items (read-only items are not sent)',
        params: IdParams,
        body: SchedulePut,
        response: { 200: Schedule, 404: NotFound }
      }
    },
    async (request) => {
      saveSchedule(app.db, request.params.id, request.body)
      const schedule = loadSchedule(app.db, request.params.id, timing())
      if (!schedule) throw notFound('gig', request.params.id)
      return schedule
    }
  )
}
export default scheduleRoutes
