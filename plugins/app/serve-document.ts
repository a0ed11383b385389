import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorBody } from '#src/errors.js'
import { etagMatches } from '#plugins/app/response-cache.js'
import { DOCUMENTS_PER_USER } from '#schemas/documents.js'
import { contentDisposition } from '#src/http/content-disposition.js'
import { CancelledError, DocumentQueue } from '#src/documents/queue.js'
import { DocumentWorkers } from '#src/documents/pool.js'

/**
 * Documents waiting for a worker. A band of ten opening every document of a gig at once stays
 * below it (identical requests share one render); beyond it a 60-song setlist would wait more than
 * ~1–2 s on two workers, so the 33rd is told to come back instead.
 */
export const DOCUMENT_QUEUE_WAITING = 32

export interface DocumentFile {
  body: Buffer
  fileName: string
  type: string
  disposition: 'inline' | 'attachment'
}

/**
 * Serves a generated document through the one queue of the server. `key` names the document
 * without the data revision (added here): identical requests of one revision share one render.
 * `render` runs when a worker is free, so the data is read then, not while waiting.
 */
export type ServeDocument = (
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  render: () => Promise<DocumentFile>,
  /**
   * An ETag of what the document is made of (not of its bytes, which carry the time they were
   * made): 304 without a render when If-None-Match names it.
   */
  etag?: string
) => Promise<FastifyReply>

declare module 'fastify' {
  interface FastifyInstance {
    /** The worker threads that render documents and decode logos (one pool per server). */
    documentWorkers: DocumentWorkers
    serveDocument: ServeDocument
  }
}

export default fp(
  async (app) => {
    const workers = new DocumentWorkers()
    app.decorate('documentWorkers', workers)
    // Idle workers end by themselves; on shutdown they must not outlive the server.
    app.addHook('onClose', async () => workers.close())

    const queue = new DocumentQueue<DocumentFile>({
      running: workers.threads,
      waiting: DOCUMENT_QUEUE_WAITING,
      perUser: DOCUMENTS_PER_USER
    })
    const serveDocument: ServeDocument = async (request, reply, key, render, etag) => {
      if (etag && etagMatches(request.headers['if-none-match'], etag, false)) {
        return reply.status(304).header('etag', etag).header('cache-control', 'private, no-cache')
          .send(undefined as never)
      }
      const revision = request.dbRevision ?? app.dbRevision()
      const userId = request.user.id
      const admission = queue.submit({ key: `${key}@${revision}`, userId, run: render })
      if ('refused' in admission) {
        const seconds = admission.retryAfterSeconds
        const body = admission.refused === 'queue'
          ? errorBody('DOCUMENTS_BUSY', `too many documents in preparation; retry in ${seconds} s`)
          : errorBody('RATE_LIMITED', `at most ${DOCUMENTS_PER_USER} documents per member at once`)
        return reply.status(body.statusCode).header('retry-after', String(seconds)).send(body)
      }
      // A client that goes away while waiting gives its place back.
      const onClose = () => {
        if (!reply.raw.writableFinished) admission.cancel()
      }
      reply.raw.once('close', onClose)
      try {
        const file = await admission.result
        // `?download=true` (DownloadQuery in the route's schema): saved instead of opened.
        const download = (request.query as { download?: boolean } | undefined)?.download === true
        const disposition = download ? 'attachment' : file.disposition
        if (etag) reply.header('etag', etag)
        return reply
          .type(file.type)
          .header('content-disposition', contentDisposition(disposition, file.fileName))
          .header('cache-control', 'private, no-cache')
          .send(file.body)
      } catch (error) {
        // Nobody is listening any more (nginx's "client closed request" in the request log).
        if (error instanceof CancelledError) return reply.status(499).send()
        throw error
      } finally {
        reply.raw.off('close', onClose)
      }
    }
    app.decorate('serveDocument', serveDocument)
  },
  { name: 'serve-document', fastify: '5.x', dependencies: ['errors'] }
)
