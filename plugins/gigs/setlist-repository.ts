import { and, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { chunksFor, columnCount, updateRowsById } from '#src/db/batch.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { ApiError, badRequest, notFound } from '#src/errors.js'
import type { SetlistPutType } from '#schemas/setlists.js'

/**
 * Thrown inside the save transaction when the version is stale; carries nothing, the route reloads.
 */
export class SetlistVersionConflict extends ApiError {
  constructor () {
    super(
      'SETLIST_VERSION_CONFLICT',
      'the setlist was changed by someone else; the current setlist is attached'
    )
  }
}

/**
 * Replaces the whole setlist in ONE synchronous transaction. The version check is the first write
 * (a compare-and-set on gigs.setlist_version), so of two saves based on the same version exactly
 * one wins; any validation error afterwards rolls the bump back. Entries and sets that keep their
 * id are updated in place and so keep their live state.
 */
export function saveSetlist (db: Db, gigId: number, body: SetlistPutType): void {
  db.transaction((tx) => {
    const bumped = tx
      .update(gigs)
      .set({
        setlistVersion: sql`${gigs.setlistVersion} + 1`,
        liveVersion: sql`${gigs.liveVersion} + 1`
      })
      .where(and(eq(gigs.id, gigId), eq(gigs.setlistVersion, body.version)))
      .run()
    if (bumped.changes === 0) {
      const exists = tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, gigId)).get()
      throw exists ? new SetlistVersionConflict() : notFound('gig', gigId)
    }

    const existingSets = tx
      .select({ id: setlistSets.id })
      .from(setlistSets)
      .where(eq(setlistSets.gigId, gigId))
      .all()
    const existingEntries = tx
      .select({ id: setlistEntries.id, songId: setlistEntries.songId })
      .from(setlistEntries)
      .where(eq(setlistEntries.gigId, gigId))
      .all()
    const setIds = new Set(existingSets.map((s) => s.id))
    const entryIds = new Set(existingEntries.map((e) => e.id))
    const songsInSetlist = new Set(existingEntries.map((e) => e.songId))

    const seenSets = new Set<number>()
    const seenEntries = new Set<number>()
    body.sets.forEach((set, i) => {
      if (set.id !== undefined) {
        if (!setIds.has(set.id)) {
          throw badRequest(
            'SET_NOT_IN_GIG',
            `sets.${i}.id: set ${set.id} is not part of gig ${gigId}`
          )
        }
        if (seenSets.has(set.id)) {
          throw badRequest('DUPLICATE_ID', `sets.${i}.id: set ${set.id} appears twice`)
        }
        seenSets.add(set.id)
      }
      set.entries.forEach((entry, j) => {
        if (entry.id === undefined) return
        if (!entryIds.has(entry.id)) {
          throw badRequest(
            'ENTRY_NOT_IN_GIG',
            `sets.${i}.entries.${j}.id: entry ${entry.id} is not part of gig ${gigId}`
          )
        }
        if (seenEntries.has(entry.id)) {
          throw badRequest(
            'DUPLICATE_ID',
            `sets.${i}.entries.${j}.id: entry ${entry.id} appears twice`
          )
        }
        seenEntries.add(entry.id)
      })
    })

    const wanted = [...new Set(body.sets.flatMap((s) => s.entries.map((e) => e.songId)))]
    const found = wanted.length
      ? tx
        .select({ id: songs.id, status: songs.status })
        .from(songs)
        .where(inArray(songs.id, wanted))
        .all()
      : []
    const statusOf = new Map(found.map((s) => [s.id, s.status]))
    const unknown = wanted.filter((id) => !statusOf.has(id))
    if (unknown.length) {
      throw badRequest('UNKNOWN_SONG', `unknown song id(s): ${unknown.join(', ')}`)
    }
    const newlyRetired = wanted.filter(
      (id) => statusOf.get(id) === 'retired' && !songsInSetlist.has(id)
    )
    if (newlyRetired.length) {
      throw badRequest(
        'SONG_RETIRED',
        `retired song(s) cannot be added: ${newlyRetired.join(', ')}`
      )
    }

    // Entries first (they may move between sets), then the sets nobody kept. Every step is one
    // statement (per chunk of thousands of rows) whatever the setlist size.
    tx.delete(setlistEntries)
      .where(
        and(
          eq(setlistEntries.gigId, gigId),
          seenEntries.size ? notInArray(setlistEntries.id, [...seenEntries]) : undefined
        )
      )
      .run()
    const setValues = body.sets.map((set, position) => ({
      name: set.name.trim(),
      position,
      breakAfterSeconds: set.breakAfterSeconds ?? null
    }))
    const keptSets = body.sets.flatMap((set, position) =>
      set.id === undefined ? [] : [{ id: set.id, ...setValues[position]! }]
    )
    updateRowsById(
      tx,
      setlistSets,
      setlistSets.id,
      [setlistSets.name, setlistSets.position, setlistSets.breakAfterSeconds],
      keptSets.map((s) => [s.id, s.name, s.position, s.breakAfterSeconds])
    )
    const newSets = setValues
      .filter((_, position) => body.sets[position]!.id === undefined)
      .map((values) => ({ ...values, gigId }))
    // RETURNING order is unspecified in SQLite: the position (unique within this save) maps ids
    // back.
    const setIdAt = new Map(keptSets.map((s) => [s.position, s.id]))
    for (const chunk of chunksFor(newSets, columnCount(setlistSets))) {
      for (const row of tx
        .insert(setlistSets)
        .values(chunk)
        .returning({ id: setlistSets.id, position: setlistSets.position })
        .all()) {
        setIdAt.set(row.position, row.id)
      }
    }

    const entryUpdates: unknown[][] = []
    const entryInserts: Array<typeof setlistEntries.$inferInsert> = []
    body.sets.forEach((set, setPosition) => {
      const setId = setIdAt.get(setPosition)!
      set.entries.forEach((entry, position) => {
        const notes = entry.notes ?? null
        const durationSeconds = entry.durationSeconds ?? null
        if (entry.id !== undefined) {
          entryUpdates.push([entry.id, setId, position, entry.songId, notes, durationSeconds])
        } else {
          entryInserts.push({
            gigId,
            setId,
            position,
            songId: entry.songId,
            notes,
            durationSeconds
          })
        }
      })
    })
    // Only the planned fields: the live state (status, inserted, rating, live_updated_at) stays as
    // it is.
    updateRowsById(
      tx,
      setlistEntries,
      setlistEntries.id,
      [
        setlistEntries.setId,
        setlistEntries.position,
        setlistEntries.songId,
        setlistEntries.notes,
        setlistEntries.durationSeconds
      ],
      entryUpdates
    )
    for (const chunk of chunksFor(entryInserts, columnCount(setlistEntries))) {
      tx.insert(setlistEntries).values(chunk).run()
    }

    tx.delete(setlistSets)
      .where(and(eq(setlistSets.gigId, gigId), notInArray(setlistSets.id, [...setIdAt.values()])))
      .run()
  })
}
