import { getTableName } from '#src/db/orm.js'
import type Database from 'better-sqlite3'
import { sessions, users } from '#src/db/schema.js'
import type { RoleType } from '#schemas/common.js'

/**
 * Parameters: session id, user id. The session's expiry is returned, not compared here: it is
 * checked against the app clock on every request (see LiveSessionCheck). The bench runs the same
 * statement for its "bare + session lookup" floor.
 */
export const LIVE_SESSION_SQL = `SELECT u.id, u.role, u.username,
  u.password_change_required AS passwordChangeRequired, s.expires_at AS expiresAt
  FROM ${getTableName(sessions)} s JOIN ${getTableName(users)} u ON u.id = s.user_id
  WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL AND u.status = 'active'`

export interface LiveSession {
  id: number
  role: RoleType
  username: string
  /** 0 or 1, as SQLite stores a boolean. */
  passwordChangeRequired: number
  /** ISO instant, as stored. */
  expiresAt: string
}

/** More sessions than a band has phones: beyond it the remembered checks start over. */
const REMEMBERED_SESSIONS = 10_000

/**
 * The live-session check of every authenticated request (docs/api.md: the session is live, the user
 * active, the role read from the database), remembered per database revision.
 *
 * A session's row can only change through a write, and every write moves the revision
 * (plugins/app/db.ts): this server's at once, another process's (the CLI) within 100 ms. So an
 * answer read at revision R is the answer the database gives at R: logout, deactivation and role
 * changes through the API still take effect on the very next request, and between writes (gig
 * night: phones polling) a request costs the revision read instead of the join. Measured with
 * `npm run bench`: the join took ~17 µs per request inside the server (4–5 µs in a tight loop: it
 * runs with cold caches between two requests' work), half the cost of a 304.
 *
 * Unknown and ended sessions are remembered too (as null), so a flood of requests with a signed
 * but revoked token costs no statement each either. Expiry depends on the time, not on a write:
 * it is compared on every call.
 */
export class LiveSessionCheck {
  private readonly statement: Database.Statement<[number, number], LiveSession>
  private revision = ''
  private readonly remembered = new Map<string, LiveSession | null>()

  constructor (sqlite: Database.Database) {
    this.statement = sqlite.prepare<[number, number], LiveSession>(LIVE_SESSION_SQL)
  }

  /** The user of a live session at `revision` (the current one), or null. */
  check (
    revision: string,
    userId: number,
    sessionId: number,
    now: Date
  ): LiveSession | null {
    if (revision !== this.revision || this.remembered.size >= REMEMBERED_SESSIONS) {
      this.remembered.clear()
      this.revision = revision
    }
    const key = `${sessionId}:${userId}`
    let session = this.remembered.get(key)
    if (session === undefined) {
      session = this.statement.get(sessionId, userId) ?? null
      this.remembered.set(key, session)
    }
    return session !== null && session.expiresAt > now.toISOString() ? session : null
  }
}
