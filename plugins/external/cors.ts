import fp from 'fastify-plugin'
import fastifyCors from '@fastify/cors'
import { originSet } from '#plugins/app/security.js'

export interface CorsPluginOptions {
  corsOrigins: string[]
}

/** CORS with credentials (@fastify/cors) for the configured origins only (CORS_ORIGINS). */
export default fp<CorsPluginOptions>(
  async (app, options) => {
    const allowed = originSet(options.corsOrigins)
    await app.register(fastifyCors, {
      origin: (origin, callback) =>
        callback(null, origin !== undefined && allowed.has(origin.toLowerCase())),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600
    })
  },
  { name: 'cors', fastify: '5.x' }
)
