import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { notFound } from '#src/errors.js'
import type { LiveEvent } from '#plugins/app/live-bus.js'
import { loadLiveState } from './repository.js'

export interface SseOptions {
  /** Comment line that keeps proxies and phones from dropping an idle stream. */
  heartbeatMs?: number
}

/**
 * Logout and deactivation must reach open streams too; one indexed lookup per stream and second at
 * most.
 */
const SESSION_CHECK_MS = 1_000

const frame = (event: string, data: unknown, id?: number) =>
  `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`

/**
 * GET /gigs_lm/{id}/events: Server-Sent Events. `snapshot` (the whole live view, id = version)
 * first and after structural changes, `entry` ({ version, entry }) per live update, `deleted` when
 * the gig goes.
 */
const sseRoutes: FastifyPluginAsyncTypebox<SseOptions> = async (app, options) => {
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const open = new Set<() => void>()
  // Every follower of a gig gets the same event object: render each snapshot once, not once per
  // phone.
  const rendered = new WeakMap<LiveEvent, string | null>()

  const render = (gigId: number, event: LiveEvent): string | null => {
    const cached = rendered.get(event)
    if (cached !== undefined) return cached
    let text: string | null
    if (event.type === 'entry') {
      text = frame('entry', { version: event.version, entry: event.entry }, event.version)
    } else if (event.type === 'deleted') text = frame('deleted', { gigId })
    else {
      const state = loadLiveState(app.db, gigId, app.appSettings.get().timing)
      text = state ? frame('snapshot', state, state.version) : frame('deleted', { gigId })
    }
    rendered.set(event, text)
    return text
  }

  // Graceful shutdown: streams never end by themselves, so close them before the server waits for
  // them.
  const endAll = async () => {
    for (const end of [...open]) end()
  }
  app.addHook('preClose', endAll)
  app.addHook('onClose', endAll)

  app.get(
    '/gigs_lm/:id/events',
    {
      config: { access: 'member' },
      schema: {
        tags: ['live'],
        summary: 'Follow live mode as Server-Sent Events',
        description:
          'text/event-stream. Events: `snapshot` (the GET /gigs_lm/{id} body; sent ' +
          'first and after setlist changes or inserts), ' +
          '`entry` (`{ version, entry }` per live update), `deleted`. The SSE `id` ' +
          'is the live version: a reconnect with ' +
          '`Last-Event-ID` equal to the current version gets no snapshot, any other ' +
          'gets a fresh one. A `: heartbeat` comment every 15 s. ' +
          'After logout, session revocation or deactivation the stream sends `end` ' +
          '(`{ reason: "session ended" }`) instead of the next event or heartbeat and closes.',
        params: IdParams,
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String()) }),
        response: {
          200: Type.String({ description: 'text/event-stream' }),
          404: { ...ErrorResponse, description: 'Unknown gig' }
        }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      const state = loadLiveState(app.db, gigId, app.appSettings.get().timing)
      if (!state) throw notFound('gig', gigId)

      reply.hijack()
      const raw = reply.raw
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string | string[]>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff'
      })
      raw.write('retry: 3000\n\n')
      if (request.headers['last-event-id'] !== String(state.version)) {
        raw.write(frame('snapshot', state, state.version))
      }

      // The session was checked in onRequest; a stream outlives that check, so it is repeated
      // before each event and heartbeat (throttled), and the stream ends once the session or the
      // user is gone.
      const { id: userId, sessionId } = request.user
      let checkedAt = app.clock().getTime()
      const sessionLive = () => {
        const now = app.clock().getTime()
        if (now >= checkedAt && now - checkedAt < SESSION_CHECK_MS) return true
        checkedAt = now
        return app.isSessionLive(userId, sessionId)
      }
      const send = (text: string) => {
        if (sessionLive()) return raw.write(text)
        raw.write(frame('end', { reason: 'session ended' }))
        end()
      }

      let ended = false
      const cleanup = () => {
        if (ended) return
        ended = true
        unsubscribe()
        clearInterval(heartbeat)
        open.delete(end)
      }
      const end = () => {
        cleanup()
        raw.end()
      }
      const unsubscribe = app.liveBus.subscribe(gigId, (event) => {
        const text = render(gigId, event)
        if (text) send(text)
        if (event.type === 'deleted') end()
      })
      const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs)
      heartbeat.unref()
      open.add(end)
      raw.on('close', cleanup)
    }
  )
}
export default sseRoutes
