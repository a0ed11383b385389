import { asc, inArray, isNull } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { digestJobs } from '#src/db/schema.js'
import { addSecondsLocal, todayIn, zonedToUtc } from '#shared/local-time.js'
import { enqueueMails } from './outbox.js'
import { buildDigests } from './digest-mail.js'
import type { ReminderContext } from './reminders.js'

// The weekly digest's schedule: one job row per week, Monday at DIGEST_TIME band time, planned
// ahead by the timer's look. A digest due while the server was off goes out late that same day,
// and is skipped after: last week's "what is coming" is no news.

export const DIGEST_TIME = '08:00'
/** Monday (Date#getUTCDay). */
const DIGEST_WEEKDAY = 1

const addDays = (date: string, days: number) =>
  addSecondsLocal(`${date}T00:00`, days * 86_400).slice(0, 10)

/** The next digest moment after `now`. */
export function nextDigestAt (now: Date, timezone: string): Date {
  const today = todayIn(timezone, now)
  const weekday = new Date(`${today}T00:00Z`).getUTCDay()
  const monday = addDays(today, (DIGEST_WEEKDAY - weekday + 7) % 7)
  const at = zonedToUtc(`${monday}T${DIGEST_TIME}`, timezone)
  return at > now ? at : zonedToUtc(`${addDays(monday, 7)}T${DIGEST_TIME}`, timezone)
}

/**
 * Queues the digests due by now (one mail per member and week: the idempotency key names the
 * week's day), marks their jobs done, and plans the next one. Answers how many mails were queued.
 */
export function runDigests (db: Db, context: ReminderContext): number {
  const { now, settings } = context
  const pending = db.select().from(digestJobs).where(isNull(digestJobs.doneAt))
    .orderBy(asc(digestJobs.dueAt)).all()
  const due = pending.filter((job) => job.dueAt <= now.toISOString())
  let queued = 0
  const latest = due.at(-1)
  if (latest) {
    const day = todayIn(settings.timezone, new Date(latest.dueAt))
    if (now < zonedToUtc(`${addDays(day, 1)}T00:00`, settings.timezone)) {
      queued = enqueueMails(db, buildDigests(db, day, context), now)
    }
    db.update(digestJobs).set({ doneAt: now.toISOString() })
      .where(inArray(digestJobs.dueAt, due.map((job) => job.dueAt))).run()
  }
  if (pending.length === due.length) {
    const dueAt = nextDigestAt(now, settings.timezone).toISOString()
    db.insert(digestJobs).values({ dueAt }).onConflictDoNothing().run()
  }
  return queued
}
