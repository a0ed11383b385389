import { inArray, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { users } from '#src/db/schema.js'
import type { Role } from '#shared/enums.js'

interface DemoUser {
  username: string
  displayName: string
  role: Role
  instruments: string[]
  isSinger: boolean
  isMusician: boolean
}

/** A small German cover band: the band leader edits, the others are members; two sing. */
/* eslint-disable @stylistic/max-len -- one demo record per line reads as a table */
// prettier-ignore
export const DEMO_USERS: DemoUser[] = [
  { username: 'lena', displayName: 'Lena Berger', role: 'editor', instruments: ['Gesang', 'Akustikgitarre'], isSinger: true, isMusician: true },
  { username: 'max', displayName: 'Max Hoffmann', role: 'member', instruments: ['E-Gitarre'], isSinger: false, isMusician: true },
  { username: 'jonas', displayName: 'Jonas Richter', role: 'member', instruments: ['E-Bass'], isSinger: false, isMusician: true },
  { username: 'sophie', displayName: 'Sophie Wagner', role: 'member', instruments: ['Keyboard', 'Gesang'], isSinger: true, isMusician: true },
  { username: 'tim', displayName: 'Tim Schulz', role: 'member', instruments: ['Schlagzeug'], isSinger: false, isMusician: true },
  { username: 'paul', displayName: 'Paul Keller', role: 'member', instruments: [], isSinger: false, isMusician: false }
]
/* eslint-enable @stylistic/max-len */

export interface SeededUsers {
  /** Every demo user's id (admin first), in DEMO_USERS order after the admin. */
  userIds: number[]
  adminId: number
  editorIds: number[]
  memberIds: number[]
  singerIds: number[]
  musicianIds: number[]
}

/**
 * Creates the demo members (and `admin` when the database has none) with one shared password hash,
 * in one transaction. Usernames that already exist are kept as they are and reused.
 */
export function seedUsers (db: Db, ctx: { now: Date; passwordHash: string }): SeededUsers {
  const stamp = ctx.now.toISOString()
  return db.transaction(() => {
    const wanted: DemoUser[] = [
      {
        username: 'admin',
        displayName: 'Administrator',
        role: 'admin',
        instruments: [],
        isSinger: false,
        isMusician: false
      },
      ...DEMO_USERS
    ]
    db.insert(users)
      .values(
        wanted.map((u) => ({
          ...u,
          status: 'active' as const,
          passwordHash: ctx.passwordHash,
          createdAt: stamp,
          updatedAt: stamp
        }))
      )
      .onConflictDoNothing()
      .run()
    const rows = db
      .select()
      .from(users)
      .where(
        inArray(
          sql`lower(${users.username})`,
          wanted.map((u) => u.username)
        )
      )
      .all()
    const byName = new Map(rows.map((r) => [r.username.toLowerCase(), r]))
    const seeded = wanted.map((u) => byName.get(u.username)!)
    const ids = (pick: (r: (typeof seeded)[number]) => boolean) =>
      seeded.filter(pick).map((r) => r.id)
    return {
      userIds: seeded.map((r) => r.id),
      adminId: seeded[0]!.id,
      editorIds: ids((r) => r.role === 'editor' || r.role === 'admin'),
      memberIds: ids((r) => r.username !== 'admin'),
      singerIds: ids((r) => r.isSinger),
      musicianIds: ids((r) => r.isMusician)
    }
  })
}
