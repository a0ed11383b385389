import { Type, type Static } from '@sinclair/typebox'
import { MAIL_KINDS, MAIL_STATUSES } from '#shared/enums.js'
import { Id, Instant, StrictObject } from './common.js'

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
