import { and, eq, inArray } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { users } from '#src/db/schema.js'
import { hashPassword } from '#src/auth/password.js'
import { hasBandData } from '#src/repositories/band-content.js'
import { seedUsers, type SeededUsers } from './users.js'
import { seedSongs } from './songs.js'
import { seedRehearsals } from './rehearsals.js'
import { seedSurveys } from './surveys.js'
import { seedGigs } from './gigs.js'
import { seedChecklists } from './checklists.js'
import { seedRepertoire } from './repertoire.js'

/**
 * Every demo user logs in with this password (printed by `demo:seed`); it passes the password
 * policy.
 */
export const DEMO_PASSWORD = 'backstage pass for the demo band'

/**
 * What each per-resource seeder receives: the time to build relative dates from, and the demo
 * users.
 */
export interface SeedContext extends SeededUsers {
  now: Date
}

export class SeedRefused extends Error {
  override name = 'SeedRefused'
}

/**
 * Fills a database with a demo band. Refuses a database that already has data (SeedRefused) unless
 * forced. `mustChangePassword` (the CLI): the demo users, whose password is published, must
 * change it at their first login (an admin kept from before keeps theirs). Each resource has its
 * own synchronous seeder (one transaction each), called in dependency order.
 */
export async function seedDemo (
  db: Db,
  options: { now: Date; force?: boolean; mustChangePassword?: boolean }
): Promise<{ context: SeedContext; password: string }> {
  if (!options.force && hasBandData(db)) {
    throw new SeedRefused(
      'the database already has data beyond the admin; use --force to seed anyway'
    )
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  const context: SeedContext = {
    now: options.now,
    ...seedUsers(db, { now: options.now, passwordHash })
  }

  // ── Per-resource seeders, in dependency order (songs before rehearsals and gigs use them) ──
  const repertoire = seedSongs(db, context)
  seedRehearsals(db, { ...context, songIds: repertoire.readySongIds })
  seedSurveys(db, context)
  const gigs = seedGigs(db, { ...context, songIds: repertoire.readySongIds })
  seedChecklists(db, { ...context, gigIds: gigs.upcomingGigIds.slice(0, 2) })
  seedRepertoire(db, { ...context, songIds: repertoire.readySongIds })
  // ── end of per-resource seeders ────────────────────────────────────────────────────────
  if (options.mustChangePassword) {
    db.update(users)
      .set({ passwordChangeRequired: true })
      .where(and(inArray(users.id, context.userIds), eq(users.passwordHash, passwordHash)))
      .run()
  }

  return { context, password: DEMO_PASSWORD }
}
