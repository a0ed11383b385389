import { statfsSync } from 'node:fs'
import type Database from 'better-sqlite3'
import type { Clock } from '#src/clock.js'

/**
 * SQLite result codes that mean the data could not be stored: a full disk (SQLITE_FULL), a failing
 * card or disk (SQLITE_IOERR_*), a database or directory that is not writable (SQLITE_READONLY_*,
 * SQLITE_CANTOPEN, SQLITE_PERM), a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB).
 */
const STORAGE_FAILURE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|PERM|CORRUPT|NOTADB|NOLFS)(_|$)/

/**
 * The SQLite code when `error` (or an error it wraps: drizzle wraps the driver's errors in a
 * DrizzleQueryError with `cause`) is a storage failure, otherwise undefined.
 */
export function storageFailureCode (error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && STORAGE_FAILURE.test(code)) return code
  }
  return undefined
}

/** The driver's own message, without drizzle's wrapping (which carries the query's values). */
export function storageFailureMessage (error: unknown): string {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (storageFailureCode(e) !== undefined && !(e.cause instanceof Error)) return e.message
  }
  return 'storage failed'
}

/**
 * Logs a storage failure at error level with its SQLite code (not the statement's values) and
 * records it for /health. Returns false, doing nothing, for any other error.
 */
export function reportStorageFailure (
  log: { error(details: object, message: string): void },
  health: Pick<StorageHealth, 'recordFailure'> | undefined,
  error: unknown,
  message: string
): boolean {
  const sqliteCode = storageFailureCode(error)
  if (sqliteCode === undefined) return false
  log.error({ sqliteCode, sqliteMessage: storageFailureMessage(error) }, message)
  health?.recordFailure(sqliteCode)
  return true
}

/** How often at most /health writes to the database to see that it can (a probe is a commit). */
export const PROBE_INTERVAL_MS = 30_000

export interface HealthReport {
  database: 'ok' | 'unreachable' | 'not writable'
  /** Why the server is not healthy; empty when it is. */
  reasons: string[]
}

export interface StorageHealthOptions {
  sqlite: Database.Database
  dataDir: string
  minFreeMb: number
  clock: Clock
  /** Told once when free space falls below MIN_FREE_MB, and once when it is back. */
  log?: { warn(object: object, message: string): void; info(object: object, message: string): void }
}

/**
 * What /health reports about storage: the last write that failed (until a write succeeds again),
 * the free space in DATA_DIR, and a write probe of the database at most every PROBE_INTERVAL_MS.
 */
export class StorageHealth {
  private failure: { code: string; at: Date } | undefined
  private probe: { at: number; code: string | undefined } | undefined
  private readonly ping: Database.Statement
  private lowSpace = false

  constructor (private readonly options: StorageHealthOptions) {
    this.ping = options.sqlite.prepare('SELECT 1')
  }

  /** A write failed with this SQLite code. */
  recordFailure (code: string): void {
    this.failure = { code, at: this.options.clock() }
  }

  /** A write was stored (a write request answered without error). */
  recordWriteSucceeded (): void {
    this.failure = undefined
  }

  check (): HealthReport {
    const reasons: string[] = []
    try {
      this.ping.get()
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error'
      return { database: 'unreachable', reasons: [`the database cannot be read (${code})`] }
    }
    const freeMb = this.freeMb()
    const lowSpace = freeMb !== undefined && freeMb < this.options.minFreeMb
    if (lowSpace) {
      reasons.push(
        `${freeMb} MB free in DATA_DIR, below MIN_FREE_MB (${this.options.minFreeMb} MB)`
      )
    }
    if (freeMb !== undefined) this.noteSpace(freeMb, lowSpace)
    const probe = this.probeIfDue(lowSpace)
    if (this.failure) {
      reasons.push(
        `the last write failed (${this.failure.code} at ${this.failure.at.toISOString()})`
      )
    }
    if (probe.code) reasons.push(`the database cannot be written (${probe.code})`)
    return { database: probe.code ? 'not writable' : 'ok', reasons }
  }

  private noteSpace (freeMb: number, lowSpace: boolean): void {
    if (lowSpace === this.lowSpace) return
    this.lowSpace = lowSpace
    const { minFreeMb, log } = this.options
    if (lowSpace) {
      log?.warn({ freeMb, minFreeMb }, `low disk space: ${freeMb} MB free in DATA_DIR, below ` +
        `MIN_FREE_MB (${minFreeMb} MB): /health answers 503 until there is more`)
    } else {
      log?.info({ freeMb, minFreeMb }, `disk space back: ${freeMb} MB free in DATA_DIR`)
    }
  }

  private freeMb (): number | undefined {
    try {
      const stats = statfsSync(this.options.dataDir)
      return Math.floor((stats.bavail * stats.bsize) / 2 ** 20)
    } catch {
      return undefined // a DATA_DIR that vanished shows in the probe
    }
  }

  /**
   * Writes the database header's user_version (unused by Bandstand) back unchanged: a real commit,
   * fsync included, that changes no row (ETags and revisions stay). It waits for no lock: when the
   * CLI holds the write lock, the previous result stands. A successful probe with enough free space
   * clears a failed write: the database takes writes again.
   */
  private probeIfDue (lowSpace: boolean): { code: string | undefined } {
    const now = this.options.clock().getTime()
    if (this.probe && now - this.probe.at < PROBE_INTERVAL_MS) return this.probe
    const { sqlite } = this.options
    const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number
    let code: string | undefined
    try {
      sqlite.pragma('busy_timeout = 0')
      const version = sqlite.pragma('user_version', { simple: true }) as number
      sqlite.pragma(`user_version = ${Math.trunc(version)}`)
    } catch (error) {
      code = (error as { code?: string }).code ?? 'error'
      if (code.startsWith('SQLITE_BUSY')) return this.probe ?? { code: undefined }
    } finally {
      sqlite.pragma(`busy_timeout = ${Math.trunc(timeout)}`)
    }
    this.probe = { at: now, code }
    if (code === undefined && !lowSpace) this.failure = undefined
    return this.probe
  }
}
