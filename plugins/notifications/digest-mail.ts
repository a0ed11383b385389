import { and, asc, eq, gte, inArray, isNotNull, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  gigAsked,
  gigAvailability,
  gigs,
  notificationPrefs,
  rehearsalAvailability,
  rehearsals,
  surveyAnswers,
  surveys,
  unsubscribeTokens,
  users
} from '#src/db/schema.js'
import { chunksFor } from '#src/db/batch.js'
import { addSecondsLocal } from '#shared/local-time.js'
import { hashToken, randomToken } from '#src/auth/tokens.js'
import { formatDateIn, joinPresent } from '#src/documents/format.js'
import { documentLanguage } from '#src/documents/labels.js'
import { openCondition } from '#src/repositories/surveys.js'
import { footer, render, type Line } from './compose.js'
import { DIGEST_LABELS } from './digest-labels.js'
import { MEMBER_MAIL_LABELS } from './labels.js'
import { answersClosed, loadDeadlines } from './deadlines.js'
import { ANSWER_TOKEN_BYTES } from './mails.js'
import type { NewMail } from './outbox.js'
import type { ReminderContext } from './reminders.js'

// The weekly digest of each member who asked for it: what is coming in the next two weeks (with
// their answer), and what they still owe (events ahead without their answer, open surveys).
// Eleven statements for the whole band, whatever its size; an empty digest is not sent. An event
// whose answers are closed (its deadline over, or locked) is owed no more.

/** Days ahead that "what is coming" covers. */
export const DIGEST_DAYS = 14
/** Lines per part of a digest at most; the rest are counted. */
export const DIGEST_LINES = 20

interface Item {
  kind: 'gig' | 'rehearsal' | 'survey'
  id: number
  title: string
  date: string | null
  startTime: string | null
}

