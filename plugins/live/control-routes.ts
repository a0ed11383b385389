import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { LiveMakeCurrent, LiveState, LiveUndo } from '#schemas/live.js'
import { makeCurrent, undoLastTap } from './taps.js'

const Conflict = {
  ...ErrorResponse,
  description:
    'LIVE_VERSION_CONFLICT: the show moved on since `version` (another editor\'s tap stands); ' +
    'NOTHING_TO_UNDO (undo only)'
}

/** Undo and Make current: the editor's corrections on stage (taps.ts has the rules). */
const liveControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The revision-keyed view after the write, which the fan-out to the followers then reuses.
  const view = (gigId: number) => app.liveViews.state(gigId, app.dbRevision())

  app.post(
    '/gigs_lm/:id/undo',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['live'],
        summary: 'Undo the last tap of this gig, for everyone',
        description:
          'Reverts the latest tap that still stands — played, skip, rating, insert (the ' +
          'inserted song is removed) or make current; again, and it reverts the one before. ' +
          '`version` is the live version the editor saw: stale is 409. Answers the new live ' +
          'view; every phone follows through the event stream.',
        params: IdParams,
        body: LiveUndo,
        response: {
          200: LiveState,
          404: { ...ErrorResponse, description: 'Unknown gig' },
          409: Conflict
        }
      }
    },
    async (request) => {
      const gigId = request.params.id
      undoLastTap(app.db, gigId, request.body, request.user.id, app.clock())
      return view(gigId)
    }
  )

  app.post(
    '/gigs_lm/:id/current',
    {
      config: { access: 'editor' },
      schema: {
        tags: ['live'],
        summary: 'Make a setlist entry the current song (the band skipped ahead or went back)',
        description:
          'Every planned entry before it becomes skipped; the entry itself planned again (its ' +
          'rating cleared); entries after it stay. Undo reverts it. `version` is the live ' +
          'version the editor saw: stale is 409. Answers the new live view.',
        params: IdParams,
        body: LiveMakeCurrent,
        response: {
          200: LiveState,
          404: { ...ErrorResponse, description: 'Unknown gig or entry of another gig' },
          409: Conflict
        }
      }
    },
    async (request) => {
      const gigId = request.params.id
      makeCurrent(app.db, gigId, request.body, request.user.id, app.clock())
      return view(gigId)
    }
  )
}
export default liveControlRoutes
