import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from '#src/db/orm.js'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { Lineup, LineupGaps, LineupGapsQuery, LineupPut } from '#schemas/lineup.js'
import { badRequest, notFound } from '#src/errors.js'
import { gigLineup } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { eventExists, availabilitySources } from '#src/repositories/availability.js'
import { listGigs } from '#src/repositories/gigs.js'
import { loadLineup, loadLineups } from './repository.js'
import substituteRoutes from './substitute-routes.js'

/** What a gig needs by instrument, and who of the band covers it. */
const lineupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const NotFound = { ...ErrorResponse, description: 'Unknown gig' }
  const check = (id: number) => {
    if (!eventExists(app.db, availabilitySources.gig, id)) throw notFound('gig', id)
  }

  app.get('/gigs/lineup-gaps', {
    config: { access: 'member' },
    schema: {
      tags: ['gigs'],
      summary: 'The gigs of a list (same filters as GET /gigs) whose lineup has an open need',
      description: 'One answer for a whole list, so a list never asks gig by gig.',
      querystring: LineupGapsQuery,
      response: { 200: LineupGaps }
    }
  }, async (request) => {
    const today = todayIn(app.appSettings.get().timezone, app.clock())
    const listed = listGigs(app.db, request.query, today)
    const lineups = loadLineups(app.db, listed.map((g) => g.id))
    return {
      gigs: listed.flatMap((gig) => {
        const open = lineups.get(gig.id)!.needs.filter((n) => n.missing > 0).map((n) => ({
          instrument: n.instrument,
          missing: n.missing,
          confirmed: n.yes.length + n.substitutes.length
        }))
        return open.length > 0 ? [{ gigId: gig.id, date: gig.date, open }] : []
      })
    }
  })

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

  await app.register(substituteRoutes)
}
export default lineupRoutes
