import { Type, type Static } from '@sinclair/typebox'
import { MAIL_KINDS, MAIL_STATUSES } from '#shared/enums.js'
import { DateString, Id, Instant, StrictObject } from './common.js'
import { Nullable } from './nullable.js'

export const MailStatusSchema = Type.Unsafe<(typeof MAIL_STATUSES)[number]>({
  type: 'string',
  enum: [...MAIL_STATUSES]
})

/** Mails listed at most per request (newest first). */
export const MAIL_LIST_LIMIT = 200

export const MailListQuery = StrictObject({
  status: Type.Optional(MailStatusSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAIL_LIST_LIMIT, default: 50 }))
})

export const OutboxMail = Type.Object({
  id: Id,
  userId: Type.Union([Id, Type.Null()]),
  to: Type.String(),
  kind: Type.Unsafe<(typeof MAIL_KINDS)[number]>({ type: 'string', enum: [...MAIL_KINDS] }),
  subject: Type.String(),
  status: MailStatusSchema,
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Instant,
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: "the SMTP server's answer or the connection error of the last attempt"
  }),
  createdAt: Instant,
  sentAt: Type.Union([Instant, Type.Null()])
})
export type OutboxMailType = Static<typeof OutboxMail>

export const MailOutboxList = Type.Object({
  enabled: Type.Boolean({ description: 'false without SMTP_URL: nothing is mailed' }),
  mails: Type.Array(OutboxMail)
})

export const RemindersSent = Type.Object({
  mailed: Type.Integer({
    minimum: 0,
    description: 'mails queued: members who have not answered and were not reminded today'
  })
})

export const AnswerDeadline = Type.Object({
  answerBy: DateString,
  own: Type.Union([DateString, Type.Null()], {
    description: "the event's own deadline; null: the band's default (answers.gigDays …)"
  }),
  locked: Type.Boolean({ description: 'an editor closed the answers' }),
  closed: Type.Boolean({ description: 'members can no longer answer (locked, or deadline over)' })
})
export type AnswerDeadlineType = Static<typeof AnswerDeadline>

export const AnswerDeadlinePut = StrictObject({
  answerBy: Nullable(DateString, { description: "null: the band's default" }),
  locked: Type.Optional(Type.Boolean())
})

export const NotificationPrefsBody = StrictObject({
  mail: Type.Boolean({ description: 'false: no mail at all' }),
  newEvents: Type.Boolean(),
  changes: Type.Boolean({ description: 'changed and cancelled events' }),
  reminders: Type.Boolean(),
  surveys: Type.Boolean(),
  digest: Type.Optional(Type.Boolean({
    description: 'the weekly digest (Mondays): what is coming, what you still owe; ' +
      'left out: unchanged'
  }))
})
export const NotificationPrefs = Type.Object({
  ...NotificationPrefsBody.properties,
  digest: Type.Boolean({ description: 'the weekly digest (opt-in)' }),
  enabled: Type.Boolean({ description: 'false: the server sends no mail (no SMTP_URL)' }),
  hasEmail: Type.Boolean({ description: 'false: you get no mail until you enter an address' })
})
