import { count, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, rehearsals, songs, surveys, users } from '#src/db/schema.js'

/**
 * True when the database holds anything beyond the first admin, so that seeding or an import would
 * mix with real data. Every other band table hangs off these (votes and repertoire lists need
 * songs, checklists need gigs).
 */
export function hasBandData (db: Db): boolean {
  const n = (row: { n: number } | undefined) => row?.n ?? 0
  return (
    n(db.select({ n: count() }).from(users).where(ne(users.username, 'admin')).get()) > 0 ||
    [songs, rehearsals, surveys, gigs].some(
      (table) => n(db.select({ n: count() }).from(table).get()) > 0
    )
  )
}
