import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { forbidden } from '#src/errors.js'
import { SECURITY_HEADERS } from '#src/http/security-headers.js'

export interface SecurityPluginOptions {
  corsOrigins: string[]
  /** Strict-Transport-Security for answers to HTTPS requests (Config.hsts). */
  hsts?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Strict-Transport-Security value for answers to HTTPS requests. */
    hstsHeader: string
  }
}

export const DEFAULT_HSTS = 'max-age=31536000'

/** Origins as browsers send them: lower case, no trailing slash. */
export const originSet = (origins: string[]) =>
  new Set(origins.map((o) => o.replace(/\/$/, '').toLowerCase()))

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * For an answer without a caching rule of its own: a session's data (profile, sessions, e-mails,
 * statistics, exports, calendars) must not stay in a shared cache or on disk. Routes that can be
 * revalidated set their own rule (`private, no-cache` with an ETag; public logo and config).
 */
export const PRIVATE_NO_STORE = 'private, no-store'

/** An answer of a route that needs a session, one that sets cookies, or to a write. */
const isPrivate = (request: FastifyRequest, reply: FastifyReply) =>
  (request.routeOptions.config?.access ?? 'public') !== 'public' ||
  reply.hasHeader('set-cookie') ||
  !SAFE_METHODS.has(request.method)

/** Names no public CA certifies: local, LAN and mDNS names, and bare addresses. */
const LOCAL_NAME = /(^|\.)(local|lan|home|home\.arpa|internal|localhost)$|^[\d.]+$|:|^[^.]*$/i

/**
 * HSTS only for a real public name: a year of it on `pi.local` or an address locks every phone
 * out once the proxy (or its local CA) is gone, and such names are easily reused.
 */
export const isPublicName = (hostname: string): boolean => !LOCAL_NAME.test(hostname)

/**
 * The headers every answer carries (also those the router gives before any hook runs); a route may
 * set its own Referrer-Policy and Content-Security-Policy.
 */
export function setSecurityHeaders (reply: FastifyReply): void {
  // Over HTTPS only (directly or as the trusted proxy says): over plain HTTP browsers ignore it.
  if (reply.request.protocol === 'https' && isPublicName(reply.request.hostname)) {
    reply.header('strict-transport-security', reply.server.hstsHeader ?? DEFAULT_HSTS)
  }
  reply.header('x-content-type-options', SECURITY_HEADERS['x-content-type-options'])
  reply.header('x-frame-options', SECURITY_HEADERS['x-frame-options'])
  if (!reply.hasHeader('referrer-policy')) {
    reply.header('referrer-policy', SECURITY_HEADERS['referrer-policy'])
  }
  if (!reply.hasHeader('content-security-policy')) {
    reply.header('content-security-policy', SECURITY_HEADERS['content-security-policy'])
  }
}

/**
 * The cross-site write check that makes cookie sessions safe against CSRF (writes from other
 * origins only from the configured CORS origins): browsers always send Origin (or Sec-Fetch-Site)
 * on unsafe requests, scripts and curl usually send neither and are not affected. And the security
 * headers of every answer.
 */
export default fp<SecurityPluginOptions>(
  async (app, options) => {
    const allowed = originSet(options.corsOrigins)
    app.decorate('hstsHeader', options.hsts ?? DEFAULT_HSTS)
    const ownOrigin = (request: FastifyRequest) =>
      `${request.protocol}://${request.host}`.toLowerCase()

    // Callback hooks: they run on every request and have nothing to wait for.
    app.addHook('onRequest', (request, _reply, done) => {
      if (SAFE_METHODS.has(request.method)) return done()
      const origin = request.headers.origin?.toLowerCase()
      if (origin !== undefined && origin !== 'null') {
        if (origin === ownOrigin(request) || allowed.has(origin)) return done()
        return done(forbidden(`cross-site request from ${origin} refused`, 'CROSS_SITE_REQUEST'))
      }
      if (origin === 'null' || request.headers['sec-fetch-site'] === 'cross-site') {
        return done(forbidden('cross-site request refused', 'CROSS_SITE_REQUEST'))
      }
      done()
    })

    app.addHook('onSend', (request, reply, payload, done) => {
      setSecurityHeaders(reply)
      if (!reply.hasHeader('cache-control') && isPrivate(request, reply)) {
        reply.header('cache-control', PRIVATE_NO_STORE)
      }
      done(null, payload)
    })
  },
  { name: 'security', fastify: '5.x', dependencies: ['errors'] }
)
