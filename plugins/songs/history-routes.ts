import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { desc, eq } from '#src/db/orm.js'
import { ErrorResponse, IdParams } from '#schemas/common.js'
import { SongRehearsal, SongRehearsalQuery } from '#schemas/stats.js'
import { rehearsals, rehearsalSongs } from '#src/db/schema.js'
import { notFound } from '#src/errors.js'
import { findSong } from './repository.js'

/** GET /songs/{id}/rehearsals: the rehearsals a song was on, newest first. */
const songHistoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/songs/:id/rehearsals',
    {
      config: { access: 'member' },
      schema: {
        tags: ['songs'],
        summary: "A song's rehearsal history (planned ones included), newest first",
        params: IdParams,
        querystring: SongRehearsalQuery,
        response: {
          200: Type.Array(SongRehearsal),
          404: { ...ErrorResponse, description: 'Unknown song' }
        }
      }
    },
    async (request) => {
      if (!findSong(app.db, request.params.id)) throw notFound('song', request.params.id)
      return app.db
        .select({
          rehearsalId: rehearsals.id,
          date: rehearsals.date,
          startTime: rehearsals.startTime,
          endTime: rehearsals.endTime,
          location: rehearsals.location,
          notes: rehearsalSongs.notes,
          done: rehearsalSongs.done
        })
        .from(rehearsalSongs)
        .innerJoin(rehearsals, eq(rehearsals.id, rehearsalSongs.rehearsalId))
        .where(eq(rehearsalSongs.songId, request.params.id))
        .orderBy(desc(rehearsals.date), desc(rehearsals.startTime), desc(rehearsals.id))
        .limit(request.query.limit)
        .all()
    }
  )
}
export default songHistoryRoutes
