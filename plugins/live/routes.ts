import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import {
  LiveInsert,
  LiveState,
  LiveUpdate,
  LiveUpdateResult,
  type LiveStateType
} from '#schemas/live.js'
import { SetlistEntry } from '#schemas/setlists.js'
import { notFound } from '#src/errors.js'
import { JSON_TYPE } from '#plugins/app/response-cache.js'
import { insertLiveEntry, updateLiveEntry } from './repository.js'
import sseRoutes from './sse-routes.js'
import liveControlRoutes from './control-routes.js'

const Stale = {
  ...ErrorResponse,
  description: 'LIVE_VERSION_CONFLICT: the entry changed since `version` (their state stands)'
}
const NotFound = { ...ErrorResponse, description: 'Unknown gig, entry or set' }

/** An entry of a live view; undefined when its setlist has none of that id. */
const entryOf = (view: LiveStateType, entryId: number) =>
  view.sets.flatMap((set) => set.entries).find((entry) => entry.id === entryId)

/** Live mode on stage: the band leader steps through the setlist, every phone follows. */
const liveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A tap answers from the revision-keyed live view after its write: the same rendering the
  // fan-out to the followers then finds in the response cache (plugins/app/live-views.ts), so the
  // view is built once per tap.
  const viewNow = (gigId: number) => app.liveViews.state(gigId, app.dbRevision())

  app.get(
    '/gigs_lm/:id',
    {
      config: { access: 'member', compress: false },
      schema: {
        tags: ['live'],
        summary: 'The live view of a gig (poll with If-None-Match)',
        description:
          'The response carries an `ETag`; sending it back in `If-None-Match` answers ' +
          '304 without a body while nothing changed.',
        params: IdParams,
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String()) }),
        response: { 200: LiveState, 304: NotModified, 404: NotFound }
      }
    },
    // Every phone polls this once a second: served from the response cache until something is
    // written; the same bytes the event streams send (plugins/app/live-views.ts).
    async (request, reply) =>
      app.responseCache.send(
        request,
        reply,
        app.liveViews.answer(request.params.id, request.dbRevision ?? app.dbRevision()),
        JSON_TYPE
      )
  )

  app.put(
    // Declared as the seed writes it; ignoreTrailingSlash serves /gigs_lm/{id} as well.
    '/gigs_lm/:id/',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['live'],
        summary: "Update an entry's live status and rating (also without the trailing slash)",
        description:
          'Omitted fields stay; `rating: null` clears it. Skipping clears the rating; ' +
          'rating a skipped entry is 409. ' +
          'An entry of another gig is 404. Returns the entry and the new version. With ' +
          '`version` (the live version the tap was made on) a tap on an entry another editor ' +
          'changed since is 409 LIVE_VERSION_CONFLICT; a replayed `idempotencyKey` is not ' +
          'applied again and answers the entry as it is.',
        params: IdParams,
        body: LiveUpdate,
        response: {
          200: LiveUpdateResult,
          404: NotFound,
          409: {
            ...ErrorResponse,
            description: 'ENTRY_SKIPPED: rating a skipped entry; LIVE_VERSION_CONFLICT: stale tap'
          }
        }
      }
    },
    async (request) => {
      const gigId = request.params.id
      const version = updateLiveEntry(app.db, gigId, request.body, app.clock(), request.user.id)
      const entry = entryOf(viewNow(gigId), request.body.entryId)
      if (!entry) throw notFound('setlist entry', request.body.entryId)
      return { entry, version }
    }
  )

  app.post(
    '/gigs_lm/:id/insert',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['live'],
        summary: 'Insert an unplanned song into a set during the show',
        description:
          'After `afterEntryId` (an entry of that set), else at the end of the set. ' +
          'The new entry has `inserted: true`. With `version`, an insert after an entry another ' +
          'editor changed since is 409; a replayed `idempotencyKey` is 200 with the live view.',
        params: IdParams,
        body: LiveInsert,
        response: {
          200: { ...LiveState, description: 'A replayed idempotency key: nothing inserted again' },
          201: SetlistEntry,
          404: NotFound,
          409: Stale
        }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      const body = request.body
      const userId = request.user.id
      const { entryId, replayed } = insertLiveEntry(app.db, gigId, body, app.clock(), userId)
      const view = viewNow(gigId)
      if (replayed) return reply.status(200).send(view)
      const entry = entryOf(view, entryId)
      if (!entry) throw notFound('setlist entry', entryId)
      return reply.status(201).send(entry)
    }
  )

  await app.register(sseRoutes)
  await app.register(liveControlRoutes)
}
export default liveRoutes
