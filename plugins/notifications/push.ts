import type { FastifyInstance } from 'fastify'
import type { Config } from '#src/config.js'
import type { Db } from '#src/db/client.js'
import { ensureVapidKeys, vapidSubject } from './push-keys.js'
import { PushWorker } from './push-worker.js'
import { enqueuePushes, prunePushes } from './push-outbox.js'
import { buildPushes, type PushContext } from './push-build.js'
import type { EventChange } from './watch.js'

declare module 'fastify' {
  interface FastifyInstance {
    memberPush: MemberPush
  }
}

export interface MemberPush {
  /** The VAPID public key phones subscribe with. */
  publicKey: string
  /** Plain-HTTP endpoints on this machine are taken (PUSH_LOCAL_ENDPOINTS: development, tests). */
  localEndpoints: boolean
  worker: PushWorker
  /**
   * Queues the pushes of these changes (inside the caller's transaction); the worker is woken
   * once the transaction is over. Answers how many were queued.
   */
  queue(db: Db, changes: EventChange[], context: PushContext): number
  /** Forgets sent and given-up pushes after a week. */
  tidy(): void
}

const KEEP_SENT_MS = 7 * 86_400_000

export function createMemberPush (
  app: FastifyInstance,
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'smtpFrom' | 'pushLocalEndpoints'>
): MemberPush {
  const keys = ensureVapidKeys(config.dataDir)
  const worker = new PushWorker(
    app.db,
    app.clock,
    { ...keys, subject: vapidSubject(config.publicUrl, config.smtpFrom) },
    app.log,
    () => app.sqlite.open
  )
  return {
    publicKey: keys.publicKey,
    localEndpoints: config.pushLocalEndpoints,
    worker,
    queue (db, changes, context) {
      const queued = enqueuePushes(db, buildPushes(db, changes, context), app.clock())
      // Never inside the transaction: the worker's first claim runs synchronously.
      if (queued > 0) setImmediate(() => { worker.kick().catch(() => {}) })
      return queued
    },
    tidy () {
      prunePushes(app.db, new Date(app.clock().getTime() - KEEP_SENT_MS))
    }
  }
}
