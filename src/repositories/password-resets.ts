import { and, count, eq, gt, inArray, isNull, lt, or } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { passwordResetTokens, users, type UserRow } from '#src/db/schema.js'
import type { LinkKind } from '#shared/enums.js'
import { ApiError, badRequest, conflict, notFound } from '#src/errors.js'
import { hashToken, randomToken } from '#src/auth/tokens.js'
import { chunksFor, columnCount } from '#src/db/batch.js'
import { revokeUserSessions } from './sessions.js'
import { updateUser } from './users.js'
import { returnedRow } from '#src/db/returning.js'

// One-time password links, created by an admin (or the command line) for a member. Only the
// SHA-256 of the 256-bit token is stored; a link works once. Shared by the HTTP routes and the
// command line (which prints a link per user, e.g. after an import). An invitation is the same
// link with a longer life, made with a new member who has no password yet.

/** The command line's links: the operator hands them on at once. */
export const RESET_LINK_MINUTES = 15
/** Default life of an admin's reset link (ADMIN_RESET_LINK_HOURS): passed on by chat or mail. */
export const ADMIN_RESET_LINK_HOURS = 24
/** An invitation waits for a member who may open it only at the weekend. */
export const INVITE_LINK_DAYS = 7
/**
 * Links printed for a whole band at once after an import: the admin passes them on by chat or mail
 * and members open them over the next days, so 15 minutes would not do. Still single use, and
 * only their hash is stored.
 */
export const IMPORT_RESET_LINK_HOURS = 72
/** Links per user within an hour: more is 429 (a member's inbox is not a target). */
export const RESET_LINKS_PER_HOUR = 5
/**
 * Rows used or expired this long ago are deleted when a new link is made (by expiry, not by age:
 * invitations and import links live for days).
 */
const KEEP_MS = 24 * 3600_000

/** Where the web app takes the token; in the fragment, so it never reaches a server log. */
export const resetUrl = (baseUrl: string, token: string) =>
  `${baseUrl.replace(/\/+$/, '')}/app/reset-password#token=${token}`

/**
 * Marks every unused link (reset or import) of a user used: a link made before the password was
 * changed or set, or before a deactivation or reactivation, must not outlive it. Call it in the
 * transaction that writes the change.
 */
export function endResetLinks (tx: Writer, userId: number, now: Date): void {
  tx.update(passwordResetTokens)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .run()
}

const invalidLink = () =>
  badRequest('RESET_TOKEN_INVALID', 'the reset link is unknown, used or expired')

/**
 * Creates a link for an active user; an earlier unused link of theirs stops working. Throws
 * USER_NOT_FOUND, USER_INACTIVE or RATE_LIMITED.
 */
export function createResetLink (
  db: Db,
  userId: number,
  createdBy: number | null,
  now: Date,
  validMinutes = RESET_LINK_MINUTES
): { token: string; expiresAt: Date; user: UserRow } {
  return db.transaction((tx) => {
    const user = tx.select().from(users).where(eq(users.id, userId)).get()
    if (!user) throw notFound('user', userId)
    if (user.status !== 'active') {
      throw conflict('USER_INACTIVE', `user ${userId} is inactive: reactivate them first`)
    }
    const hourAgo = new Date(now.getTime() - 3600_000).toISOString()
    const recent = tx
      .select({ n: count() })
      .from(passwordResetTokens)
      .where(
        and(eq(passwordResetTokens.userId, userId), gt(passwordResetTokens.createdAt, hourAgo))
      )
      .get()!.n
    if (recent >= RESET_LINKS_PER_HOUR) {
      throw new ApiError(
        'RATE_LIMITED',
        `at most ${RESET_LINKS_PER_HOUR} reset links per user and hour; try again later`
      )
    }
    const { token, expiresAt } = insertLinks(tx, [userId], createdBy, now, validMinutes)[0]!
    return { token, expiresAt, user }
  })
}

type Writer = Pick<Db, 'insert' | 'update' | 'delete'>

/**
 * New links for these users in three statements (for any realistic number of users): only the
 * newest link of a user works, and rows of a day ago are of no use any more.
 */
