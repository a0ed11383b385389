import { readFileSync } from 'node:fs'
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { projectPath } from '#src/project-path.js'
import { workerExecArgv } from '#src/documents/pool.js'
import type { WeakPasswordReason } from '#shared/enums.js'
import { PASSWORD_LIMITS } from '#shared/limits.js'

// OWASP Password Storage Cheat Sheet, scrypt: N=2^14 (16 MiB), r=8, p=5 is one of the listed
// equivalent settings; it keeps memory low on a Raspberry Pi while costing the same as N=2^17, p=1.
const PARAMS = { N: 2 ** 14, r: 8, p: 5 }
const KEY_LENGTH = 32

function derive (
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number }
): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key)
    )
  )
}

/** `scrypt$N$r$p$salt$hash` — the parameters travel with the hash so they can be raised later. */
export async function hashPassword (password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, PARAMS)
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url')
  ].join('$')
}

/**
 * Stored for users who have no password yet: imported users (a libreStage import, a band import)
 * until they use their reset link. No password matches it.
 */
export const UNUSABLE_PASSWORD_HASH = '!no-password: set one with a reset link'

/**
 * Another application's password hash kept on import (libreStage's bcrypt): marked, so that it is
 * never mistaken for one of ours, checked at login and then replaced by our own hash.
 */
export const FOREIGN_HASH_PREFIX = 'foreign:'
/** bcrypt as libreStage (Python's bcrypt/passlib) and PHP write it: `$2a$`, `$2b$`, `$2y$`. */
const BCRYPT = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/
/** bcrypt reads at most 72 bytes and ignores the rest: longer input is refused, not truncated. */
export const BCRYPT_MAX_BYTES = 72
/**
 * The highest bcrypt cost kept on import: a check doubles with each step (cost 12 ~0.3 s, about
 * one of our scrypt checks; 16 took 9.6 s, 31 would take days). Higher: a reset link instead.
 */
export const BCRYPT_MAX_COST = 12

/** A bcrypt hash's cost, or null when `hash` is no bcrypt hash. */
export const bcryptCost = (hash: string): number | null => {
  const match = BCRYPT.exec(hash)
  return match ? Number(match[1]) : null
}

/**
 * A foreign hash to store for an imported user, or null when it is no bcrypt hash or one above
 * BCRYPT_MAX_COST.
 */
export function foreignPasswordHash (hash: string): string | null {
  const cost = bcryptCost(hash)
  return cost !== null && cost <= BCRYPT_MAX_COST ? FOREIGN_HASH_PREFIX + hash : null
}

export const isForeignHash = (stored: string) => stored.startsWith(FOREIGN_HASH_PREFIX)

/** Compiled, the worker is JavaScript; under tsx (tests, development) its TypeScript source. */
const bcryptWorkerFile = fileURLToPath(
  new URL(`./bcrypt-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)
)

/** bcryptjs (pure JS, no native build) in a thread of its own: the main thread stays free. */
const bcryptOffThread = (password: string, hash: string) =>
  new Promise<boolean>((resolve, reject) => {
    const worker = new Worker(bcryptWorkerFile, {
      workerData: { password, hash },
      resourceLimits: { maxOldGenerationSizeMb: 32 },
      ...(bcryptWorkerFile.endsWith('.ts') && { execArgv: workerExecArgv(process.execArgv) })
    })
    worker.once('message', (match: unknown) => resolve(match === true))
    worker.once('error', reject)
  })

/**
 * Checks a password against a foreign (bcrypt) hash, taking the password's UTF-8 bytes as they
 * came, as libreStage hashed them. A scrypt check against the dummy hash runs beside it, and the
 * answer waits for both: a failed login takes the scrypt time whatever the user's hash (a cheap
 * bcrypt cost would otherwise tell who still has an imported one). A cost above BCRYPT_MAX_COST
 * (stored before the import capped it) is never checked.
 */
async function verifyForeign (password: string, stored: string): Promise<boolean> {
  const hash = stored.slice(FOREIGN_HASH_PREFIX.length)
  const padding = dummyPasswordHash().then((dummy) => verifyPassword(password, dummy))
  const cost = bcryptCost(hash)
  if (cost === null || cost > BCRYPT_MAX_COST ||
    Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_BYTES) {
    await padding
    return false
  }
  const [match] = await Promise.all([bcryptOffThread(password, hash), padding])
  return match
}

export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  if (isForeignHash(stored)) return verifyForeign(password, stored)
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) {
    // The same work as a real check, so the time taken does not tell that the account has no
    // password yet.
    await verifyPassword(password, await dummyPasswordHash())
    return false
  }
  const expected = Buffer.from(hash, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p)
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

// Compared against when the username is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () =>
  (dummyHash ??= hashPassword(randomBytes(24).toString('base64url')))

let commonPasswords: Set<string> | undefined
/**
 * The 49,233 most common passwords (zxcvbn-ts, MIT: src/data/common-passwords.LICENSE.txt),
 * lower-cased, loaded on first use.
 */
function isCommonPassword (password: string): boolean {
  commonPasswords ??= new Set(
    readFileSync(projectPath('src', 'data', 'common-passwords.txt'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((p) => p.toLowerCase())
  )
  return commonPasswords.has(password.toLowerCase())
}

const { min: PASSWORD_MIN, max: PASSWORD_MAX } = PASSWORD_LIMITS

/** Why a password is refused: a code for clients, an English message. */
export interface PasswordWeakness {
  reason: WeakPasswordReason
  message: string
}

/**
 * NIST SP 800-63B rev. 4 for a password as the only factor: length 15–256, not the username, not a
 * known-common password, no composition rules. Returns the weakness, or null when acceptable.
 */
export function passwordWeakness (password: string, username: string): PasswordWeakness | null {
  const length = [...password.normalize('NFC')].length
  if (length < PASSWORD_MIN) {
    const message = `password must have at least ${PASSWORD_MIN} characters`
    return { reason: 'too_short', message }
  }
  if (length > PASSWORD_MAX) {
    const message = `password must have at most ${PASSWORD_MAX} characters`
    return { reason: 'too_long', message }
  }
  if (password.toLowerCase().includes(username.toLowerCase()) && username.length >= 3) {
    return { reason: 'contains_username', message: 'password must not contain the username' }
  }
  if (isCommonPassword(password)) {
    return { reason: 'too_common', message: 'password is too common' }
  }
  return null
}

/** The weakness's message, or null when the password is acceptable. */
export const passwordProblem = (password: string, username: string): string | null =>
  passwordWeakness(password, username)?.message ?? null
