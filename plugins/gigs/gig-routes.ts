import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  ErrorResponse,
  IdParams,
  NoContent,
  NotModified,
  StrictObject
} from '#schemas/common.js'
import { Gig, GigCreate, GigListQuery, GigPatch, type GigType } from '#schemas/gigs.js'
import { ApiError, badRequest, notFound } from '#src/errors.js'
import { todayIn } from '#shared/local-time.js'
import { findGig, iterateGigs, toGig } from '#src/repositories/gigs.js'
import { gigHasMoney } from '#src/repositories/gig-money.js'
import { jsonList } from '#src/http/json-list.js'
import { JSON_TYPE } from '#plugins/app/response-cache.js'
import { createGig, deleteGig, patchGig } from './repository.js'

const NotFound = { ...ErrorResponse, description: 'Unknown gig' }
const GigHasMoney = { ...ErrorResponse, description: 'The gig has money (GIG_HAS_MONEY)' }
const GigDeleteQuery = StrictObject({
  withMoney: Type.Optional(Type.Boolean({
    description: "confirms that the gig's fee and expenses are deleted with it"
  }))
})

/** Gig master data: list, create, read, change, delete. */
const gigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const checkKind = (kind: string | null | undefined) => {
    if (kind === undefined || kind === null) return
    const kinds = app.appSettings.get().gigKinds
    if (!kinds.includes(kind)) {
      throw badRequest(
        'INVALID_GIG_KIND',
        `kind must be one of the configured gig kinds: ${kinds.join(', ')}`
      )
    }
  }

  app.get(
    '/gigs',
    {
      config: { access: 'member', compress: false },
      schema: {
        tags: ['gigs'],
        summary: 'List gigs in date order',
        description:
          '`upcoming=true` keeps gigs from today on (band timezone); `from`/`to` ' +
          'are inclusive dates.',
        querystring: GigListQuery,
        response: { 200: Type.Array(Gig), 304: NotModified }
      }
    },
    async (request, reply) => {
      const today = todayIn(app.appSettings.get().timezone, app.clock())
      // Thousands of gigs: each written out as soon as it is serialized (see jsonList).
      const serializeGig = reply.compileSerializationSchema(Gig) as (gig: GigType) => string
      return app.sendCached(
        request,
        reply,
        `gigs@${today}?${JSON.stringify(request.query)}`,
        JSON_TYPE,
        () => jsonList(iterateGigs(app.db, app.sqlite, request.query, today), toGig, serializeGig)
      )
    }
  )

  app.post(
    '/gigs',
    {
      config: { access: 'editor' },
      schema: { tags: ['gigs'], summary: 'Create a gig', body: GigCreate, response: { 201: Gig } }
    },
    async (request, reply) => {
      checkKind(request.body.kind)
      const row = createGig(app.db, request.body, app.clock())
      app.notify(request.user.id, () => ({ type: 'gig.created', gig: row }))
      return reply.status(201).send(toGig(row))
    }
  )

  app.get(
    '/gigs/:id',
    {
      // With an ETag: the gig pack (web app, offline) refreshes it for a 304.
      config: { access: 'member', compress: false },
      schema: {
        tags: ['gigs'],
        summary: 'A gig with its master data',
        params: IdParams,
        response: { 200: Gig, 304: NotModified, 404: NotFound }
      }
    },
    async (request, reply) =>
      app.sendCachedJson(request, reply, `gig:${request.params.id}`, () => {
        const row = findGig(app.db, request.params.id)
        if (!row) throw notFound('gig', request.params.id)
        return toGig(row)
      })
  )

  app.patch(
    '/gigs/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Change a gig (omitted fields stay; null clears)',
        params: IdParams,
        body: GigPatch,
        response: { 200: Gig, 404: NotFound }
      }
    },
    async (request) => {
      checkKind(request.body.kind)
      const before = findGig(app.db, request.params.id)
      const row = patchGig(app.db, request.params.id, request.body, app.clock())
      if (!row) throw notFound('gig', request.params.id)
      const status = row.status
      if (before?.status !== status && (status === 'confirmed' || status === 'cancelled')) {
        app.notify(request.user.id, () => ({ type: `gig.${status}`, gig: row }))
      }
      return toGig(row)
    }
  )

  app.delete(
    '/gigs/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['gigs'],
        summary: 'Delete a gig with its setlist, running order and availability',
        description: 'A gig with a fee or expenses is 409 GIG_HAS_MONEY unless ' +
          '`withMoney=true` confirms that its money goes too.',
        params: IdParams,
        querystring: GigDeleteQuery,
        response: { 204: NoContent, 404: NotFound, 409: GigHasMoney }
      }
    },
    async (request, reply) => {
      const id = request.params.id
      if (request.query.withMoney !== true && gigHasMoney(app.db, id)) {
        throw new ApiError('GIG_HAS_MONEY',
          `gig ${id} has a fee or expenses: delete with withMoney=true to drop them too`)
      }
      // The gig's files go with it (their bytes when no other song or gig has them).
      if (!app.files.deleteOwner({ gigId: id }, () => deleteGig(app.db, id))) {
        throw notFound('gig', id)
      }
      return reply.status(204).send(null)
    }
  )
}
export default gigRoutes
