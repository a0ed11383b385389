import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { and, asc, eq } from 'drizzle-orm'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { Lineup, LineupPut, type LineupType } from '#schemas/lineup.js'
import { badRequest, notFound } from '#src/errors.js'
import type { Db } from '#src/db/client.js'
import { gigAvailability, gigLineup, users } from '#src/db/schema.js'
import { eventExists, availabilitySources } from '#src/repositories/availability.js'

/** Each need with who plays that instrument and what they answered (two statements). */
function loadLineup (db: Db, gigId: number): LineupType {
  const needs = db.select().from(gigLineup).where(eq(gigLineup.gigId, gigId))
    .orderBy(asc(gigLineup.position)).all()
  if (needs.length === 0) return { needs: [] }
  const players = db
    .select({
      userId: users.id,
      displayName: users.displayName,
      instruments: users.instruments,
      status: gigAvailability.status
    })
    .from(users)
    .leftJoin(gigAvailability, and(eq(gigAvailability.userId, users.id),
      eq(gigAvailability.gigId, gigId)))
    .where(and(eq(users.status, 'active'), eq(users.isMusician, true)))
    .orderBy(asc(users.displayName))
    .all()
  return {
    needs: needs.map((need) => {
      const wanted = need.instrument.toLowerCase()
      const plays = players.filter((p) => p.instruments.some((i) => i.toLowerCase() === wanted))
      const by = (status: string | null) => plays.filter((p) => p.status === status)
        .map((p) => ({ userId: p.userId, displayName: p.displayName }))
      const yes = by('yes')
      return {
        instrument: need.instrument,
        count: need.count,
        yes,
        maybe: by('maybe'),
        unanswered: by(null),
        no: by('no'),
        missing: Math.max(0, need.count - yes.length)
      }
    })
  }
}

/** What a gig needs by instrument, and who of the band covers it. */
const lineupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const NotFound = { ...ErrorResponse, description: 'Unknown gig' }
  const check = (id: number) => {
    if (!eventExists(app.db, availabilitySources.gig, id)) throw notFound('gig', id)
  }

  app.get('/gigs/:id/lineup', {
    config: { access: 'member' },
    schema: {
      tags: ['gigs'],
      summary: 'Per needed instrument: who said yes or maybe, who has not answered, what is open',
      params: IdParams,
      response: { 200: Lineup, 404: NotFound }
    }
  }, async (request) => {
    check(request.params.id)
    return loadLineup(app.db, request.params.id)
  })

  app.put('/gigs/:id/lineup', {
    config: { access: 'editor' },
    schema: {
      tags: ['gigs'],
      summary: 'Set what the gig needs (replaces the list; empty: no needs)',
      params: IdParams,
      body: LineupPut,
      response: { 200: Lineup, 400: ErrorResponse, 404: NotFound }
    }
  }, async (request) => {
    const { id } = request.params
    check(id)
    const names = request.body.needs.map((n) => n.instrument.trim().toLowerCase())
    if (new Set(names).size !== names.length) {
      throw badRequest('DUPLICATE_INSTRUMENT', 'each instrument once in a lineup')
    }
    app.db.transaction((tx) => {
      tx.delete(gigLineup).where(eq(gigLineup.gigId, id)).run()
      if (request.body.needs.length > 0) {
        tx.insert(gigLineup).values(request.body.needs.map((n, position) => ({
          gigId: id, position, instrument: n.instrument.trim(), count: n.count
        }))).run()
      }
    })
    return loadLineup(app.db, id)
  })
}
export default lineupRoutes
