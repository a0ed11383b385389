import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import gigRoutes from './gig-routes.js'
import setlistRoutes from './setlist-routes.js'
import chartsRoutes from './charts-routes.js'
import scheduleRoutes from './schedule-routes.js'
import publicationRoutes from './publication-routes.js'
import { availabilityRoutes } from '#plugins/availability/routes.js'

/** Gigs: master data, setlist, running order and availability. */
const gigsPlugin: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(gigRoutes)
  await app.register(setlistRoutes)
  await app.register(chartsRoutes)
  await app.register(scheduleRoutes)
  await app.register(publicationRoutes)
  await app.register(availabilityRoutes({ path: '/gigs', resource: 'gig', tag: 'gigs' }))
}
export default gigsPlugin
