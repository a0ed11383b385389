import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NotModified } from '#schemas/common.js'
import { Availability, AvailabilityAnswer, AvailabilityPut } from '#schemas/availability.js'
import { conflict, notFound } from '#src/errors.js'
import {
  availabilitySources,
  eventExists,
  loadAvailability,
  saveAvailability,
  type AvailabilityEvent
} from '#src/repositories/availability.js'

export interface AvailabilityRoutesOptions {
  /** Path of the event collection, e.g. `/gigs`. */
  path: string
  /** The kind of event; also the resource name of the 404 (`gig` → GIG_NOT_FOUND). */
  resource: AvailabilityEvent
  tag: 'gigs' | 'rehearsals'
}

/**
 * GET/PUT `{path}/{id}/availability` for one kind of event: everyone reads, each member answers for
 * themself.
 */
export function availabilityRoutes (options: AvailabilityRoutesOptions): FastifyPluginAsyncTypebox {
  const { path, resource, tag } = options
  const source = availabilitySources[resource]
  const NotFound = { ...ErrorResponse, description: `Unknown ${resource}` }
  return async (app) => {
    const check = (id: number) => {
      if (!eventExists(app.db, source, id)) throw notFound(resource, id)
    }

    app.get(
      `${path}/:id/availability`,
      {
        // With an ETag: the gig pack (web app, offline) refreshes it for a 304.
        config: { access: 'member', compress: false },
        schema: {
          tags: [tag],
          summary: "Everyone's availability and a summary over the active musicians",
          params: IdParams,
          response: { 200: Availability, 304: NotModified, 404: NotFound }
        }
      },
      async (request, reply) =>
        app.sendCachedJson(request, reply, `${resource}-availability:${request.params.id}`, () => {
          check(request.params.id)
          return loadAvailability(app.db, source, request.params.id)
        })
    )

    app.put(
      `${path}/:id/availability`,
      {
        config: { access: 'member' },
        schema: {
          tags: [tag],
          summary: 'Set your own availability (upsert)',
          params: IdParams,
          body: AvailabilityPut,
          response: { 200: AvailabilityAnswer, 404: NotFound, 409: ErrorResponse }
        }
      },
      async (request) => {
        check(request.params.id)
        const editor = app.hasRole(request.user, 'editor')
        if (!editor && app.memberMail.answersClosed(resource, request.params.id)) {
          throw conflict('ANSWERS_CLOSED', 'answers are closed (deadline over or locked)')
        }
        return saveAvailability(
          app.db,
          source,
          request.params.id,
          request.user.id,
          request.body,
          app.clock()
        )
      }
    )
  }
}
