import fp from 'fastify-plugin'
import fastifyCors from '@fastify/cors'
import type { FastifyRequest } from 'fastify'
import { forbidden } from '../../src/errors.js'

export interface SecurityPluginOptions {
  corsOrigins: string[]
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * CORS with credentials for the configured origins only, and the cross-site write check that makes
 * cookie sessions safe against CSRF: browsers always send Origin (or Sec-Fetch-Site) on unsafe
 * requests, scripts and curl usually send neither and are not affected.
 */
export default fp<SecurityPluginOptions>(
  async (app, options) => {
    const allowed = new Set(options.corsOrigins.map((o) => o.replace(/\/$/, '').toLowerCase()))
    await app.register(fastifyCors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin.toLowerCase())),
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600
    })

    const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`.toLowerCase()

    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return
      const origin = request.headers.origin?.toLowerCase()
      if (origin !== undefined && origin !== 'null') {
        if (origin === ownOrigin(request) || allowed.has(origin)) return
        throw forbidden(`cross-site request from ${origin} refused`, 'CROSS_SITE_REQUEST')
      }
      if (origin === 'null' || request.headers['sec-fetch-site'] === 'cross-site') {
        throw forbidden('cross-site request refused', 'CROSS_SITE_REQUEST')
      }
    })

    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-content-type-options', 'nosniff')
      reply.header('x-frame-options', 'DENY')
      reply.header('referrer-policy', reply.getHeader('referrer-policy') ?? 'same-origin')
      if (!reply.hasHeader('content-security-policy')) {
        // Swagger UI needs its inline styles and the data: images it ships; nothing is loaded from elsewhere.
        reply.header(
          'content-security-policy',
          "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
        )
      }
    })
  },
  { name: 'security', dependencies: ['errors'] }
)
