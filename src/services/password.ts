import { readFileSync } from 'node:fs'
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { projectPath } from '#src/project-path.js'

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

export async function verifyPassword (password: string, stored: string): Promise<boolean> {
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

export const PASSWORD_MIN = 15
export const PASSWORD_MAX = 256

/**
 * NIST SP 800-63B rev. 4 for a password as the only factor: length 15–256, not the username, not a
 * known-common password, no composition rules. Returns the reason, or null when acceptable.
 */
export function passwordProblem (password: string, username: string): string | null {
  const length = [...password.normalize('NFC')].length
  if (length < PASSWORD_MIN) return `password must have at least ${PASSWORD_MIN} characters`
  if (length > PASSWORD_MAX) return `password must have at most ${PASSWORD_MAX} characters`
  if (password.toLowerCase().includes(username.toLowerCase()) && username.length >= 3) {
    return 'password must not contain the username'
  }
  if (isCommonPassword(password)) return 'password is too common'
  return null
}
