import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { ConfigError } from '#src/config.js'

/**
 * One writer per DATA_DIR: the server (and the CLI's bulk writes) hold `DATA_DIR/bandstand.lock`.
 *
 * Why a pid file and not flock(2) or `proper-lockfile`: Node has no flock, and proper-lockfile
 * keeps a lock alive by touching it every few seconds (a write on a full disk, and a lock that
 * goes stale while the event loop is blocked by a long import). A file created with O_EXCL that
 * holds the holder's pid, host and boot id is free of both, and is stale-safe: a holder that is
 * no longer alive (a crash, SIGKILL, a power cut: other boot id) leaves a lock the next start
 * takes over. A lock of another host (a second container or machine on a shared volume) cannot be
 * checked and is never taken over: the message names the file to delete.
 */
export const LOCK_FILE = 'bandstand.lock'

interface LockOwner {
  pid: number
  host: string
  bootId: string
  /** What holds it: "server" or the CLI command. */
  what: string
}

/** The exit status for "cannot run with this configuration" (EX_CONFIG, as for a bad variable). */
export class DataDirLocked extends ConfigError {
  override name = 'DataDirLocked'
}

function bootId (): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  } catch {
    return '' // not Linux: the pid check alone
  }
}

function alive (pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // alive, of another user
  }
}

function readOwner (file: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockOwner
  } catch {
    return null // removed meanwhile, or half written by a holder that crashed while writing it
  }
}

/** Whether the lock in `owner` still belongs to a running process. */
function held (owner: LockOwner | null): boolean {
  if (!owner || typeof owner.pid !== 'number') return false
  if (owner.host !== hostname()) return true
  if (owner.bootId !== bootId()) return false
  return owner.pid !== process.pid && alive(owner.pid)
}

function describe (owner: LockOwner, file: string): string {
  const where = owner.host === hostname() ? `pid ${owner.pid}` : `pid ${owner.pid} on ${owner.host}`
  const holder = owner.what === 'server' ? 'a Bandstand server' : `"bandstand ${owner.what}"`
  const hint =
    owner.what === 'server'
      ? 'stop it first (systemctl stop bandstand), or use another DATA_DIR'
      : 'wait for it to finish'
  const remote =
    owner.host === hostname() ? '' : `; if nothing runs there any more, delete ${file}`
  return `${holder} (${where}) is using ${file.replace(/\/[^/]+$/, '')}: ${hint}${remote}.`
}

/**
 * Takes the lock of `dataDir` for `what` ("server" or a CLI command) or throws DataDirLocked with
 * one line naming the holder. Returns the release function (also run at process exit).
 */
export function lockDataDir (dataDir: string, what: string): () => void {
  const file = join(dataDir, LOCK_FILE)
  const mine: LockOwner = { pid: process.pid, host: hostname(), bootId: bootId(), what }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      try {
        writeSync(fd, JSON.stringify(mine) + '\n')
      } catch (error) {
        // A full disk creates the file but cannot fill it: leave no empty lock behind, and name the
        // file so the error becomes one actionable line (start-errors.ts).
        closeSync(fd)
        unlinkSync(file)
        throw Object.assign(error as NodeJS.ErrnoException, { path: file })
      }
      closeSync(fd)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error
      const owner = readOwner(file)
      if (held(owner)) throw new DataDirLocked(describe(owner!, file))
      // Stale (its holder ended without removing it): taken over.
      try {
        unlinkSync(file)
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError
      }
    }
  }
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    // Only our own lock: a later holder's is left alone.
    if (readOwner(file)?.pid !== process.pid) return
    try {
      unlinkSync(file)
    } catch {
      // already gone
    }
  }
  process.on('exit', release)
  return release
}