function insertLinks (
  tx: Writer,
  userIds: number[],
  createdBy: number | null,
  now: Date,
  validMinutes: number,
  kind: LinkKind = 'reset'
): Array<{ userId: number; token: string; expiresAt: Date }> {
  const stamp = now.toISOString()
  for (const ids of chunksFor(userIds, 1)) {
    tx.update(passwordResetTokens)
      .set({ usedAt: stamp })
      .where(and(inArray(passwordResetTokens.userId, ids), isNull(passwordResetTokens.usedAt)))
      .run()
  }
  const cutoff = new Date(now.getTime() - KEEP_MS).toISOString()
  tx.delete(passwordResetTokens)
    .where(
      or(lt(passwordResetTokens.expiresAt, cutoff), lt(passwordResetTokens.usedAt, cutoff))
    )
    .run()
  const expiresAt = new Date(now.getTime() + validMinutes * 60_000)
  const links = userIds.map((userId) => ({ userId, token: randomToken(), expiresAt }))
  for (const chunk of chunksFor(links, columnCount(passwordResetTokens))) {
    tx.insert(passwordResetTokens)
      .values(
        chunk.map((link) => ({
          userId: link.userId,
          tokenHash: hashToken(link.token),
          kind,
          createdBy,
          createdAt: stamp,
          expiresAt: expiresAt.toISOString()
        }))
      )
      .run()
  }
  return links
}

/**
 * Links for every active user among `userIds`, at once and valid for IMPORT_RESET_LINK_HOURS: what
 * the importers print for the admin, since imported users have no usable password. Runs inside the
 * caller's transaction (the links exist only if the import commits). Inactive users get none: they
 * cannot log in; `user:reset-link` makes one once they are reactivated.
 */
export function createImportResetLinks (
  tx: Writer & Pick<Db, 'select'>,
  userIds: number[],
  now: Date
): Array<{ user: UserRow; token: string; expiresAt: Date }> {
  const wanted = new Set(userIds)
  const active = tx
    .select()
    .from(users)
    .where(eq(users.status, 'active'))
    .orderBy(users.id)
    .all()
    .filter((user) => wanted.has(user.id))
  if (active.length === 0) return []
  const byId = new Map(active.map((user) => [user.id, user]))
  return insertLinks(
    tx,
    active.map((user) => user.id),
    null,
    now,
    IMPORT_RESET_LINK_HOURS * 60
  ).map(({ userId, ...link }) => ({ ...link, user: byId.get(userId)! }))
}

/**
 * The invitation of a member just created (no password yet), valid INVITE_LINK_DAYS; runs in the
 * caller's transaction, so a user is never left without their link.
 */
export function createInviteLink (
  tx: Writer,
  userId: number,
  createdBy: number,
  now: Date
): { token: string; expiresAt: Date } {
  return insertLinks(tx, [userId], createdBy, now, INVITE_LINK_DAYS * 24 * 60, 'invite')[0]!
}

const liveLink = (tokenHash: string, stamp: string) =>
  and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, stamp)
  )

/** The user a live link belongs to (active users only), or RESET_TOKEN_INVALID. */
export function resetLinkUser (
  db: Db,
  token: string,
  now: Date
): { user: UserRow; expiresAt: string; kind: LinkKind } {
  const row = db
    .select({
      user: users,
      expiresAt: passwordResetTokens.expiresAt,
      kind: passwordResetTokens.kind
    })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(and(liveLink(hashToken(token), now.toISOString()), eq(users.status, 'active')))
    .get()
  if (!row) throw invalidLink()
  return row
}

/**
 * Uses the link: marks it used (a compare-and-set, so of two racing uses one wins), sets the new
 * password hash and ends every session of the user, in one transaction.
 */
export function redeemResetLink (db: Db, token: string, passwordHash: string, now: Date): UserRow {
  const stamp = now.toISOString()
  return db.transaction((tx) => {
    const used = returnedRow(
      tx
        .update(passwordResetTokens)
        .set({ usedAt: stamp })
        .where(liveLink(hashToken(token), stamp))
        .returning({ userId: passwordResetTokens.userId })
    )
    const user = used && tx.select().from(users).where(eq(users.id, used.userId)).get()
    if (!user || user.status !== 'active') throw invalidLink()
    revokeUserSessions(tx, user.id, now)
    return updateUser(tx, user.id, { passwordHash, passwordChangeRequired: false }, now)!
  })
}
