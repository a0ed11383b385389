import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client.js'
import { users, type UserRow } from '../../src/db/schema.js'
import type { UserType } from '../../schemas/users.js'

/** The API view of a user; the email only where the viewer may see it, the hash never. */
export function toUser(row: UserRow, showEmail: boolean): UserType {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    ...(showEmail ? { email: row.email } : {}),
    role: row.role,
    status: row.status,
    isMusician: row.isMusician,
    isSinger: row.isSinger,
    instruments: row.instruments,
    createdAt: row.createdAt
  }
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get()
}

export function findUserByUsername(db: Db, username: string): UserRow | undefined {
  return db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).get()
}
