import { and, asc, eq, gte, inArray, notExists, sql } from '#src/db/orm.js'
import type { TodosType } from '#schemas/todos.js'
import type { Db } from '#src/db/client.js'
import {
  gigAsked,
  gigAvailability,
  gigChecklistItems,
  gigs,
  rehearsalAvailability,
  rehearsals,
  songs,
  songVotes,
  surveyAnswers,
  surveys,
  users
} from '#src/db/schema.js'
import { openCondition } from '#src/repositories/surveys.js'

/**
 * What a member still owes the band: six statements, whatever the size of the band's history.
 * `today` is the band's date (rehearsals and gigs from then on), `now` decides open surveys. An
 * occasional member owes answers only to the gigs they were asked for.
 */
export function loadTodos (db: Db, userId: number, now: Date, today: string): TodosType {
  const occasional = db.select({ occasional: users.occasional }).from(users)
    .where(eq(users.id, userId)).get()?.occasional === true
  const owesBand = occasional ? sql`0` : undefined
  const askedGigs = db.select({ id: gigAsked.gigId }).from(gigAsked)
    .where(eq(gigAsked.userId, userId))
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
        owesBand,
        openCondition(now.toISOString()),
        notExists(
          db
            .select({ one: surveyAnswers.surveyId })
            .from(surveyAnswers)
            .where(and(eq(surveyAnswers.surveyId, surveys.id), eq(surveyAnswers.userId, userId)))
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
        owesBand,
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
        occasional ? inArray(gigs.id, askedGigs) : undefined,
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
  // Open checklist items assigned to me, of gigs that still lie ahead and are not off.
  const checklist = db
    .select({
      id: gigChecklistItems.id,
      gigId: gigs.id,
      gigName: gigs.name,
      gigDate: gigs.date,
      title: gigChecklistItems.title,
      category: gigChecklistItems.category,
      dueAt: gigChecklistItems.dueAt
    })
    .from(gigChecklistItems)
    .innerJoin(gigs, eq(gigs.id, gigChecklistItems.gigId))
    .where(
      and(
        eq(gigChecklistItems.assigneeId, userId),
        eq(gigChecklistItems.done, false),
        gte(gigs.date, today),
        inArray(gigs.status, ['inquiry', 'confirmed'])
      )
    )
    .orderBy(
      sql`${gigChecklistItems.dueAt} IS NULL`,
      asc(gigChecklistItems.dueAt),
      asc(gigs.date),
      asc(gigChecklistItems.position)
    )
    .all()
  return {
    surveys: openSurveys,
    songs: proposed,
    rehearsals: openRehearsals,
    gigs: openGigs,
    checklist,
    total:
      openSurveys.length +
      proposed.length +
      openRehearsals.length +
      openGigs.length +
      checklist.length
  }
}
