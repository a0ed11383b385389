import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync }
  from 'node:fs'
import { copyStoredFiles, pruneStoredFiles } from './backup-files.js'
import { basename, dirname, join } from 'node:path'
import Database from 'better-sqlite3'

/**
 * Backups without a cron job (docs/operations.md → Backups): with BACKUP_DIR set, the server writes
 * one at start when the newest is older than a day, then daily, and one before every migration, and
 * keeps the newest BACKUP_KEEP. `bandstand db:backup` writes with the same code.
 */
export interface BackupSettings {
  dir: string
  keep: number
}

export const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000
/** How often the server looks whether a backup is due (cheap: one directory listing). */
export const BACKUP_CHECK_MS = 60 * 60 * 1000

const NAME = /^bandstand-(\d{8}T\d{6}Z)(-pre-migration)?\.db$/

/** bandstand-20261126T130500Z.db: sorts by time, and says when without opening it. */
export function backupFileName (at: Date, suffix = ''): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  return `bandstand-${stamp}${suffix}.db`
}

/**
 * A consistent copy of the database at `target`: `VACUUM INTO` reads one snapshot (the server's
 * writers go on, in WAL mode) into a temporary name, which is integrity-checked and then renamed,
 * so `target` is either absent or a whole, checked database in rollback-journal mode (no -wal or
 * -shm beside it). As private as the database (0600) from its first byte on.
 */
export function writeBackup (sqlite: Database.Database, target: string): { bytes: number } {
  if (existsSync(target)) throw new Error(`${target} exists; choose a new file`)
  const partial = join(dirname(target), `.${basename(target)}.partial-${process.pid}`)
  rmSync(partial, { force: true })
  closeSync(openSync(partial, 'wx', 0o600))
  try {
    sqlite.prepare('VACUUM INTO ?').run(partial)
    const copy = new Database(partial, { readonly: true })
    try {
      const result = copy.pragma('integrity_check', { simple: true })
      if (result !== 'ok') {
        throw new Error(`integrity check of the backup failed: ${String(result)}`)
      }
    } finally {
      copy.close()
    }
    renameSync(partial, target)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  copyStoredFiles(sqlite, target)
  return { bytes: statSync(target).size }
}

/** The backups in `dir`, oldest first. */
export function listBackups (dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort()
}

function takenAt (name: string): number {
  const stamp = NAME.exec(name)![1]!
  return Date.parse(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T` +
      `${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`
  )
}

/** Deletes all but the newest `keep` backups (and partial files a crash left behind). */
export function pruneBackups (settings: BackupSettings): string[] {
  const all = listBackups(settings.dir)
  const removed = all.slice(0, Math.max(0, all.length - settings.keep))
  for (const name of removed) rmSync(join(settings.dir, name), { force: true })
  if (removed.length > 0) pruneStoredFiles(settings.dir, listBackups(settings.dir))
  for (const name of readdirSync(settings.dir)) {
    if (/^\.bandstand-.*\.partial-(\d+)$/.test(name)) {
      const pid = Number(name.split('-').pop())
      if (pid !== process.pid) rmSync(join(settings.dir, name), { force: true })
    }
  }
  return removed
}

/** Writes a backup into the backup directory and prunes; returns the new file's path. */
export function backupNow (
  sqlite: Database.Database,
  settings: BackupSettings,
  now: Date,
  suffix = ''
): string {
  mkdirSync(settings.dir, { recursive: true, mode: 0o700 })
  let name = backupFileName(now, suffix)
  // Two in the same second (a migration at a start that also backs up): the later waits a name.
  for (let n = 1; existsSync(join(settings.dir, name)); n++) {
    name = backupFileName(new Date(now.getTime() + n * 1000), suffix)
  }
  const target = join(settings.dir, name)
  writeBackup(sqlite, target)
  pruneBackups(settings)
  return target
}

/** Whether the newest backup is older than a day (or there is none). */
export function backupDue (settings: BackupSettings, now: Date): boolean {
  const newest = listBackups(settings.dir).map(takenAt).sort((a, b) => a - b).at(-1)
  return newest === undefined || now.getTime() - newest >= BACKUP_EVERY_MS
}

export interface BackupLog {
  info(object: object, message: string): void
  error(object: object, message: string): void
}

/**
 * The server's daily backup: one now when due, then a look every hour. A failed backup is logged
 * at error level and tried again at the next look; it never stops the server.
 */
export function scheduleBackups (
  sqlite: Database.Database,
  settings: BackupSettings,
  clock: () => Date,
  log: BackupLog
): () => void {
  const run = () => {
    try {
      if (!sqlite.open || !backupDue(settings, clock())) return
      const file = backupNow(sqlite, settings, clock())
      log.info({ file }, 'backup written')
    } catch (error) {
      log.error({ err: error, dir: settings.dir }, 'backup failed')
    }
  }
  run()
  const timer = setInterval(run, BACKUP_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
