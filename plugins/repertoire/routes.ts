import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import {
  Repertoire,
  RepertoireConflict,
  RepertoireCreate,
  RepertoirePatch,
  RepertoireSummary
} from '#schemas/repertoire.js'
import { SetlistPut } from '#schemas/setlists.js'
import { notFound } from '#src/errors.js'
import { loadSetlist } from '#src/repositories/setlists.js'
import { SetlistVersionConflict, setsToInput } from '#src/repositories/setlist-writes.js'
import {
  createRepertoire,
  deleteRepertoire,
  listRepertoire,
  loadRepertoire,
  patchRepertoire,
  saveRepertoireSets
} from './repository.js'
import copyRoutes from './copy-routes.js'
import documentRoutes from './document-routes.js'

const NotFound = { ...ErrorResponse, description: 'Unknown repertoire setlist' }
const TAGS = ['repertoire']

/**
 * Repertoire setlists: the band's standard programmes, independent of any gig. Everyone reads,
 * editors write; the sets are edited exactly like a gig setlist.
 */
const repertoireRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const timing = () => app.appSettings.get().timing
  const load = (id: number) => {
    const list = loadRepertoire(app.db, id, timing())
    if (!list) throw notFound('repertoire setlist', id)
    return list
  }

  app.get(
    '/repertoire',
    {
      config: { access: 'member' },
      schema: {
        tags: TAGS,
        summary: 'All repertoire setlists by name, with set and song counts and length',
        response: { 200: Type.Array(RepertoireSummary) }
      }
    },
    async () => listRepertoire(app.db, timing(), app.appSettings.get().locale)
  )

  app.post(
    '/repertoire',
    {
      config: { access: 'editor' },
      schema: {
        tags: TAGS,
        summary: 'Create a repertoire setlist, empty, with sets, or as a copy of a gig setlist',
        description:
          '`fromGigId` copies that gig’s sets and entries (not its live record). Names are ' +
          'unique ignoring case (409 REPERTOIRE_NAME_TAKEN); at most 100 lists ' +
          '(409 LIMIT_REACHED).',
        body: RepertoireCreate,
        response: { 201: Repertoire, 404: ErrorResponse, 409: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { fromGigId, ...body } = request.body
      if (fromGigId !== undefined) {
        const gig = loadSetlist(app.db, fromGigId, timing())
        if (!gig) throw notFound('gig', fromGigId)
        body.sets = [...setsToInput(gig.sets, false), ...(body.sets ?? [])]
      }
      const id = createRepertoire(app.db, body, app.clock())
      return reply.status(201).send(load(id))
    }
  )

  app.get(
    '/repertoire/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: TAGS,
        summary: 'A repertoire setlist with its sets, entries and timing',
        params: IdParams,
        response: { 200: Repertoire, 404: NotFound }
      }
    },
    async (request) => load(request.params.id)
  )

  app.patch(
    '/repertoire/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: TAGS,
        summary: 'Rename a repertoire setlist or change its notes',
        params: IdParams,
        body: RepertoirePatch,
        response: { 200: Repertoire, 404: NotFound, 409: ErrorResponse }
      }
    },
    async (request) => {
      if (!patchRepertoire(app.db, request.params.id, request.body, app.clock())) {
        throw notFound('repertoire setlist', request.params.id)
      }
      return load(request.params.id)
    }
  )

  app.put(
    '/repertoire/:id/setlist',
    {
      config: { access: 'editor' },
      schema: {
        tags: TAGS,
        summary: 'Replace the sets and entries (send the version it is based on)',
        description:
          'Exactly the rules of PUT /gigs/{id}/setlist: ids keep rows, left-out ones are ' +
          'deleted, unknown songs, foreign ids and newly added retired songs are 400 and ' +
          'change nothing, a stale `version` is 409 with the current list in `current`.',
        params: IdParams,
        body: SetlistPut,
        response: { 200: Repertoire, 404: NotFound, 409: RepertoireConflict }
      }
    },
    async (request, reply) => {
      const { id } = request.params
      try {
        saveRepertoireSets(app.db, id, request.body, app.clock())
      } catch (error) {
        if (!(error instanceof SetlistVersionConflict)) throw error
        return reply.status(409).send(error.withCurrent(load(id)))
      }
      return load(id)
    }
  )

  app.delete(
    '/repertoire/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: TAGS,
        summary: 'Delete a repertoire setlist (gig setlists copied from it stay)',
        params: IdParams,
        response: { 204: NoContent, 404: NotFound }
      }
    },
    async (request, reply) => {
      if (!deleteRepertoire(app.db, request.params.id)) {
        throw notFound('repertoire setlist', request.params.id)
      }
      return reply.status(204).send(null)
    }
  )

  await app.register(copyRoutes)
  await app.register(documentRoutes)
}
export default repertoireRoutes
