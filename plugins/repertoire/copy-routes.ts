import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { SetlistCopy, SetlistCopyConflict } from '#schemas/repertoire.js'
import { Setlist } from '#schemas/setlists.js'
import { notFound } from '#src/errors.js'
import { loadSetlist } from '#src/repositories/setlists.js'
import {
  saveSetlist,
  SetlistVersionConflict,
  setsToInput
} from '#src/repositories/setlist-writes.js'
import { loadRepertoire } from './repository.js'

/** POST /gigs/{id}/setlist/copy: a repertoire setlist into a gig's setlist, in one call. */
const copyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const timing = () => app.appSettings.get().timing

  app.post(
    '/gigs/:id/setlist/copy',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: "Copy a repertoire setlist into the gig's setlist (replace or append)",
        description:
          'One save with the rules of PUT /gigs/{id}/setlist: `version` is the gig setlist’s ' +
          '(stale: 409 with `current`); retired songs in the programme are 400 SONG_RETIRED; ' +
          'more than 20 sets after appending is 409 LIMIT_REACHED, more entries than a ' +
          'setlist holds 400 SETLIST_TOO_LONG.',
        params: IdParams,
        body: SetlistCopy,
        response: {
          200: Setlist,
          400: { ...ErrorResponse, description: 'Retired songs, or too long after appending' },
          404: { ...ErrorResponse, description: 'Unknown gig or repertoire setlist' },
          409: SetlistCopyConflict
        }
      }
    },
    async (request, reply) => {
      const gigId = request.params.id
      const { repertoireId, version, mode = 'replace' } = request.body
      const current = loadSetlist(app.db, gigId, timing())
      if (!current) throw notFound('gig', gigId)
      const programme = loadRepertoire(app.db, repertoireId, timing())
      if (!programme) throw notFound('repertoire setlist', repertoireId)
      const sets = [
        ...(mode === 'append' ? setsToInput(current.sets, true) : []),
        ...setsToInput(programme.sets, false)
      ]
      try {
        saveSetlist(app.db, gigId, { version, sets })
      } catch (error) {
        if (!(error instanceof SetlistVersionConflict)) throw error
        return reply.status(409).send(error.withCurrent(loadSetlist(app.db, gigId, timing())!))
      }
      return loadSetlist(app.db, gigId, timing())!
    }
  )
}
export default copyRoutes
