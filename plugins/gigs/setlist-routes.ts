import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import { Setlist, SetlistConflict, SetlistPut } from '#schemas/setlists.js'
import { notFound } from '#src/errors.js'
import { loadSetlist } from '#src/repositories/setlists.js'
import { saveSetlist, SetlistVersionConflict } from '#src/repositories/setlist-writes.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }

/** The setlist of a gig: read with timing, replace as a whole with optimistic concurrency. */
const setlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const timing = () => app.appSettings.get().timing

  app.get(
    '/gigs/:id/setlist',
    {
      config: { access: 'member', compress: false },
      schema: {
        tags: ['gigs'],
        summary: 'The setlist with its computed timing',
        params: IdParams,
        response: { 200: Setlist, 304: NotModified, 404: NotFound }
      }
    },
    async (request, reply) =>
      app.sendCachedJson(request, reply, `setlist:${request.params.id}`, () => {
        const setlist = loadSetlist(app.db, request.params.id, timing())
        if (!setlist) throw notFound('gig', request.params.id)
        return setlist
      })
  )

  app.put(
    '/gigs/:id/setlist',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Replace the whole setlist (send the version it is based on)',
        description:
          'Sets and entries that keep their `id` are updated in place (entries keep ' +
          'their live state); those left out are deleted; ' +
          'new ones have no `id`. Unknown songs, foreign ids and newly added retired ' +
          'songs are 400 and change nothing. ' +
          'An entry is a song (`songId`) or a free-text entry (`title`: a speech, the first ' +
          'dance; no song, never in the GEMA report); both or neither is 400 ' +
          'ENTRY_SONG_OR_TITLE. ' +
          'A stale `version` is 409 with the current setlist in `current`.',
        params: IdParams,
        body: SetlistPut,
        response: { 200: Setlist, 404: NotFound, 409: SetlistConflict }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      try {
        saveSetlist(app.db, gigId, request.body)
      } catch (error) {
        if (!(error instanceof SetlistVersionConflict)) throw error
        const current = loadSetlist(app.db, gigId, timing())
        if (!current) throw notFound('gig', gigId)
        return reply.status(409).send(error.withCurrent(current))
      }
      const setlist = loadSetlist(app.db, gigId, timing())
      if (!setlist) throw notFound('gig', gigId)
      return setlist
    }
  )
}
export default setlistRoutes
