import type { Db } from '#src/db/client.js'
import { chunksFor } from '#src/db/batch.js'
import { answerTokens, unsubscribeTokens } from '#src/db/schema.js'
import { loadPrefsOf, TOPIC_OF, wants } from './prefs.js'
import { renderIcal } from '#src/documents/ical.js'
import { documentLanguage } from '#src/documents/labels.js'
import { hashToken, randomToken } from '#src/auth/tokens.js'
import type { EditableAppConfigType } from '#schemas/app-config.js'
import { composeEventMail, composeSurveyMail } from './compose.js'
import type { NewMail } from './outbox.js'
import type { EventChange } from './watch.js'
import type { EventReason } from './labels.js'
import type { MailKind } from '#shared/enums.js'

// The mails of a set of changes: one per member with an address, in the band's language, each
// with its own one-click answer links (stored hashed) and the event as an .ics attachment.

export interface MailSite {
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string
  /** The calendar feed's UID domain: the attachment's event is the feed's event. */
  uidDomain: string
}

/** Bits of randomness of a one-click answer token. */
export const ANSWER_TOKEN_BYTES = 32

export interface Recipient {
  id: number
  displayName: string
  email: string
  isMusician: boolean
}

const MAIL_KIND_OF = {
  created: 'new',
  confirmed: 'new',
  changed: 'changed',
  cancelled: 'cancelled',
  reminder: 'reminder'
} as const satisfies Record<EventReason, MailKind>

export interface MailContext {
  now: Date
  settings: EditableAppConfigType
  site: MailSite
  /** The answer deadline to name in an event's mail. */
  answerBy?: (kind: 'gig' | 'rehearsal', id: number) => string | undefined
}

export function buildMails (
  db: Db,
  changes: EventChange[],
  membersOf: Recipient[] | ((change: EventChange) => Recipient[]),
  context: MailContext
): NewMail[] {
  const { now, settings, site } = context
  const language = documentLanguage(settings.locale)
  const mails: NewMail[] = []
  const tokens: Array<typeof answerTokens.$inferInsert> = []
  const unsubscribes: Array<typeof unsubscribeTokens.$inferInsert> = []
  const createdAt = now.toISOString()
  const membersPer = changes.map((c) =>
    (typeof membersOf === 'function' ? membersOf(c) : membersOf))
  const prefs = loadPrefsOf(db, [...new Set(membersPer.flat().map((m) => m.id))])
  /** The member's unsubscribe link for this kind of mail, or null when they do not want it. */
  const wanted = (member: Recipient, kind: MailKind) => {
    if (!wants(prefs.get(member.id)!, kind)) return null
    const token = randomToken(ANSWER_TOKEN_BYTES)
    unsubscribes.push({
      tokenHash: hashToken(token), userId: member.id, topic: TOPIC_OF[kind], createdAt
    })
    return `${site.publicUrl}/unsubscribe/${token}`
  }
  for (const [index, change] of changes.entries()) {
    const members = membersPer[index]!
    if (change.kind === 'survey') {
      const kind = change.reminder ? 'reminder' : 'survey'
      for (const member of members) {
        const unsubscribe = wanted(member, kind)
        if (!unsubscribe) continue
        const mail = composeSurveyMail({
          language,
          bandName: settings.bandName,
          displayName: member.displayName,
          survey: change.survey,
          reminder: change.reminder,
          url: `${site.publicUrl}/app/surveys/${change.survey.id}`,
          unsubscribeUrl: unsubscribe
        })
        mails.push({
          idemKey: `survey-${change.survey.id}:${change.reminder ? 'reminder' : 'opened'}:` +
            `${change.seen}:${member.id}`,
          userId: member.id,
          toAddress: member.email,
          kind,
          subject: mail.subject,
          body: { text: mail.text, html: mail.html, unsubscribe }
        })
      }
      continue
    }
    const { event, reason } = change
    const ics = renderIcal({
      calendarName: settings.bandName,
      language,
      timezone: settings.timezone,
      uidDomain: site.uidDomain,
      now,
      gigs: change.kind === 'gig' ? [change.row] : [],
      rehearsals: change.kind === 'rehearsal' ? [change.row] : []
    })
    const path = change.kind === 'gig' ? 'gigs' : 'rehearsals'
    const kind = MAIL_KIND_OF[reason]
    for (const member of members) {
      if (!member.isMusician) continue
      const unsubscribe = wanted(member, kind)
      if (!unsubscribe) continue
      let answerUrl: ((answer: string) => string) | undefined
      if (reason !== 'cancelled') {
        const token = randomToken(ANSWER_TOKEN_BYTES)
        tokens.push({
          tokenHash: hashToken(token),
          userId: member.id,
          kind: event.kind,
          eventId: event.id,
          createdAt
        })
        answerUrl = (answer) => `${site.publicUrl}/answer/${token}?a=${answer}`
      }
      const mail = composeEventMail({
        language,
        bandName: settings.bandName,
        displayName: member.displayName,
        reason,
        event,
        url: `${site.publicUrl}/app/${path}/${event.id}`,
        answerUrl,
        answerBy: reason === 'cancelled' ? null : context.answerBy?.(event.kind, event.id),
        unsubscribeUrl: unsubscribe
      })
      mails.push({
        idemKey: `${event.kind}-${event.id}:${reason}:${change.seen}:${member.id}`,
        userId: member.id,
        toAddress: member.email,
        kind,
        subject: mail.subject,
        body: { text: mail.text, html: mail.html, ics, unsubscribe }
      })
    }
  }
  for (const chunk of chunksFor(tokens, 5)) db.insert(answerTokens).values(chunk).run()
  for (const chunk of chunksFor(unsubscribes, 4)) db.insert(unsubscribeTokens).values(chunk).run()
  return mails
}
