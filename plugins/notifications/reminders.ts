import { and, eq, inArray, isNotNull, isNull, ne, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, rehearsals, surveyAnswers, surveys, users } from '#src/db/schema.js'
import { availabilitySources } from '#src/repositories/availability.js'
import { expectedForBand, expectedForGig } from '#src/repositories/occasional.js'
import { todayIn } from '#shared/local-time.js'
import type { EditableAppConfigType } from '#schemas/app-config.js'
import { buildMails, type MailSite, type Recipient } from './mails.js'
import { enqueueMails } from './outbox.js'
import type { MemberPush } from './push.js'
import { gigEvent, rehearsalEvent, type EventChange } from './watch.js'
import {
  answersClosed,
  deadlineEnd,
  dueJobs,
  loadDeadlines,
  markJobsDone,
  type AnswerKind
} from './deadlines.js'

// Reminders to the members who have not answered: by an editor now, or by the planned jobs. One a
// day per member and event at most (the mail's idempotency key names the day).

const activeWithAddress = and(
  eq(users.status, 'active'),
  isNotNull(users.email),
  ne(users.email, '')
)

/** Active musicians with an address who have not answered, with the event (one statement). */
function unanswered (db: Db, kind: AnswerKind, eventIds: number[]) {
  const { table, eventId, events } = availabilitySources[kind]
  if (eventIds.length === 0) return []
  return db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: sql<string>`${users.email}`,
      isMusician: users.isMusician,
      eventId: events.id
    })
    .from(users)
    .innerJoin(events, inArray(events.id, eventIds))
    .leftJoin(table, and(eq(eventId, events.id), eq(table.userId, users.id)))
    .where(and(activeWithAddress, eq(users.isMusician, true), isNull(table.userId),
      kind === 'gig' ? expectedForGig(events.id) : expectedForBand))
    .all()
}

export interface ReminderContext {
  now: Date
  settings: EditableAppConfigType
  site: MailSite
  /** The same reminders to the members' phones. */
  push?: Pick<MemberPush, 'queue'>
}

/**
 * Queues reminders for events of one kind to everyone who has not answered (`only`: just these
 * members); answers how many mails were queued.
 */
export function remindEvents (
  db: Db,
  kind: AnswerKind,
  eventIds: number[],
  context: ReminderContext,
  only?: Set<number>
): number {
  if (eventIds.length === 0) return 0
  const { now, settings } = context
  const seen = todayIn(settings.timezone, now)
  const reason = 'reminder' as const
  const changes: EventChange[] = kind === 'gig'
    ? db.select().from(gigs).where(inArray(gigs.id, eventIds)).all()
      .map((row) => ({ kind, reason, seen, event: gigEvent(row), row }))
    : db.select().from(rehearsals).where(inArray(rehearsals.id, eventIds)).all()
      .map((row) => ({ kind, reason, seen, event: rehearsalEvent(row), row }))
  const events = changes.flatMap((c) => (c.kind === 'survey' ? [] : [c.event]))
  const deadlines = loadDeadlines(db, kind, events, settings)
  const waiting = unanswered(db, kind, eventIds).filter((r) => !only || only.has(r.id))
  const membersOf = (change: EventChange): Recipient[] =>
    change.kind === 'survey' ? [] : waiting.filter((r) => r.eventId === change.event.id)
  const mails = buildMails(db, changes, membersOf, {
    ...context,
    answerBy: (_kind, id) => deadlines.get(id)?.answerBy
  })
  context.push?.queue(db, changes, { settings, only })
  return enqueueMails(db, mails, now)
}

/** Reminders of an open survey to the active members with an address who have not answered. */
export function remindSurvey (db: Db, surveyId: number, context: ReminderContext): number {
  const survey = db.select().from(surveys).where(eq(surveys.id, surveyId)).get()
  if (!survey) return 0
  const waiting = db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: sql<string>`${users.email}`,
      isMusician: users.isMusician
    })
    .from(users)
    .where(and(activeWithAddress, expectedForBand,
      sql`NOT EXISTS (SELECT 1 FROM ${surveyAnswers} WHERE
      ${surveyAnswers.surveyId} = ${surveyId} AND ${surveyAnswers.userId} = ${users.id})`))
    .all()
  const day = todayIn(context.settings.timezone, context.now)
  const changes: EventChange[] = [{ kind: 'survey', seen: day, survey, reminder: true }]
  const mails = buildMails(db, changes, waiting, context)
  context.push?.queue(db, changes, context)
  return enqueueMails(db, mails, context.now)
}

/** Jobs handled per look of the timer. */
const JOBS_PER_LOOK = 100

/**
 * The planned reminders that are due: sent (late, if the server was off, but only while the
 * deadline's day lasts) or skipped when pointless (the deadline passed, the event is gone,
 * cancelled or its answers locked). Each job is done once either way.
 */
export function runDueReminders (db: Db, context: ReminderContext): number {
  const jobs = dueJobs(db, context.now, JOBS_PER_LOOK)
  if (jobs.length === 0) return 0
  let queued = 0
  for (const kind of ['gig', 'rehearsal'] as const) {
    const ids = [...new Set(jobs.filter((j) => j.kind === kind).map((j) => j.eventId))]
    if (ids.length === 0) continue
    const rows = kind === 'gig'
      ? db.select({ id: gigs.id, date: gigs.date, status: gigs.status }).from(gigs)
        .where(inArray(gigs.id, ids)).all()
      : db.select({ id: rehearsals.id, date: rehearsals.date }).from(rehearsals)
        .where(inArray(rehearsals.id, ids)).all()
    const deadlines = loadDeadlines(db, kind, rows, context.settings)
    const live = rows.filter((row) => {
      const deadline = deadlines.get(row.id)!
      const answering = !('status' in row) || row.status === 'inquiry' || row.status === 'confirmed'
      return answering && !answersClosed(deadline, context.now, context.settings.timezone) &&
        context.now < deadlineEnd(deadline.answerBy, context.settings.timezone)
    })
    queued += remindEvents(db, kind, live.map((r) => r.id), context)
  }
  markJobsDone(db, jobs.map((j) => j.id), context.now)
  return queued
}
