import { alias, count, eq } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, setlistEntries, setlistPublications, setlistSets, users } from '#src/db/schema.js'
import { conflict, notFound } from '#src/errors.js'
import { SetlistVersionConflict } from '#src/repositories/setlist-writes.js'
import type { SetlistPublicationType } from '#schemas/setlists.js'

const publisher = alias(users, 'publisher')

/** The gig's setlist version and its publication: one statement. */
export function loadPublication (db: Db, gigId: number): SetlistPublicationType | undefined {
  const row = db
    .select({
      current: gigs.setlistVersion,
      version: setlistPublications.version,
      publishedAt: setlistPublications.publishedAt,
      publishedBy: setlistPublications.publishedBy,
      publishedByName: publisher.displayName
    })
    .from(gigs)
    .leftJoin(setlistPublications, eq(setlistPublications.gigId, gigs.id))
    .leftJoin(publisher, eq(publisher.id, setlistPublications.publishedBy))
    .where(eq(gigs.id, gigId))
    .get()
  if (!row) return undefined
  const { current, ...publication } = row
  return {
    gigId,
    published: publication.version !== null,
    ...publication,
    changedSince: publication.version !== null && publication.version !== current
  }
}

/**
 * Publishes the setlist as of `version` (it must be the current one: the band gets what the
 * editor saw). Returns whether it was published before (an update) and the set and song counts;
 * `null` when that version was published already (nothing to announce).
 */
export function publishSetlist (
  db: Db,
  gigId: number,
  version: number,
  by: number,
  now: Date
): { again: boolean; sets: number; songs: number } | null {
  return db.transaction((tx) => {
    const gig = tx
      .select({ version: gigs.setlistVersion, published: setlistPublications.version })
      .from(gigs)
      .leftJoin(setlistPublications, eq(setlistPublications.gigId, gigs.id))
      .where(eq(gigs.id, gigId))
      .get()
    if (!gig) throw notFound('gig', gigId)
    if (gig.version !== version) throw new SetlistVersionConflict()
    if (gig.published === version) return null
    const songs = tx
      .select({ n: count() })
      .from(setlistEntries)
      .where(eq(setlistEntries.gigId, gigId))
      .get()!.n
    if (songs === 0) throw conflict('SETLIST_EMPTY', 'an empty setlist cannot be published')
    const sets = tx.select({ n: count() }).from(setlistSets).where(eq(setlistSets.gigId, gigId))
      .get()!.n
    const values = { version, publishedAt: now.toISOString(), publishedBy: by }
    tx.insert(setlistPublications)
      .values({ gigId, ...values })
      .onConflictDoUpdate({ target: setlistPublications.gigId, set: values })
      .run()
    return { again: gig.published !== null, sets, songs }
  })
}