export function buildDigests (db: Db, day: string, context: ReminderContext): NewMail[] {
  const { now, settings, site } = context
  const members = db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      isMusician: users.isMusician,
      occasional: users.occasional
    })
    .from(users)
    .innerJoin(notificationPrefs, eq(notificationPrefs.userId, users.id))
    .where(and(eq(users.status, 'active'), isNotNull(users.email), ne(users.email, ''),
      eq(notificationPrefs.mail, true), eq(notificationPrefs.digest, true)))
    .all()
  if (members.length === 0) return []
  const ids = members.map((m) => m.id)
  const language = documentLanguage(settings.locale)
  const words = MEMBER_MAIL_LABELS[language]
  const digestWords = DIGEST_LABELS[language]

  const gigRows = db.select().from(gigs)
    .where(and(gte(gigs.date, day), inArray(gigs.status, ['inquiry', 'confirmed'])))
    .orderBy(asc(gigs.date), asc(gigs.startTime)).all()
  const rehearsalRows = db.select().from(rehearsals).where(gte(rehearsals.date, day))
    .orderBy(asc(rehearsals.date), asc(rehearsals.startTime)).all()
  const answers = new Map<string, string>()
  const gigIds = gigRows.map((g) => g.id)
  const gigAnswers = gigIds.length === 0
    ? []
    : db.select().from(gigAvailability)
      .where(and(inArray(gigAvailability.gigId, gigIds), inArray(gigAvailability.userId, ids)))
      .all()
  for (const a of gigAnswers) answers.set(`gig-${a.gigId}:${a.userId}`, a.status)
  const rehearsalIds = rehearsalRows.map((r) => r.id)
  const rehearsalAnswers = rehearsalIds.length === 0
    ? []
    : db.select().from(rehearsalAvailability)
      .where(and(inArray(rehearsalAvailability.rehearsalId, rehearsalIds),
        inArray(rehearsalAvailability.userId, ids))).all()
  for (const a of rehearsalAnswers) answers.set(`rehearsal-${a.rehearsalId}:${a.userId}`, a.status)
  const asked = new Set(db.select().from(gigAsked).where(inArray(gigAsked.userId, ids)).all()
    .map((a) => `${a.gigId}:${a.userId}`))
  const open = db.select({ id: surveys.id, title: surveys.title }).from(surveys)
    .where(openCondition(now.toISOString())).orderBy(asc(surveys.id)).all()
  const answered = new Set(open.length === 0
    ? []
    : db.select().from(surveyAnswers)
      .where(and(inArray(surveyAnswers.surveyId, open.map((s) => s.id)),
        inArray(surveyAnswers.userId, ids))).all().map((a) => `${a.surveyId}:${a.userId}`))

  const closed = new Set([
    ...[...loadDeadlines(db, 'gig', gigRows, settings)]
      .filter(([, d]) => answersClosed(d, now, settings.timezone)).map(([id]) => `gig-${id}`),
    ...[...loadDeadlines(db, 'rehearsal', rehearsalRows, settings)]
      .filter(([, d]) => answersClosed(d, now, settings.timezone)).map(([id]) => `rehearsal-${id}`)
  ])
  const events: Item[] = [
    ...gigRows.map((g) => ({
      kind: 'gig' as const,
      id: g.id,
      title: g.name,
      date: g.date,
      startTime: g.startTime
    })),
    ...rehearsalRows.map((r) => ({
      kind: 'rehearsal' as const,
      id: r.id,
      title: words.rehearsal,
      date: r.date,
      startTime: r.startTime
    }))
  ].sort((a, b) => `${a.date}${a.startTime ?? ''}`.localeCompare(`${b.date}${b.startTime ?? ''}`))
  const horizon = addSecondsLocal(`${day}T00:00`, DIGEST_DAYS * 86_400).slice(0, 10)
  const urlOf = (item: Item) => `${site.publicUrl}/app/${item.kind}s/${item.id}`
  const describe = (item: Item) => item.date
    ? joinPresent([formatDateIn(item.date, language), item.startTime,
      item.kind === 'gig' ? `${words.gig}: ${item.title}` : words.rehearsal], ' · ')
    : `${digestWords.survey}: ${item.title}`
  const capped = (lines: Line[]) => lines.length > DIGEST_LINES
    ? [...lines.slice(0, DIGEST_LINES), { value: digestWords.more(lines.length - DIGEST_LINES) }]
    : lines

  const mails: NewMail[] = []
  const tokens: Array<typeof unsubscribeTokens.$inferInsert> = []
  for (const member of members) {
    // A sub hears only of the gigs they were asked for; only musicians owe answers to events.
    const theirs = events.filter((e) => member.occasional
      ? e.kind === 'gig' && asked.has(`${e.id}:${member.id}`)
      : true)
    const answerOf = (e: Item) => answers.get(`${e.kind}-${e.id}:${member.id}`)
    const coming = theirs.filter((e) => e.date! < horizon).map((e): Line => {
      const answer = answerOf(e)
      return {
        value: `${describe(e)} (${answer ? words.answers[answer as 'yes'] : digestWords.noAnswer})`
      }
    })
    const owed: Item[] = [
      ...(member.isMusician
        ? theirs.filter((e) => !answerOf(e) && !closed.has(`${e.kind}-${e.id}`))
        : []),
      ...(member.occasional
        ? []
        : open.filter((s) => !answered.has(`${s.id}:${member.id}`)).map((s) => ({
          kind: 'survey' as const, id: s.id, title: s.title, date: null, startTime: null
        })))
    ]
    if (coming.length === 0 && owed.length === 0) continue
    const token = randomToken(ANSWER_TOKEN_BYTES)
    const unsubscribe = `${site.publicUrl}/unsubscribe/${token}`
    tokens.push({
      tokenHash: hashToken(token),
      userId: member.id,
      topic: 'digest',
      createdAt: now.toISOString()
    })
    const mail = render(digestWords.subject(settings.bandName), [
      [{ value: `${words.hello(member.displayName)}\n${digestWords.intro}` }],
      [{ value: digestWords.coming }, ...(coming.length > 0
        ? capped(coming)
        : [{ value: digestWords.nothingComing }])],
      ...(owed.length > 0
        ? [[{ value: digestWords.owe },
            ...capped(owed.map((e) => ({ label: describe(e), value: urlOf(e), href: urlOf(e) })))]]
        : []),
      [{ label: words.open, value: `${site.publicUrl}/app/`, href: `${site.publicUrl}/app/` }],
      footer({ bandName: settings.bandName, unsubscribeUrl: unsubscribe }, words)
    ], language)
    mails.push({
      idemKey: `digest:${day}:${member.id}`,
      userId: member.id,
      toAddress: member.email!,
      kind: 'digest',
      subject: mail.subject,
      body: { text: mail.text, html: mail.html, unsubscribe }
    })
  }
  for (const chunk of chunksFor(tokens, 4)) db.insert(unsubscribeTokens).values(chunk).run()
  return mails
}
