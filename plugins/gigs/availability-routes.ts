import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '../../schemas/common.js'
import { Availability, AvailabilityAnswer, AvailabilityPut } from '../../schemas/gigs.js'
import { notFound } from '../../src/errors.js'
import { findGig } from './repository.js'
import { loadAvailability, saveAvailability } from './availability-repository.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }

/** Who can play: everyone reads, each member answers for themself. */
const availabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/gigs/:id/availability',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: "Everyone's availability and a summary over the active musicians",
        params: IdParams,
        response: { 200: Availability, 404: NotFound }
      }
    },
    async (request) => {
      if (!findGig(app.db, request.params.id)) throw notFound('gig', request.params.id)
      return loadAvailability(app.db, request.params.id)
    }
  )

  app.put(
    '/gigs/:id/availability',
    {
      config: { access: 'member' },
      schema: {
        tags: ['gigs'],
        summary: 'Set your own availability (upsert)',
        params: IdParams,
        body: AvailabilityPut,
        response: { 200: AvailabilityAnswer, 404: NotFound }
      }
    },
    async (request) => {
      const gigId = request.params.id
      if (!findGig(app.db, gigId)) throw notFound('gig', gigId)
      saveAvailability(app.db, gigId, request.user.id, request.body, app.clock())
      const own = loadAvailability(app.db, gigId).answers.find((a) => a.userId === request.user.id)
      if (!own) throw notFound('gig', gigId)
      return own
    }
  )
}
export default availabilityRoutes
