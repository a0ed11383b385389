import fp from 'fastify-plugin'
import fastifyCookie from '@fastify/cookie'

/** Cookie parsing and setting (@fastify/cookie): the session travels in httpOnly cookies. */
export default fp(
  async (app) => {
    await app.register(fastifyCookie)
  },
  { name: 'cookie', fastify: '5.x' }
)
