import { and, asc, desc, eq, inArray, lte, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { chunksFor } from '#src/db/batch.js'
import { mailOutbox, type MailOutboxRow, type StoredMailBody } from '#src/db/schema.js'
import type { MailKind, MailStatus } from '#shared/enums.js'

// The outbox table: mails are written here in the transaction that notices their reason, and
// only the worker (worker.ts) reads them back to send.

export interface NewMail {
  idemKey: string
  userId: number
  toAddress: string
  kind: MailKind
  subject: string
  body: StoredMailBody
}

/**
 * Queues mails; one whose idempotency key is queued already (the same change noticed twice) is
 * left out. Answers how many were new.
 */
export function enqueueMails (db: Db, mails: NewMail[], now: Date): number {
  const at = now.toISOString()
  let added = 0
  for (const chunk of chunksFor(mails, 9)) {
    added += db
      .insert(mailOutbox)
      .values(chunk.map((m) => ({ ...m, nextAttemptAt: at, createdAt: at })))
      .onConflictDoNothing({ target: mailOutbox.idemKey })
      .run().changes
  }
  return added
}

/**
 * Takes up to `limit` due mails for sending: they are `sending` from the moment this returns
 * (one statement, so a crash leaves each mail either queued or marked).
 */
export function claimDueMails (db: Db, now: Date, limit: number): MailOutboxRow[] {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, now.toISOString())))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(limit)
  return db
    .update(mailOutbox)
    .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, due))
    .returning()
    .all()
}

/**
 * Mails a stopped or killed process was sending go out again at the next start, with the same
 * Message-ID: whether the SMTP server took them is unknown, and a mail lost is worse than the
 * rare second copy a receiving server cannot recognise by that ID.
 */
export function requeueInterrupted (db: Db): number {
  return db
    .update(mailOutbox)
    .set({ status: 'queued' })
    .where(eq(mailOutbox.status, 'sending'))
    .run().changes
}

export function markSent (db: Db, id: number, now: Date): void {
  db.update(mailOutbox)
    .set({ status: 'sent', sentAt: now.toISOString(), lastError: null })
    .where(eq(mailOutbox.id, id))
    .run()
}

/** A failed attempt: retried at `retryAt`, or given up (`failed`) when there is none. */
export function markAttemptFailed (db: Db, id: number, reason: string, retryAt: Date | null): void {
  db.update(mailOutbox)
    .set({
      status: retryAt ? 'queued' : 'failed',
      lastError: reason.slice(0, 500),
      nextAttemptAt: retryAt ? retryAt.toISOString() : sql`${mailOutbox.nextAttemptAt}`
    })
    .where(eq(mailOutbox.id, id))
    .run()
}

/** The earliest time a queued mail is due, or null when none waits. */
export function nextDueAt (db: Db): string | null {
  const row = db
    .select({ at: sql<string | null>`min(${mailOutbox.nextAttemptAt})` })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'queued'))
    .get()
  return row?.at ?? null
}

export function listMails (db: Db, status: MailStatus | undefined, limit: number) {
  return db
    .select()
    .from(mailOutbox)
    .where(status ? eq(mailOutbox.status, status) : undefined)
    .orderBy(desc(mailOutbox.id))
    .limit(limit)
    .all()
}

export function findMail (db: Db, id: number): MailOutboxRow | undefined {
  return db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get()
}

/** A failed mail queued again, with a fresh count of attempts. */
export function requeueFailed (db: Db, id: number, now: Date): MailOutboxRow | undefined {
  return db
    .update(mailOutbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: now.toISOString() })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
    .returning()
    .all()[0]
}
