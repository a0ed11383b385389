import fp from 'fastify-plugin'
import fastifyJwt from '@fastify/jwt'
export interface JwtPluginOptions {
  secret: string
}

/**
 * Signs and verifies access tokens (@fastify/jwt, HS256 only). Expiry is checked by the session
 * plugin against the app clock, not here against the wall clock, so that one time source governs
 * access tokens and sessions alike (tests move it).
 */
export default fp<JwtPluginOptions>(
  async (app, options) => {
    await app.register(fastifyJwt, {
      secret: options.secret,
      sign: { algorithm: 'HS256' },
      verify: { algorithms: ['HS256'], ignoreExpiration: true }
    })
  },
  { name: 'jwt', fastify: '5.x' }
)
