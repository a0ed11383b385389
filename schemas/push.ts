import { Type, type Static } from '@sinclair/typebox'
import { PUSH_LIMITS } from '#shared/limits.js'
import { MAIL_KINDS } from '#shared/enums.js'
import { Id, Instant, StrictObject } from './common.js'
import { MailStatusSchema } from './notifications.js'

const Base64Url = (description: string) =>
  Type.String({
    minLength: 1, maxLength: PUSH_LIMITS.key, pattern: '^[A-Za-z0-9_-]+=*$', description
  })

export const PushKey = Type.Object({
  publicKey: Type.String({
    description: "the server's VAPID public key (base64url): PushManager.subscribe's " +
      'applicationServerKey'
  })
})

const Endpoint = Type.String({
  minLength: 1,
  maxLength: PUSH_LIMITS.endpoint,
  description: "the push service's URL for this browser (https)"
})

/** What PushSubscription.toJSON() gives. */
export const PushSubscriptionBody = StrictObject({
  endpoint: Endpoint,
  expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()], {
    description: 'ignored: a subscription the push service drops is removed when it says so'
  })),
  keys: StrictObject({
    p256dh: Base64Url("the browser's P-256 public key"),
    auth: Base64Url('the 16-byte authentication secret')
  })
})
export type PushSubscriptionBodyType = Static<typeof PushSubscriptionBody>

export const PushSubscriptionDelete = StrictObject({ endpoint: Endpoint })

export const PushSubscriptionItem = Type.Object({
  id: Id,
  endpoint: Type.String(),
  createdAt: Instant
})

export const PushSubscriptionList = Type.Object({
  subscriptions: Type.Array(PushSubscriptionItem),
  limit: Type.Integer({ description: 'subscriptions a member may have (one per phone or browser)' })
})

/** A push in the outbox as the admins see it: to whom, what, and how it went. */
export const OutboxPush = Type.Object({
  id: Id,
  userId: Id,
  kind: Type.Unsafe<(typeof MAIL_KINDS)[number]>({ type: 'string', enum: [...MAIL_KINDS] }),
  title: Type.String({ description: "the notification's title, in the band's language" }),
  status: MailStatusSchema,
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Instant,
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: "the push service's status and answer, or the connection error, of the last " +
      'attempt'
  }),
  createdAt: Instant,
  sentAt: Type.Union([Instant, Type.Null()])
})
export type OutboxPushType = Static<typeof OutboxPush>

export const PushOutboxList = Type.Object({
  pushes: Type.Array(OutboxPush, {
    description: 'newest first; sent and given-up pushes are kept for a week'
  })
})
