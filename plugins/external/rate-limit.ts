import fp from 'fastify-plugin'
import fastifyRateLimit from '@fastify/rate-limit'
import { ApiError } from '#src/errors.js'
import { addressKey } from '#src/http/address-key.js'

/**
 * Limits are per route and per client IP, where the IP honours TRUST_PROXY. Nothing else
 * is limited: a whole band shares one venue IP in live mode. IPv6 clients are keyed by their /64.
 */
export default fp(
  async (app) => {
    await app.register(fastifyRateLimit, {
      global: false,
      // An IPv6 client's /64 is one client (src/http/address-key.ts).
      keyGenerator: (request) => addressKey(request.ip),
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          'RATE_LIMITED',
          `rate limit of ${context.max} requests per minute exceeded; ` +
            `retry in ${Math.ceil(context.ttl / 1000)} s`
        )
    })
  },
  { name: 'rate-limit', fastify: '5.x', dependencies: ['errors'] }
)

/** Route config for a per-minute limit: `config: { rateLimit: perMinute(10) }`. */
export const perMinute = (max: number) => ({ max, timeWindow: 60_000 })
