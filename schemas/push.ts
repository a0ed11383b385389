import { Type, type Static } from '@sinclair/typebox'
import { PUSH_LIMITS } from '#shared/limits.js'
import { Id, Instant, StrictObject } from './common.js'

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
