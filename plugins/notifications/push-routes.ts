import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { and, asc, count, eq, ne } from '#src/db/orm.js'
import { ErrorResponse, NoContent } from '#schemas/common.js'
import {
  PushKey,
  PushSubscriptionBody,
  PushSubscriptionDelete,
  PushSubscriptionItem,
  PushSubscriptionList,
  type PushSubscriptionBodyType
} from '#schemas/push.js'
import { pushSubscriptions } from '#src/db/schema.js'
import { ApiError, badRequest, conflict } from '#src/errors.js'
import { PUSH_LIMITS } from '#shared/limits.js'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])
const IP_LITERAL = /^(\d+\.){3}\d+$|^\[/

/**
 * Why a browser's subscription is refused, or null. The endpoint is an https URL with a host name
 * (the server will POST to it: no plain HTTP, no address on this machine or an IP literal), unless
 * PUSH_LOCAL_ENDPOINTS allows one on this machine; the keys are a P-256 point and a 16-byte secret.
 */
export function subscriptionProblem (
  body: PushSubscriptionBodyType,
  allowLocal: boolean
): string | null {
  let url: URL
  try {
    url = new URL(body.endpoint)
  } catch {
    return 'the endpoint is no URL'
  }
  const local = LOCAL_HOSTS.has(url.hostname)
  const web = url.protocol === 'https:' || url.protocol === 'http:'
  const allowed = allowLocal && local && web
  if (!allowed) {
    if (url.protocol !== 'https:') return 'the endpoint must be an https URL'
    if (local || IP_LITERAL.test(url.hostname)) return 'the endpoint must name a push service'
  }
  if (url.username || url.password) return 'the endpoint must not carry a user name'
  const p256dh = Buffer.from(body.keys.p256dh, 'base64url')
  if (p256dh.length !== 65 || p256dh[0] !== 4) return 'keys.p256dh is no P-256 public key'
  const auth = Buffer.from(body.keys.auth, 'base64url')
  if (auth.length !== 16) return 'keys.auth is no 16-byte secret'
  return null
}

/** Each member's phones that take push notifications, and the key they subscribe with. */
const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/push/key', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: "The server's VAPID public key, for PushManager.subscribe",
      response: { 200: PushKey }
    }
  }, async () => ({ publicKey: app.memberPush.publicKey }))

  app.get('/me/push-subscriptions', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: 'Your phones and browsers that get push notifications',
      response: { 200: PushSubscriptionList }
    }
  }, async (request) => ({
    subscriptions: app.db
      .select({
        id: pushSubscriptions.id,
        endpoint: pushSubscriptions.endpoint,
        createdAt: pushSubscriptions.createdAt
      })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, request.user.id))
      .orderBy(asc(pushSubscriptions.id))
      .all(),
    limit: PUSH_LIMITS.perUser
  }))

  app.post('/me/push-subscriptions', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: 'Turn push notifications on for this phone or browser',
      description: 'The body is PushSubscription.toJSON(). An endpoint known already (another ' +
        'member logged in on the same phone before) now belongs to you, with the new keys.',
      body: PushSubscriptionBody,
      response: { 201: PushSubscriptionItem, 409: ErrorResponse }
    }
  }, async (request, reply) => {
    const { body } = request
    const problem = subscriptionProblem(body, app.memberPush.localEndpoints)
    if (problem) throw badRequest('INVALID_PUSH_SUBSCRIPTION', problem)
    const userId = request.user.id
    const now = app.clock().toISOString()
    const row = app.db.transaction((tx) => {
      const others = tx.select({ n: count() }).from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId),
          ne(pushSubscriptions.endpoint, body.endpoint)))
        .get()!.n
      if (others >= PUSH_LIMITS.perUser) {
        throw conflict('LIMIT_REACHED',
          `at most ${PUSH_LIMITS.perUser} phones or browsers get push notifications; ` +
          'turn one off first')
      }
      const values = { userId, p256dh: body.keys.p256dh, auth: body.keys.auth }
      return tx.insert(pushSubscriptions)
        .values({ ...values, endpoint: body.endpoint, createdAt: now })
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
        .returning({
          id: pushSubscriptions.id,
          endpoint: pushSubscriptions.endpoint,
          createdAt: pushSubscriptions.createdAt
        })
        .all()[0]!
    })
    return reply.code(201).send(row)
  })

  app.delete('/me/push-subscriptions', {
    config: { access: 'member' },
    schema: {
      tags: ['mail'],
      summary: 'Turn push notifications off for a phone or browser',
      body: PushSubscriptionDelete,
      response: { 204: NoContent, 404: ErrorResponse }
    }
  }, async (request, reply) => {
    const removed = app.db.delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, request.user.id),
        eq(pushSubscriptions.endpoint, request.body.endpoint)))
      .run().changes
    if (removed === 0) {
      throw new ApiError('PUSH_SUBSCRIPTION_NOT_FOUND', 'no such push subscription of yours')
    }
    return reply.code(204).send(null)
  })
}
export default pushRoutes
