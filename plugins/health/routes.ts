import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { APP_VERSION } from '#src/version.js'

const Health = Type.Object({
  status: Type.String(),
  database: Type.String(),
  version: Type.String()
})

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ping = app.sqlite.prepare('select 1')
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database check',
        response: { 200: Health, 503: Health }
      }
    },
    async (_request, reply) => {
      try {
        ping.get()
        return { status: 'ok', database: 'ok', version: APP_VERSION }
      } catch {
        return reply
          .status(503)
          .send({ status: 'degraded', database: 'unreachable', version: APP_VERSION })
      }
    }
  )
}
export default healthRoutes
