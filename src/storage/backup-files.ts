import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync }
  from 'node:fs'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'

// The song and gig files beside a backup: `<backup directory>/files/<2 hex>/<sha256>`, as in
// DATA_DIR/files. A stored file never changes (its name is its hash): each backup copies only the
// ones its snapshot names that the directory lacks, and all backups share them.

const SHA256 = /^[0-9a-f]{64}$/

/** The hashes a database (a backup) names; none before the files table existed. */
function namedHashes (databaseFile: string): string[] {
  const db = new Database(databaseFile, { readonly: true })
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'files'")
      .get()
    if (!table) return []
    return (db.prepare('SELECT DISTINCT sha256 FROM files').pluck().all() as string[])
      .filter((hash) => SHA256.test(hash))
  } finally {
    db.close()
  }
}

const pathIn = (filesDir: string, hash: string) => join(filesDir, hash.slice(0, 2), hash)

/**
 * Copies the files the backup at `target` names from the live data directory (beside `sqlite`'s
 * database) into `files/` beside the backup. Each copy is written under a temporary name and
 * renamed: a file in the backup is whole. Returns the hashes it could not find (a file deleted
 * between the snapshot and the copy: the backup then names it, and a restore answers 404 for it).
 */
export function copyStoredFiles (sqlite: Database.Database, target: string): string[] {
  const source = join(dirname(sqlite.name), 'files')
  const into = join(dirname(target), 'files')
  const missing: string[] = []
  for (const hash of namedHashes(target)) {
    const to = pathIn(into, hash)
    if (existsSync(to)) continue
    const from = pathIn(source, hash)
    if (!existsSync(from)) {
      missing.push(hash)
      continue
    }
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 })
    const partial = `${to}.partial-${process.pid}`
    try {
      // A reflink where the file system has them (btrfs, XFS), else a copy.
      copyFileSync(from, partial, constants.COPYFILE_FICLONE)
      renameSync(partial, to)
    } catch (error) {
      rmSync(partial, { force: true })
      throw error
    }
  }
  return missing
}

/** Deletes the files beside the backups that none of the kept `backups` (names in `dir`) names. */
export function pruneStoredFiles (dir: string, backups: string[]): void {
  const filesDir = join(dir, 'files')
  if (!existsSync(filesDir)) return
  const kept = new Set(backups.flatMap((name) => namedHashes(join(dir, name))))
  for (const prefix of readdirSync(filesDir)) {
    for (const name of readdirSync(join(filesDir, prefix))) {
      if (!kept.has(name)) rmSync(join(filesDir, prefix, name), { force: true })
    }
  }
}
