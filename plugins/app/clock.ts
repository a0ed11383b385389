import fp from 'fastify-plugin'
import type { Clock } from '#src/clock.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's one time source: sessions, tokens, timestamps, "today" (tests pass their own). */
    clock: Clock
  }
}

export interface ClockPluginOptions {
  clock: Clock
}

export default fp<ClockPluginOptions>(
  async (app, options) => {
    app.decorate('clock', options.clock)
  },
  { name: 'clock', fastify: '5.x' }
)
