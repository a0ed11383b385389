import { and, eq, inArray, isNull, lte } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { answerDeadlines, mailJobs } from '#src/db/schema.js'
import { addSecondsLocal, zonedToUtc } from '#shared/local-time.js'
import {
  DEFAULT_ANSWER_SETTINGS,
  type AnswerSettingsType,
  type EditableAppConfigType
} from '#schemas/app-config.js'

// Answer deadlines (`answerBy`) and the reminder jobs planned for them.

export type AnswerKind = 'gig' | 'rehearsal'

/** Reminders go out at this wall-clock time in the band's timezone. */
export const REMINDER_TIME = '09:00'

export const answerSettings = (config: EditableAppConfigType): AnswerSettingsType =>
  config.answers ?? DEFAULT_ANSWER_SETTINGS

const addDays = (date: string, days: number) =>
  addSecondsLocal(`${date}T00:00`, days * 86_400).slice(0, 10)

export interface Deadline {
  /** The event's own deadline, null for the band's default. */
  own: string | null
  /** The deadline in force. */
  answerBy: string
  locked: boolean
}

/** The deadlines of some events of one kind, by event id (one statement). */
export function loadDeadlines (
  db: Db,
  kind: AnswerKind,
  events: Array<{ id: number; date: string }>,
  config: EditableAppConfigType
): Map<number, Deadline> {
  const ids = events.map((e) => e.id)
  const rows = ids.length === 0
    ? []
    : db.select().from(answerDeadlines)
      .where(and(eq(answerDeadlines.kind, kind), inArray(answerDeadlines.eventId, ids))).all()
  const own = new Map(rows.map((r) => [r.eventId, r]))
  const settings = answerSettings(config)
  const days = kind === 'gig' ? settings.gigDays : settings.rehearsalDays
  return new Map(events.map((e) => {
    const row = own.get(e.id)
    return [e.id, {
      own: row?.answerBy ?? null,
      answerBy: row?.answerBy ?? addDays(e.date, -days),
      locked: row?.locked ?? false
    }]
  }))
}

export function saveDeadline (
  db: Db,
  kind: AnswerKind,
  eventId: number,
  values: { answerBy: string | null; locked: boolean }
): void {
  db.insert(answerDeadlines)
    .values({ kind, eventId, ...values })
    .onConflictDoUpdate({ target: [answerDeadlines.kind, answerDeadlines.eventId], set: values })
    .run()
}

/** The first instant after the deadline's day (band timezone): answers close then. */
export const deadlineEnd = (answerBy: string, timezone: string) =>
  zonedToUtc(`${addDays(answerBy, 1)}T00:00`, timezone)

/**
 * Whether a member's answers are closed: locked, or the event's own deadline is over. The band's
 * default deadline only times the reminders: a gig set up a week ahead still takes answers.
 */
export const answersClosed = (deadline: Deadline, now: Date, timezone: string) =>
  deadline.locked || (deadline.own !== null && now >= deadlineEnd(deadline.own, timezone))

/**
 * Plans the reminders of events (replacing those not yet done): `reminderDays` before the
 * deadline and on its day, at REMINDER_TIME; a moment already past is not planned.
 */
export function planReminders (
  db: Db,
  kind: AnswerKind,
  deadlines: Map<number, Deadline>,
  config: EditableAppConfigType,
  now: Date
): void {
  if (deadlines.size === 0) return
  const { reminderDays } = answerSettings(config)
  db.delete(mailJobs)
    .where(and(
      eq(mailJobs.kind, kind),
      inArray(mailJobs.eventId, [...deadlines.keys()]),
      isNull(mailJobs.doneAt)
    ))
    .run()
  const jobs: Array<typeof mailJobs.$inferInsert> = []
  for (const [eventId, deadline] of deadlines) {
    const days = new Set([addDays(deadline.answerBy, -reminderDays), deadline.answerBy])
    for (const day of days) {
      const dueAt = zonedToUtc(`${day}T${REMINDER_TIME}`, config.timezone)
      if (dueAt > now) jobs.push({ kind, eventId, dueAt: dueAt.toISOString() })
    }
  }
  if (jobs.length > 0) db.insert(mailJobs).values(jobs).onConflictDoNothing().run()
}

/** Reminder jobs due by `now`, oldest first. */
export function dueJobs (db: Db, now: Date, limit: number) {
  return db.select().from(mailJobs)
    .where(and(isNull(mailJobs.doneAt), lte(mailJobs.dueAt, now.toISOString())))
    .orderBy(mailJobs.dueAt)
    .limit(limit)
    .all()
}

export function markJobsDone (db: Db, ids: number[], now: Date): void {
  if (ids.length === 0) return
  db.update(mailJobs).set({ doneAt: now.toISOString() }).where(inArray(mailJobs.id, ids)).run()
}
