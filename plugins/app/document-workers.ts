import fp from 'fastify-plugin'
import { DocumentWorkers } from '#src/services/document-workers.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker threads that render documents and decode logos (one pool per server). */
    documentWorkers: DocumentWorkers
  }
}

export default fp(
  async (app) => {
    const workers = new DocumentWorkers()
    app.decorate('documentWorkers', workers)
    // Idle workers end by themselves; on shutdown they must not outlive the server.
    app.addHook('onClose', async () => workers.close())
  },
  { name: 'document-workers', fastify: '5.x' }
)
