import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { ApiError, notFound } from '#src/errors.js'
import { setSecurityHeaders } from '#plugins/app/security.js'

/** Seconds a client refused for a full server is asked to wait (it can poll meanwhile). */
const FULL_RETRY_AFTER_SECONDS = 30

/**
 * GET /gigs_lm/{id}/events: Server-Sent Events. A `snapshot` (the whole live view; its id is the
 * view's tag, the opaque part of the poll's ETag) first and after every change of the view,
 * whatever changed it; `deleted` when the gig goes; `end` when the stream is closed for a reason.
 * The streams themselves live in plugins/app/live-views.ts.
 */
const sseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { followers } = app.liveViews

  app.get(
    '/gigs_lm/:id/events',
    {
      config: { access: 'member' },
      schema: {
        tags: ['live'],
        summary: 'Follow live mode as Server-Sent Events',
        description:
          'text/event-stream. `snapshot`: the GET /gigs_lm/{id} body, sent first and ' +
          'after every change of it (an entry, the setlist, the gig, a song, the timing ' +
          'settings); its `id` is the opaque part of the GET answer\'s ETag. A reconnect ' +
          'with `Last-Event-ID` equal to the current id gets no snapshot, any other gets ' +
          'one. `deleted` (`{ gigId }`) when the gig is deleted, then the stream ends. ' +
          '`end` (`{ reason }`) before the server closes a stream: `session ended` (logout, ' +
          'revocation, deactivation) or `replaced` (the session or user opened more ' +
          'streams than allowed; do not reconnect). A `: heartbeat` comment every 15 s.',
        params: IdParams,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String()) }),
        response: {
          200: Type.String({ description: 'text/event-stream' }),
          404: { ...ErrorResponse, description: 'Unknown gig' },
          429: { ...ErrorResponse, description: 'The server holds as many streams as it may' }
        }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      const snapshot = app.liveViews.snapshot(gigId, app.dbRevision())
      if (!snapshot) throw notFound('gig', gigId)
      const { id: userId, sessionId } = request.user
      if (!followers.makeRoom(userId, sessionId)) {
        reply.header('retry-after', String(FULL_RETRY_AFTER_SECONDS))
        throw new ApiError('TOO_MANY_STREAMS', 'the server follows as many live streams as it may')
      }

      // Hijacked: no onSend hook runs, so the security headers are set here.
      setSecurityHeaders(reply)
      reply.hijack()
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string | string[]>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // The connection ends with the stream: an ended stream (replaced, slow, deleted) frees it.
        connection: 'close',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff'
      })
      followers.add(
        reply.raw,
        { userId, sessionId, gigId },
        snapshot,
        request.headers['last-event-id']
      )
    }
  )
}
export default sseRoutes
