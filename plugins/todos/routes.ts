import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { and, asc, eq, gte, inArray, notExists } from 'drizzle-orm'
import { Todos } from '#schemas/todos.js'
import {
  gigAvailability,
  gigs,
  rehearsalAvailability,
  rehearsals,
  songs,
  songVotes,
  surveyAnswers,
  surveys
} from '#src/db/schema.js'
import { todayIn } from '#src/services/local-time.js'
import { openCondition } from '#plugins/surveys/repository.js'

/** GET /me/todos: four statements, whatever the size of the band's history. */
const todoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me/todos',
    {
      config: { access: 'member' },
      schema: {
        tags: ['sessions'],
        summary:
          'What I still owe the band: survey answers, song votes, rehearsal and gig availability',
        response: { 200: Todos }
      }
    },
    async (request) => {
      const userId = request.user.id
      const now = app.clock()
      const today = todayIn(app.appSettings.get().timezone, now)
      const db = app.db
      const openSurveys = db
        .select({
          id: surveys.id,
          title: surveys.title,
          kind: surveys.kind,
          closesAt: surveys.closesAt
        })
        .from(surveys)
        .where(
          and(
            openCondition(now.toISOString()),
            notExists(
              db
                .select({ one: surveyAnswers.surveyId })
                .from(surveyAnswers)
                .where(
                  and(eq(surveyAnswers.surveyId, surveys.id), eq(surveyAnswers.userId, userId))
                )
            )
          )
        )
        .orderBy(asc(surveys.createdAt), asc(surveys.id))
        .all()
      const proposed = db
        .select({ id: songs.id, title: songs.title, artist: songs.artist })
        .from(songs)
        .where(
          and(
            eq(songs.status, 'proposed'),
            notExists(
              db
                .select({ one: songVotes.songId })
                .from(songVotes)
                .where(and(eq(songVotes.songId, songs.id), eq(songVotes.userId, userId)))
            )
          )
        )
        .orderBy(asc(songs.createdAt), asc(songs.id))
        .all()
      const openRehearsals = db
        .select({
          id: rehearsals.id,
          date: rehearsals.date,
          startTime: rehearsals.startTime,
          endTime: rehearsals.endTime,
          location: rehearsals.location
        })
        .from(rehearsals)
        .where(
          and(
            gte(rehearsals.date, today),
            notExists(
              db
                .select({ one: rehearsalAvailability.rehearsalId })
                .from(rehearsalAvailability)
                .where(
                  and(
                    eq(rehearsalAvailability.rehearsalId, rehearsals.id),
                    eq(rehearsalAvailability.userId, userId)
                  )
                )
            )
          )
        )
        .orderBy(asc(rehearsals.date), asc(rehearsals.startTime), asc(rehearsals.id))
        .all()
      const openGigs = db
        .select({
          id: gigs.id,
          name: gigs.name,
          date: gigs.date,
          startTime: gigs.startTime,
          status: gigs.status
        })
        .from(gigs)
        .where(
          and(
            gte(gigs.date, today),
            inArray(gigs.status, ['inquiry', 'confirmed']),
            notExists(
              db
                .select({ one: gigAvailability.gigId })
                .from(gigAvailability)
                .where(and(eq(gigAvailability.gigId, gigs.id), eq(gigAvailability.userId, userId)))
            )
          )
        )
        .orderBy(asc(gigs.date), asc(gigs.startTime), asc(gigs.id))
        .all()
      return {
        surveys: openSurveys,
        songs: proposed,
        rehearsals: openRehearsals,
        gigs: openGigs,
        total: openSurveys.length + proposed.length + openRehearsals.length + openGigs.length
      }
    }
  )
}
export default todoRoutes
