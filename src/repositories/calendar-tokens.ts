import { eq } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { calendarTokens } from '#src/db/schema.js'

/**
 * Ends a user's calendar feed URL (revoked by the member, or the member deactivated: a reactivated
 * member subscribes anew, the old URL stays dead wherever it was copied to).
 */
export function deleteCalendarToken (db: Pick<Db, 'delete'>, userId: number): void {
  db.delete(calendarTokens).where(eq(calendarTokens.userId, userId)).run()
}
