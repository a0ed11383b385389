import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { count } from '#src/db/orm.js'
import { tightenMode, type Db } from './db/client.js'
import { users } from './db/schema.js'
import { hashPassword } from '#src/auth/password.js'
import { ConfigError } from './config.js'

/** As JWT_SECRET must be (src/config.ts). */
const MIN_SECRET_LENGTH = 32

/**
 * JWT_SECRET, or a secret generated on first start and kept in the data directory (mode 0600). A
 * kept secret that is empty or too short (a truncated file, a bad restore) stops the start with a
 * ConfigError that says what to do.
 */
export function ensureJwtSecret (dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv
  const file = join(dataDir, 'jwt-secret')
  if (existsSync(file)) {
    tightenMode(file, 0o600) // older versions left it 0644
    const kept = readNamed(file).trim()
    if (kept.length >= MIN_SECRET_LENGTH) return kept
    throw new ConfigError(
      `Invalid configuration:\n  ${file} is empty or shorter than ${MIN_SECRET_LENGTH} ` +
        'characters. Restore it from your backup, or delete it to have a new secret generated ' +
        '(everyone logs in again), or set JWT_SECRET.'
    )
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return secret
}

/**
 * With no user at all, creates `admin` with ADMIN_PASSWORD or a random password.
 * Returns the generated password (to be shown once), or null when nothing was generated.
 */
export async function ensureFirstAdmin (
  db: Db,
  now: Date,
  adminPassword?: string
): Promise<{ created: boolean; generatedPassword: string | null }> {
  const existing = db.select({ n: count() }).from(users).get()
  if ((existing?.n ?? 0) > 0) return { created: false, generatedPassword: null }
  const password = adminPassword ?? randomBytes(18).toString('base64url')
  const stamp = now.toISOString()
  // Another process (a second server, the CLI) may create users while the password is hashed: only
  // a row this call inserted counts, else the printed password would never have been stored.
  const inserted = db
    .insert(users)
    .values({
      username: FIRST_ADMIN_USERNAME,
      displayName: 'Administrator',
      role: 'admin',
      status: 'active',
      isMusician: false,
      passwordHash: await hashPassword(password),
      // A generated password is written to the log and a file: it must be replaced first.
      passwordChangeRequired: adminPassword === undefined,
      createdAt: stamp,
      updatedAt: stamp
    })
    .onConflictDoNothing()
    .run().changes
  if (inserted === 0) return { created: false, generatedPassword: null }
  return { created: true, generatedPassword: adminPassword ? null : password }
}

/** readFileSync, whose errors always name the file (EISDIR on a read does not). */
function readNamed (file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    const withPath = error as NodeJS.ErrnoException
    withPath.path ??= file
    throw withPath
  }
}

/** Where the generated first password is kept until the admin changes it (README → First login). */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password'

/**
 * Keeps the generated first password in DATA_DIR (0600, readable by the server's user and root):
 * a log at LOG_LEVEL=error, a journal that rotated, or a container's lost output cannot lose it.
 */
export function keepInitialAdminPassword (dataDir: string, password: string): string {
  const file = join(dataDir, INITIAL_PASSWORD_FILE)
  writeFileSync(file, password + '\n', { mode: 0o600 })
  chmodSync(file, 0o600)
  return file
}

/** The user the generated first password belongs to (ensureFirstAdmin). */
export const FIRST_ADMIN_USERNAME = 'admin'

/**
 * When the first admin's password changes, by any path (their own change, another admin, a
 * reset link), the kept first password is deleted: it no longer opens anything.
 */
export function forgetInitialAdminPassword (dataDir: string, username: string): void {
  if (username !== FIRST_ADMIN_USERNAME) return
  rmSync(join(dataDir, INITIAL_PASSWORD_FILE), { force: true })
}
