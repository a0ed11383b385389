import { and, asc, count, eq, ne, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import type { UserStatus } from '#shared/enums.js'
import { users, type UserRow } from '#src/db/schema.js'
import { conflict } from '#src/errors.js'
import type { ProfileUpdateType, UserCreateType, UserType } from '#schemas/users.js'
import { writtenRow, returnedRow } from '#src/db/returning.js'

/** The API view of a user; the email only where the viewer may see it, the hash never. */
export function toUser (row: UserRow, showEmail: boolean): UserType {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    ...(showEmail ? { email: row.email, passwordChangeRequired: row.passwordChangeRequired } : {}),
    role: row.role,
    status: row.status,
    isMusician: row.isMusician,
    isSinger: row.isSinger,
    occasional: row.occasional,
    instruments: row.instruments,
    createdAt: row.createdAt
  }
}

export function findUserById (db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get()
}

export function findUserByUsername (db: Db, username: string): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .get()
}

export function listUsers (db: Db, status?: UserStatus): UserRow[] {
  return db
    .select()
    .from(users)
    .where(status ? eq(users.status, status) : undefined)
    .orderBy(asc(sql`lower(${users.displayName})`), asc(users.id))
    .all()
}

const usernameTaken = (username: string) =>
  conflict('USERNAME_TAKEN', `username ${username} is already taken`)

/** What an admin is called: no member may show as one. */
const ADMIN_WORDS = new Set(['admin', 'administrator', 'administratorin'])
const nameKey = (name: string) => name.normalize('NFC').trim().toLocaleLowerCase('und')

/**
 * A display name is shown wherever a member acts (votes, answers, taps): it may not equal another
 * active member's (case-insensitively), and only an admin may be called "Admin". `userId`: the
 * user it is for (their own current name stays allowed); `role`: theirs after the change.
 */
export function assertDisplayNameFree (
  db: Pick<Db, 'select'>,
  displayName: string,
  who: { userId?: number; role?: UserRow['role'] }
): void {
  const key = nameKey(displayName)
  const others = db
    .select({
      id: users.id,
      displayName: users.displayName,
      status: users.status,
      role: users.role
    })
    .from(users)
    .all()
  const own = others.find((user) => user.id === who.userId)
  if (own && nameKey(own.displayName) === key) return
  const taken = others.some((user) =>
    user.id !== who.userId && user.status === 'active' && nameKey(user.displayName) === key)
  const role = who.role ?? own?.role
  if (taken || (role !== 'admin' && ADMIN_WORDS.has(key))) {
    throw conflict(
      'DISPLAY_NAME_TAKEN',
      `display name "${displayName.trim()}" is ${taken ? "another member's" : 'reserved'}: ` +
        'choose another'
    )
  }
}

/**
 * Inserts a user; the username is unique regardless of case (the index enforces it, this names the
 * error).
 */
export function insertUser (
  db: Db,
  input: Omit<UserCreateType, 'password'>,
  passwordHash: string,
  now: Date
): UserRow {
  if (findUserByUsername(db, input.username)) throw usernameTaken(input.username)
  assertDisplayNameFree(db, input.displayName, { role: input.role })
  const stamp = now.toISOString()
  try {
    return writtenRow(
      db
        .insert(users)
        .values({
          username: input.username,
          displayName: input.displayName,
          email: input.email ?? null,
          role: input.role,
          status: 'active',
          isMusician: input.isMusician ?? true,
          isSinger: input.isSinger ?? false,
          occasional: input.occasional ?? false,
          instruments: input.instruments ?? [],
          passwordHash,
          passwordChangeRequired: input.passwordChangeRequired ?? false,
          createdAt: stamp,
          updatedAt: stamp
        })
        .returning()
    )
  } catch (error) {
    // Another process (the CLI) may have inserted the same name between the check and the insert.
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw usernameTaken(input.username)
    }
    throw error
  }
}

export type UserChanges = Partial<ProfileUpdateType> &
  Partial<
    Pick<UserRow,
      'role' | 'status' | 'isMusician' | 'occasional' | 'passwordHash' | 'passwordChangeRequired'>
  >

/**
 * Replaces a foreign hash (checked at login) by our own, only if it is still the stored one: a
 * password changed meanwhile (a reset link, an admin) wins. True when replaced.
 */
export function replaceForeignHash (
  db: Db,
  id: number,
  foreignHash: string,
  changes: { passwordHash: string; passwordChangeRequired: boolean },
  now: Date
): boolean {
  const { changes: n } = db
    .update(users)
    .set({ ...changes, updatedAt: now.toISOString() })
    .where(and(eq(users.id, id), eq(users.passwordHash, foreignHash)))
    .run()
  return n === 1
}

export function updateUser (
  db: Db,
  id: number,
  changes: UserChanges,
  now: Date
): UserRow | undefined {
  if (changes.displayName !== undefined) {
    assertDisplayNameFree(db, changes.displayName, { userId: id, role: changes.role })
  }
  return returnedRow(
    db
      .update(users)
      .set({ ...changes, updatedAt: now.toISOString() })
      .where(eq(users.id, id))
      .returning()
  )
}

/** Active admins other than the given user: zero means that user is the last one. */
export function countOtherActiveAdmins (db: Db, exceptUserId: number): number {
  const row = db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), ne(users.id, exceptUserId)))
    .get()
  return row?.n ?? 0
}
