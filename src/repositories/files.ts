import { eq, inArray, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { files } from '#src/db/schema.js'
import type { FileStore } from '#src/files/store.js'

/** Which files a deletion is about to take with it. */
export type FileOwner = { songId: number } | { gigId: number }

/** The hashes the files of a song or gig name (read before the song or gig is deleted). */
export function fileHashesOf (db: Db, owner: FileOwner): string[] {
  const where = 'songId' in owner ? eq(files.songId, owner.songId) : eq(files.gigId, owner.gigId)
  return db.selectDistinct({ sha256: files.sha256 }).from(files).where(where).all()
    .map((row) => row.sha256)
}

/** Of these hashes, the ones no file row names any more. */
export function unusedHashes (db: Db, hashes: string[]): string[] {
  if (hashes.length === 0) return []
  const used = new Set(
    db.selectDistinct({ sha256: files.sha256 }).from(files)
      .where(inArray(files.sha256, hashes)).all().map((row) => row.sha256)
  )
  return hashes.filter((hash) => !used.has(hash))
}

/**
 * Removes from disk the bytes of these hashes that no row names any more. Synchronous from the
 * check to the removal: an upload of the same bytes commits its file and its row in one turn of
 * the event loop, so it cannot slip in between.
 */
export function removeUnusedFiles (db: Db, store: FileStore, hashes: string[]): void {
  store.remove(unusedHashes(db, hashes))
}

/** Bytes the band's files take on disk: each content once. */
export function usedFileBytes (db: Db): number {
  const row = db.get<{ bytes: number | null }>(sql`
    SELECT sum(bytes) AS bytes FROM (SELECT max(bytes) AS bytes FROM files GROUP BY sha256)`)
  return row?.bytes ?? 0
}
