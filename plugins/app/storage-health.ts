import fp from 'fastify-plugin'
import { StorageHealth } from '#src/storage/storage-health.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed writes, free space, the write probe for /health (src/storage/storage-health.ts). */
    storageHealth: StorageHealth
  }
}

export interface StorageHealthPluginOptions {
  dataDir: string
  minFreeMb: number
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export default fp<StorageHealthPluginOptions>(
  async (app, options) => {
    const health = new StorageHealth({
      sqlite: app.sqlite,
      dataDir: options.dataDir,
      minFreeMb: options.minFreeMb,
      clock: app.clock,
      log: app.log
    })
    app.decorate('storageHealth', health)
    // A write request answered without error was stored: a failed one before it is history. (A
    // storage failure answers 503, see plugins/app/errors.ts.)
    app.addHook('onResponse', (request, reply, done) => {
      if (!SAFE_METHODS.has(request.method) && reply.statusCode < 400) {
        health.recordWriteSucceeded()
      }
      done()
    })
  },
  { name: 'storage-health', fastify: '5.x', dependencies: ['db', 'clock'] }
)
