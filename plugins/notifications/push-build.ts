import { eq, inArray } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  gigAsked, pushSubscriptions, surveyAnswers, users, type PushPayload
} from '#src/db/schema.js'
import { availabilitySources } from '#src/repositories/availability.js'
import { documentLanguage, type DocumentLanguage } from '#src/documents/labels.js'
import { formatDateIn, joinPresent } from '#src/documents/format.js'
import type { MailKind } from '#shared/enums.js'
import type { EditableAppConfigType } from '#schemas/app-config.js'
import { loadPrefsOf, TOPIC_OF } from './prefs.js'
import { MEMBER_MAIL_LABELS, type EventReason } from './labels.js'
import { eventTitle } from './compose.js'
import type { NewPush } from './push-outbox.js'
import type { EventChange } from './watch.js'

// The push notifications of a set of changes: the same reasons as the mails, to each active
// member's subscribed phones, by the same choices per kind (mail on/off is about mail only; the
// phone's own switch is its subscription). Reminders skip who has answered meanwhile. Subs
// (occasional members) hear only of the gigs they were asked for, as by mail (occasional.ts).

interface Target {
  userId: number
  subscriptionId: number
  isMusician: boolean
  occasional: boolean
}

/** Every subscription of an active member (one statement). */
function targets (db: Db): Target[] {
  return db
    .select({
      userId: users.id,
      subscriptionId: pushSubscriptions.id,
      isMusician: users.isMusician,
      occasional: users.occasional
    })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .where(eq(users.status, 'active'))
    .all()
}

/** `event:user` of everyone who has answered the reminded events (one statement per kind). */
function answered (db: Db, changes: EventChange[]): Set<string> {
  const done = new Set<string>()
  for (const kind of ['gig', 'rehearsal'] as const) {
    const ids = changes.flatMap((c) =>
      c.kind === kind && c.reason === 'reminder' ? [c.event.id] : [])
    if (ids.length === 0) continue
    const { table, eventId } = availabilitySources[kind]
    for (const row of db.select({ e: eventId, u: table.userId }).from(table)
      .where(inArray(eventId, ids)).all()) done.add(`${kind}-${row.e}:${row.u}`)
  }
  const surveyIds = changes.flatMap((c) => (c.kind === 'survey' && c.reminder ? [c.survey.id] : []))
  if (surveyIds.length > 0) {
    for (const row of db.selectDistinct({ e: surveyAnswers.surveyId, u: surveyAnswers.userId })
      .from(surveyAnswers).where(inArray(surveyAnswers.surveyId, surveyIds)).all()) {
      done.add(`survey-${row.e}:${row.u}`)
    }
  }
  return done
}

/** `gigId:userId` of the subs asked for the changed gigs (one statement). */
function askedFor (db: Db, changes: EventChange[]): Set<string> {
  const gigIds = changes.flatMap((c) => (c.kind === 'gig' ? [c.event.id] : []))
  if (gigIds.length === 0) return new Set()
  return new Set(db.select().from(gigAsked).where(inArray(gigAsked.gigId, gigIds)).all()
    .map((a) => `${a.gigId}:${a.userId}`))
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** What the phone shows: the mail's subject as the title, its first sentence and the facts. */
function payloadOf (change: EventChange, language: DocumentLanguage): PushPayload {
  const words = MEMBER_MAIL_LABELS[language]
  if (change.kind === 'survey') {
    const { survey } = change
    return {
      title: change.reminder
        ? words.subject.reminder(survey.title)
        : words.survey.subject(survey.title),
      body: capitalised(change.reminder ? words.survey.reminder : words.survey.intro),
      url: `/app/surveys/${survey.id}`
    }
  }
  const { event, reason } = change
  const date = formatDateIn(event.date, language)
  const time = joinPresent([event.startTime, event.endTime], '–')
  return {
    title: words.subject[reason](`${eventTitle(event, language)}, ${date}`),
    body: joinPresent([capitalised(words.intro[reason]), joinPresent([time, event.place], ', ')],
      '\n'),
    url: `/app/${change.kind === 'gig' ? 'gigs' : 'rehearsals'}/${event.id}`
  }
}

const KIND_OF: Record<EventReason, MailKind> = {
  created: 'new',
  confirmed: 'new',
  changed: 'changed',
  cancelled: 'cancelled',
  reminder: 'reminder'
}

export interface PushContext {
  settings: EditableAppConfigType
  /** Only these members (a reminder to some). */
  only?: Set<number>
}

export function buildPushes (db: Db, changes: EventChange[], context: PushContext): NewPush[] {
  if (changes.length === 0) return []
  const all = targets(db).filter((t) => !context.only || context.only.has(t.userId))
  if (all.length === 0) return []
  const prefs = loadPrefsOf(db, [...new Set(all.map((t) => t.userId))])
  const done = answered(db, changes)
  const asked = all.some((t) => t.occasional) ? askedFor(db, changes) : new Set<string>()
  const language = documentLanguage(context.settings.locale)
  const pushes: NewPush[] = []
  for (const change of changes) {
    const kind = change.kind === 'survey'
      ? (change.reminder ? 'reminder' : 'survey')
      : KIND_OF[change.reason]
    const key = change.kind === 'survey'
      ? `survey-${change.survey.id}`
      : `${change.kind}-${change.event.id}`
    const why = change.kind === 'survey' ? (change.reminder ? 'reminder' : 'opened') : change.reason
    const payload = payloadOf(change, language)
    for (const target of all) {
      if (change.kind !== 'survey' && !target.isMusician) continue
      if (target.occasional &&
        !(change.kind === 'gig' && asked.has(`${change.event.id}:${target.userId}`))) continue
      if (!prefs.get(target.userId)![TOPIC_OF[kind]]) continue
      if (done.has(`${key}:${target.userId}`)) continue
      pushes.push({
        idemKey: `${key}:${why}:${change.seen}:${target.userId}:${target.subscriptionId}`,
        subscriptionId: target.subscriptionId,
        kind,
        payload
      })
    }
  }
  return pushes
}
