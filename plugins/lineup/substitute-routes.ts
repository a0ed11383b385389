import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { and, count, eq } from '#src/db/orm.js'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import {
  AskedParams,
  AskedPost,
  Lineup,
  SubstituteParams,
  SubstitutePost
} from '#schemas/lineup.js'
import { ApiError, badRequest, notFound } from '#src/errors.js'
import { gigAsked, gigSubstitutes } from '#src/db/schema.js'
import { LINEUP_LIMITS } from '#shared/limits.js'
import { findUserById } from '#src/repositories/users.js'
import { eventExists, availabilitySources } from '#src/repositories/availability.js'
import { mailAsked } from '#plugins/notifications/occasional.js'
import { loadLineup } from './repository.js'

// Who plays a gig beyond the band's regulars: occasional members (subs with a login) an editor
// asks for it, and substitutes without a login named on it.

const substituteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const NotFound = { ...ErrorResponse, description: 'Unknown gig, member or substitute' }
  const check = (id: number) => {
    if (!eventExists(app.db, availabilitySources.gig, id)) throw notFound('gig', id)
  }

  app.post('/gigs/:id/asked', {
    config: { access: 'editor' },
    schema: {
      tags: ['gigs'],
      summary: 'Ask an occasional member to play this gig: they are mailed and count for it',
      description: 'Asking again changes nothing. Regular members hear of every gig anyway ' +
        '(400 NOT_OCCASIONAL).',
      params: IdParams,
      body: AskedPost,
      response: { 200: Lineup, 400: ErrorResponse, 404: NotFound }
    }
  }, async (request) => {
    const { id } = request.params
    check(id)
    const user = findUserById(app.db, request.body.userId)
    if (!user) throw notFound('user', request.body.userId)
    if (!user.occasional || user.status !== 'active') {
      throw badRequest('NOT_OCCASIONAL', 'only active occasional members are asked for a gig')
    }
    const site = app.memberMail.site
    const mailed = app.db.transaction((tx) => {
      const added = tx.insert(gigAsked)
        .values({ gigId: id, userId: user.id, createdAt: app.clock().toISOString() })
        .onConflictDoNothing().run().changes
      if (added === 0 || !site) return 0
      return mailAsked(tx, id, user.id, { now: app.clock(), settings: app.appSettings.get(), site })
    })
    if (mailed > 0) void app.memberMail.worker?.kick()
    return loadLineup(app.db, id)
  })

  app.delete('/gigs/:id/asked/:userId', {
    config: { access: 'editor' },
    schema: {
      tags: ['gigs'],
      summary: 'No longer ask an occasional member for this gig',
      params: AskedParams,
      response: { 200: Lineup, 404: NotFound }
    }
  }, async (request) => {
    const { id, userId } = request.params
    check(id)
    const removed = app.db.delete(gigAsked)
      .where(and(eq(gigAsked.gigId, id), eq(gigAsked.userId, userId))).run().changes
    if (removed === 0) {
      throw new ApiError('NOT_ASKED', `member ${userId} is not asked for gig ${id}`)
    }
    return loadLineup(app.db, id)
  })

  app.post('/gigs/:id/substitutes', {
    config: { access: 'editor' },
    schema: {
      tags: ['gigs'],
      summary: 'Name a substitute without a login on this gig: they count for the lineup',
      params: IdParams,
      body: SubstitutePost,
      response: { 201: Lineup, 400: ErrorResponse, 404: NotFound }
    }
  }, async (request, reply) => {
    const { id } = request.params
    check(id)
    const contact = request.body.contact?.trim()
    app.db.transaction((tx) => {
      const named = tx.select({ n: count() }).from(gigSubstitutes)
        .where(eq(gigSubstitutes.gigId, id)).get()!.n
      if (named >= LINEUP_LIMITS.substitutes) {
        throw badRequest('TOO_MANY_SUBSTITUTES',
          `at most ${LINEUP_LIMITS.substitutes} substitutes on a gig`)
      }
      tx.insert(gigSubstitutes).values({
        gigId: id,
        name: request.body.name.trim(),
        instrument: request.body.instrument.trim(),
        contact: contact || null,
        createdAt: app.clock().toISOString()
      }).run()
    })
    return reply.status(201).send(loadLineup(app.db, id))
  })

  app.delete('/gigs/:id/substitutes/:substituteId', {
    config: { access: 'editor' },
    schema: {
      tags: ['gigs'],
      summary: 'Remove a substitute from this gig',
      params: SubstituteParams,
      response: { 200: Lineup, 404: NotFound }
    }
  }, async (request) => {
    const { id, substituteId } = request.params
    check(id)
    const removed = app.db.delete(gigSubstitutes)
      .where(and(eq(gigSubstitutes.gigId, id), eq(gigSubstitutes.id, substituteId))).run().changes
    if (removed === 0) {
      throw new ApiError('SUBSTITUTE_NOT_FOUND',
        `substitute ${substituteId} not found on gig ${id}`)
    }
    return loadLineup(app.db, id)
  })
}
export default substituteRoutes
