import { and, asc, desc, eq, inArray, lte, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { chunksFor, columnCount } from '#src/db/batch.js'
import {
  pushOutbox,
  pushSubscriptions,
  type PushOutboxRow,
  type PushPayload
} from '#src/db/schema.js'
import type { MailKind, MailStatus } from '#shared/enums.js'

// The push outbox: like the mail outbox (outbox.ts), written in the transaction that notices the
// reason and read back only by the push worker.

export interface NewPush {
  idemKey: string
  subscriptionId: number
  kind: MailKind
  payload: PushPayload
}

/** Queues pushes; one whose idempotency key is queued already is left out. Answers how many. */
export function enqueuePushes (db: Db, pushes: NewPush[], now: Date): number {
  const at = now.toISOString()
  let added = 0
  for (const chunk of chunksFor(pushes, columnCount(pushOutbox))) {
    added += db
      .insert(pushOutbox)
      .values(chunk.map((p) => ({ ...p, nextAttemptAt: at, createdAt: at })))
      .onConflictDoNothing({ target: pushOutbox.idemKey })
      .run().changes
  }
  return added
}

export type ClaimedPush = PushOutboxRow & {
  endpoint: string
  p256dh: string
  auth: string
}

/** Takes up to `limit` due pushes for sending, with their subscriptions (one statement each). */
export function claimDuePushes (db: Db, now: Date, limit: number): ClaimedPush[] {
  const due = db
    .select({ id: pushOutbox.id })
    .from(pushOutbox)
    .where(and(eq(pushOutbox.status, 'queued'), lte(pushOutbox.nextAttemptAt, now.toISOString())))
    .orderBy(asc(pushOutbox.nextAttemptAt), asc(pushOutbox.id))
    .limit(limit)
  const rows = db
    .update(pushOutbox)
    .set({ status: 'sending', attempts: sql`${pushOutbox.attempts} + 1` })
    .where(inArray(pushOutbox.id, due))
    .returning()
    .all()
  if (rows.length === 0) return []
  const subscriptions = new Map(
    db.select().from(pushSubscriptions)
      .where(inArray(pushSubscriptions.id, rows.map((r) => r.subscriptionId)))
      .all()
      .map((s) => [s.id, s])
  )
  // A push's subscription cannot be gone: its removal deletes its pushes (ON DELETE CASCADE).
  return rows.map((row) => {
    const { endpoint, p256dh, auth } = subscriptions.get(row.subscriptionId)!
    return { ...row, endpoint, p256dh, auth }
  })
}

/** Pushes a stopped process was sending go out again at the next start. */
export function requeueInterruptedPushes (db: Db): number {
  return db.update(pushOutbox)
    .set({ status: 'queued' })
    .where(eq(pushOutbox.status, 'sending'))
    .run().changes
}

export function markPushSent (db: Db, id: number, now: Date): void {
  db.update(pushOutbox)
    .set({ status: 'sent', sentAt: now.toISOString(), lastError: null })
    .where(eq(pushOutbox.id, id))
    .run()
}

/** A failed attempt: retried at `retryAt`, or given up when there is none. */
export function markPushFailed (db: Db, id: number, reason: string, retryAt: Date | null): void {
  db.update(pushOutbox)
    .set({
      status: retryAt ? 'queued' : 'failed',
      lastError: reason.slice(0, 500),
      nextAttemptAt: retryAt ? retryAt.toISOString() : sql`${pushOutbox.nextAttemptAt}`
    })
    .where(eq(pushOutbox.id, id))
    .run()
}

/** A subscription the push service no longer knows: gone, with its waiting pushes. */
export function removeSubscription (db: Db, id: number): void {
  db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id)).run()
}

/** Sent and given-up pushes older than `before` are forgotten (they are no record for anyone). */
export function prunePushes (db: Db, before: Date): number {
  return db.delete(pushOutbox)
    .where(and(
      inArray(pushOutbox.status, ['sent', 'failed']),
      lte(pushOutbox.createdAt, before.toISOString())
    ))
    .run().changes
}

/** The outbox for the admins, newest first, with each push's member (one statement). */
export function listPushes (db: Db, status: MailStatus | undefined, limit: number) {
  return db
    .select({ push: pushOutbox, userId: pushSubscriptions.userId })
    .from(pushOutbox)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
    .where(status ? eq(pushOutbox.status, status) : undefined)
    .orderBy(desc(pushOutbox.id))
    .limit(limit)
    .all()
}
