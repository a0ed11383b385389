import { eq, inArray } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { notificationPrefs, unsubscribeTokens } from '#src/db/schema.js'
import type { MailKind, MailTopic } from '#shared/enums.js'

// Each member's choice of mail: all of it, and each topic.

export type { MailTopic }

export interface Prefs {
  mail: boolean
  newEvents: boolean
  changes: boolean
  reminders: boolean
  surveys: boolean
  /** The weekly digest: opt-in. */
  digest: boolean
}

export const DEFAULT_PREFS: Prefs = {
  mail: true,
  newEvents: true,
  changes: true,
  reminders: true,
  surveys: true,
  digest: false
}

/** Which choice a mail falls under. */
export const TOPIC_OF: Record<MailKind, MailTopic> = {
  new: 'newEvents',
  changed: 'changes',
  cancelled: 'changes',
  reminder: 'reminders',
  survey: 'surveys',
  digest: 'digest'
}

const toPrefs = (row: typeof notificationPrefs.$inferSelect | undefined): Prefs =>
  row
    ? {
        mail: row.mail,
        newEvents: row.newEvents,
        changes: row.changes,
        reminders: row.reminders,
        surveys: row.surveys,
        digest: row.digest
      }
    : DEFAULT_PREFS

export function loadPrefs (db: Db, userId: number): Prefs {
  return toPrefs(
    db.select().from(notificationPrefs).where(eq(notificationPrefs.userId, userId)).get())
}

/** The choices of several members (one statement). */
export function loadPrefsOf (db: Db, userIds: number[]): Map<number, Prefs> {
  const rows = userIds.length === 0
    ? []
    : db.select().from(notificationPrefs).where(inArray(notificationPrefs.userId, userIds)).all()
  const found = new Map(rows.map((r) => [r.userId, toPrefs(r)]))
  return new Map(userIds.map((id) => [id, found.get(id) ?? DEFAULT_PREFS]))
}

export const wants = (prefs: Prefs, kind: MailKind) => prefs.mail && prefs[TOPIC_OF[kind]]

export function savePrefs (db: Db, userId: number, prefs: Prefs, now: Date): Prefs {
  const values = { ...prefs, updatedAt: now.toISOString() }
  db.insert(notificationPrefs)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationPrefs.userId, set: values })
    .run()
  return prefs
}

export function findUnsubscribe (db: Db, tokenHash: string) {
  return db.select().from(unsubscribeTokens).where(eq(unsubscribeTokens.tokenHash, tokenHash)).get()
}
