import { and, count, eq, gt, max, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { badRequest, conflict, notFound } from '#src/errors.js'
import type { LiveInsertType, LiveUpdateType } from '#schemas/live.js'
import { MAX_SETLIST_ENTRIES } from '#schemas/setlists.js'
import { writtenRow } from '#src/db/returning.js'
import { assertEntryFresh, bumpLiveVersion, recordTap, tapWithKey } from './taps.js'

const currentVersion = (tx: Pick<Db, 'select'>, gigId: number): number => {
  const gig = tx.select({ v: gigs.liveVersion }).from(gigs).where(eq(gigs.id, gigId)).get()
  if (!gig) throw notFound('gig', gigId)
  return gig.v
}

const missing = (db: Pick<Db, 'select'>, gigId: number, what: () => Error) =>
  db.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, gigId)).get()
    ? what()
    : notFound('gig', gigId)

/**
 * One live change as one synchronous transaction: read the entry, apply the rules, write it and
 * bump the version. Nothing awaits in between, so concurrent requests are serialised and none is
 * lost.
 */
export function updateLiveEntry (
  db: Db,
  gigId: number,
  body: LiveUpdateType,
  now: Date,
  userId: number
): number {
  if (body.status === undefined && body.rating === undefined) {
    throw badRequest('VALIDATION_ERROR', 'status or rating is required')
  }
  return db.transaction((tx) => {
    // A replayed key (a phone's retry or its outbox): nothing again, the current version.
    if (tapWithKey(tx, gigId, userId, body.idempotencyKey)) return currentVersion(tx, gigId)
    const row = tx
      .select({
        status: setlistEntries.status,
        rating: setlistEntries.rating,
        liveUpdatedAt: setlistEntries.liveUpdatedAt,
        songId: setlistEntries.songId
      })
      .from(setlistEntries)
      .where(and(eq(setlistEntries.id, body.entryId), eq(setlistEntries.gigId, gigId)))
      .get()
    if (!row) throw missing(tx, gigId, () => notFound('setlist entry', body.entryId))
    const { songId, ...entry } = row
    // A save may keep an entry's id and change its song: a tap queued for the old song would
    // land on the new one (and the GEMA report would list the wrong work).
    if (body.songId !== undefined && body.songId !== songId) {
      throw conflict(
        'LIVE_VERSION_CONFLICT',
        `entry ${body.entryId} now plays ${songId === null ? 'no song' : `song ${songId}`}, ` +
          `not the song ${body.songId ?? '(none)'} the tap was made for: the show's state stands`
      )
    }
    if (body.version !== undefined) assertEntryFresh(tx, gigId, body.entryId, body.version)
    const status = body.status ?? entry.status
    let rating = body.rating === undefined ? entry.rating : body.rating
    if (status === 'skipped') {
      if (body.rating !== undefined && body.rating !== null) {
        throw conflict('ENTRY_SKIPPED', 'a skipped entry cannot be rated')
      }
      rating = null
    }
    tx.update(setlistEntries)
      // Stamped when the status changes (a later rating keeps the time the song ended).
      .set({
        status,
        rating,
        liveUpdatedAt: status === entry.status ? entry.liveUpdatedAt : now.toISOString()
      })
      .where(eq(setlistEntries.id, body.entryId))
      .run()
    // Kept for Undo (taps.ts): the entry as it was.
    const version = bumpLiveVersion(tx, gigId)
    recordTap(tx, {
      gigId,
      kind: 'update',
      before: [{ id: body.entryId, ...entry }],
      userId,
      idempotencyKey: body.idempotencyKey,
      version,
      now
    })
    return version
  })
}

/**
 * Adds an unplanned song to a set during the show, after `afterEntryId` or at the end of the set.
 * It also bumps the setlist version: an editor's setlist based on the older version would drop the
 * inserted song.
 */
export function insertLiveEntry (
  db: Db,
  gigId: number,
  body: LiveInsertType,
  now: Date,
  userId: number
): { entryId: number; version: number; replayed: boolean } {
  return db.transaction((tx) => {
    const done = tapWithKey(tx, gigId, userId, body.idempotencyKey)
    if (done) {
      return { entryId: done.before[0]!.id, version: currentVersion(tx, gigId), replayed: true }
    }
    const set = tx
      .select({ id: setlistSets.id })
      .from(setlistSets)
      .where(and(eq(setlistSets.id, body.setId), eq(setlistSets.gigId, gigId)))
      .get()
    if (!set) throw missing(tx, gigId, () => notFound('set', body.setId))
    const song = tx
      .select({ status: songs.status })
      .from(songs)
      .where(eq(songs.id, body.songId))
      .get()
    if (!song) throw badRequest('UNKNOWN_SONG', `unknown song id: ${body.songId}`)
    if (song.status === 'retired') {
      throw badRequest('SONG_RETIRED', `song ${body.songId} is retired`)
    }
    const entries = tx.select({ n: count() }).from(setlistEntries)
      .where(eq(setlistEntries.gigId, gigId)).get()!.n
    if (entries >= MAX_SETLIST_ENTRIES) {
      throw badRequest(
        'SETLIST_TOO_LONG',
        `the setlist has ${entries} entries; a setlist holds at most ${MAX_SETLIST_ENTRIES}`
      )
    }
    let position: number
    if (body.afterEntryId !== undefined && body.version !== undefined) {
      assertEntryFresh(tx, gigId, body.afterEntryId, body.version)
    }
    if (body.afterEntryId !== undefined) {
      const after = tx
        .select({ position: setlistEntries.position })
        .from(setlistEntries)
        .where(and(eq(setlistEntries.id, body.afterEntryId), eq(setlistEntries.setId, body.setId)))
        .get()
      if (!after) {
        throw badRequest(
          'ENTRY_NOT_IN_SET',
          `afterEntryId: entry ${body.afterEntryId} is not in set ${body.setId}`
        )
      }
      position = after.position + 1
      tx.update(setlistEntries)
        .set({ position: sql`${setlistEntries.position} + 1` })
        .where(
          and(eq(setlistEntries.setId, body.setId), gt(setlistEntries.position, after.position))
        )
        .run()
    } else {
      const last = tx
        .select({ position: max(setlistEntries.position) })
        .from(setlistEntries)
        .where(eq(setlistEntries.setId, body.setId))
        .get()
      position = (last?.position ?? -1) + 1
    }
    const entryId = writtenRow(
      tx
        .insert(setlistEntries)
        .values({
          gigId,
          setId: body.setId,
          position,
          songId: body.songId,
          inserted: true,
          status: 'planned'
        })
        .returning({ id: setlistEntries.id })
    ).id
    const version = bumpLiveVersion(tx, gigId, true)
    recordTap(tx, {
      gigId,
      kind: 'insert',
      before: [{ id: entryId }],
      userId,
      idempotencyKey: body.idempotencyKey,
      version,
      now
    })
    return { entryId, version, replayed: false }
  })
}
