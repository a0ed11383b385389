import { and, desc, eq, gt, isNull, lt, ne, or } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { refreshTokenHistory, sessions, type SessionRow } from '#src/db/schema.js'
import { hashToken, randomToken } from '#src/auth/tokens.js'
import { writtenRow } from '#src/db/returning.js'

/** Lifetime of an access token (a JWT, checked against the live session on every request). */
export const ACCESS_TOKEN_SECONDS = 15 * 60
/** Lifetime of a session without use: every refresh rotates the token and extends it. */
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600
/** Two tabs refreshing at once present the same token; within this window that is not theft. */
export const REUSE_GRACE_MS = 10_000

const plusSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000)

export function createSession (
  db: Db,
  userId: number,
  now: Date,
  meta: { userAgent?: string; ip?: string }
) {
  const refreshToken = randomToken()
  const expiresAt = plusSeconds(now, REFRESH_TOKEN_SECONDS)
  const row = writtenRow(
    db
      .insert(sessions)
      .values({
        userId,
        refreshHash: hashToken(refreshToken),
        createdAt: now.toISOString(),
        lastSeenAt: now.toISOString(),
        expiresAt: expiresAt.toISOString(),
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip ?? null
      })
      .returning()
  )
  return { session: row, refresh: { token: refreshToken, expiresAt } }
}

export type RefreshOutcome =
  | { kind: 'rotated'; session: SessionRow; refresh: { token: string; expiresAt: Date } }
  | { kind: 'grace'; session: SessionRow }
  | { kind: 'reused' }
  | { kind: 'invalid' }

/**
 * Rotation with reuse detection, in one transaction: the current token is swapped for a new one and
 * the old one joins the session's history; the immediately previous token inside the grace window
 * yields only a new access token; any other rotated token, however many rotations back, revokes the
 * whole session (a thief and the owner cannot both keep it).
 */
export function rotateRefreshToken (db: Db, presented: string, now: Date): RefreshOutcome {
  const hash = hashToken(presented)
  const stamp = now.toISOString()
  return db.transaction((tx) => {
    const current = tx
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.refreshHash, hash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, stamp)
        )
      )
      .get()
    if (current) {
      const refreshToken = randomToken()
      const expiresAt = plusSeconds(now, REFRESH_TOKEN_SECONDS)
      const session = writtenRow(
        tx
          .update(sessions)
          .set({
            refreshHash: hashToken(refreshToken),
            previousRefreshHash: hash,
            rotatedAt: stamp,
            lastSeenAt: stamp,
            expiresAt: expiresAt.toISOString()
          })
          .where(eq(sessions.id, current.id))
          .returning()
      )
      const rotated = [{ tokenHash: hash, sessionId: current.id, rotatedAt: stamp }]
      // A session rotated before the history table existed knows its previous token only in the
      // session row.
      if (current.previousRefreshHash) {
        rotated.push({
          tokenHash: current.previousRefreshHash,
          sessionId: current.id,
          rotatedAt: current.rotatedAt ?? stamp
        })
      }
      tx.insert(refreshTokenHistory).values(rotated).onConflictDoNothing().run()
      return { kind: 'rotated', session, refresh: { token: refreshToken, expiresAt } }
    }
    const history = tx
      .select({ sessionId: refreshTokenHistory.sessionId })
      .from(refreshTokenHistory)
      .where(eq(refreshTokenHistory.tokenHash, hash))
      .get()
    const previous = history
      ? tx.select().from(sessions).where(eq(sessions.id, history.sessionId)).get()
      : tx.select().from(sessions).where(eq(sessions.previousRefreshHash, hash)).get()
    if (!previous || previous.revokedAt) return { kind: 'invalid' }
    const rotatedAt = previous.rotatedAt ? Date.parse(previous.rotatedAt) : 0
    const isPrevious = previous.previousRefreshHash === hash
    if (isPrevious && now.getTime() - rotatedAt <= REUSE_GRACE_MS && previous.expiresAt > stamp) {
      return { kind: 'grace', session: previous }
    }
    tx.update(sessions).set({ revokedAt: stamp }).where(eq(sessions.id, previous.id)).run()
    return { kind: 'reused' }
  })
}

export function revokeSession (db: Db, sessionId: number, now: Date, userId?: number): boolean {
  const where =
    userId === undefined
      ? eq(sessions.id, sessionId)
      : and(eq(sessions.id, sessionId), eq(sessions.userId, userId))
  const result = db
    .update(sessions)
    .set({ revokedAt: now.toISOString() })
    .where(and(where, isNull(sessions.revokedAt)))
    .run()
  return result.changes > 0
}

export function findSessionByRefresh (db: Db, presented: string): SessionRow | undefined {
  const hash = hashToken(presented)
  return db.select().from(sessions).where(eq(sessions.refreshHash, hash)).get()
}

/** Ends every session of a user, optionally sparing one (the one that changed the password). */
export function revokeUserSessions (
  db: Db,
  userId: number,
  now: Date,
  exceptSessionId?: number
): void {
  db.update(sessions)
    .set({ revokedAt: now.toISOString() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId)
      )
    )
    .run()
}

export function listLiveSessions (db: Db, userId: number, now: Date): SessionRow[] {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now.toISOString())
      )
    )
    .orderBy(desc(sessions.lastSeenAt))
    .all()
}

/**
 * Sessions that ended (revoked or expired) this long ago are deleted, their refresh history with
 * them.
 */
export const DEAD_SESSION_RETENTION_MS = 7 * 24 * 3600_000

/**
 * Logins add a session row and every refresh a history row: without pruning both grow for ever. A
 * week after its end a session is of no use, not even for reuse detection (its tokens are dead
 * anyway).
 */
export function deleteDeadSessions (db: Db, now: Date): number {
  const cutoff = new Date(now.getTime() - DEAD_SESSION_RETENTION_MS).toISOString()
  return db
    .delete(sessions)
    .where(or(lt(sessions.revokedAt, cutoff), lt(sessions.expiresAt, cutoff)))
    .run().changes
}
