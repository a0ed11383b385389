import {
  and, eq, inArray, notInArray, sql, type SQLiteColumn, type SQLiteTable
} from '#src/db/orm.js'
import type { Db, Tx } from '#src/db/client.js'
import { chunksFor, columnCount, updateRowsById } from '#src/db/batch.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'
import { ApiError, badRequest, conflict, errorBody, notFound } from '#src/errors.js'
import type { ErrorCodeOf } from '#src/error-codes.js'
import {
  MAX_ENTRIES_PER_SET,
  MAX_SETLIST_ENTRIES,
  MAX_SETS,
  type SetlistPutType,
  type SetlistSetType
} from '#schemas/setlists.js'

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

  /** The 409 body, with what the client should reload. */
  withCurrent<T> (current: T) {
    return { ...errorBody(this.code, this.message), current }
  }
}

/**
 * Where a setlist is stored: a gig's setlist and a repertoire setlist (a gig-independent
 * programme) have the same shape in their own tables, and are saved by the same code and rules.
 */
export interface SetlistStore {
  sets: {
    table: SQLiteTable
    id: SQLiteColumn
    owner: SQLiteColumn
    /** The owner column's property name in the table's insert type. */
    ownerKey: string
    name: SQLiteColumn
    position: SQLiteColumn
    breakAfterSeconds: SQLiteColumn
  }
  entries: {
    table: SQLiteTable
    id: SQLiteColumn
    owner: SQLiteColumn
    ownerKey: string
    setId: SQLiteColumn
    position: SQLiteColumn
    songId: SQLiteColumn
    /** A free-text entry's title (null for a song entry). */
    title: SQLiteColumn
    notes: SQLiteColumn
    durationSeconds: SQLiteColumn
    transpose: SQLiteColumn
    capo: SQLiteColumn
  }
  /** Compare-and-set of the owner's version (plus whatever a save also bumps): rows changed. */
  bumpVersion(tx: Tx, ownerId: number, expected: number): number
  exists(tx: Tx, ownerId: number): boolean
  notFound(ownerId: number): ApiError
  /** How the owner is named in messages ("gig 7"). */
  noun: string
  codes: { set: ErrorCodeOf<400>; entry: ErrorCodeOf<400> }
}

/** A gig's setlist; a save also bumps the live version (live followers get a fresh snapshot). */
export const gigSetlistStore: SetlistStore = {
  sets: {
    table: setlistSets,
    id: setlistSets.id,
    owner: setlistSets.gigId,
    ownerKey: 'gigId',
    name: setlistSets.name,
    position: setlistSets.position,
    breakAfterSeconds: setlistSets.breakAfterSeconds
  },
  entries: {
    table: setlistEntries,
    id: setlistEntries.id,
    owner: setlistEntries.gigId,
    ownerKey: 'gigId',
    setId: setlistEntries.setId,
    position: setlistEntries.position,
    songId: setlistEntries.songId,
    title: setlistEntries.title,
    notes: setlistEntries.notes,
    durationSeconds: setlistEntries.durationSeconds,
    transpose: setlistEntries.transpose,
    capo: setlistEntries.capo
  },
  bumpVersion: (tx, gigId, expected) =>
    tx
      .update(gigs)
      .set({
        setlistVersion: sql`${gigs.setlistVersion} + 1`,
        liveVersion: sql`${gigs.liveVersion} + 1`
      })
      .where(and(eq(gigs.id, gigId), eq(gigs.setlistVersion, expected)))
      .run().changes,
  exists: (tx, gigId) => !!tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, gigId)).get(),
  notFound: (gigId) => notFound('gig', gigId),
  noun: 'gig',
  codes: { set: 'SET_NOT_IN_GIG', entry: 'ENTRY_NOT_IN_GIG' }
}

/** Saves a gig's setlist (PUT /gigs/{id}/setlist). */
export const saveSetlist = (db: Db, gigId: number, body: SetlistPutType): void =>
  replaceSetlist(db, gigSetlistStore, gigId, body)

/**
 * Replaces the whole setlist in ONE synchronous transaction. The version check is the first write
 * (a compare-and-set on the owner's version), so of two saves based on the same version exactly
 * one wins; any validation error afterwards rolls the bump back. Entries and sets that keep their
 * id are updated in place and so keep their live state.
 */
export function replaceSetlist (
  db: Db,
  store: SetlistStore,
  ownerId: number,
  body: SetlistPutType
): void {
  const { sets: S, entries: E } = store
  const owner = `${store.noun} ${ownerId}`
  // The body schema holds a PUT to these limits; a copy (append) is checked here.
  if (
    body.sets.length > MAX_SETS ||
    body.sets.some((set) => set.entries.length > MAX_ENTRIES_PER_SET)
  ) {
    throw conflict(
      'LIMIT_REACHED',
      `a setlist holds at most ${MAX_SETS} sets of at most ${MAX_ENTRIES_PER_SET} songs`
    )
  }
  const entries = body.sets.reduce((sum, set) => sum + set.entries.length, 0)
  if (entries > MAX_SETLIST_ENTRIES) {
    throw badRequest(
      'SETLIST_TOO_LONG',
      `the setlist has ${entries} entries; a setlist holds at most ${MAX_SETLIST_ENTRIES}`
    )
  }
  // An entry is a song or a free-text item, never both or neither (the schema cannot say "one
  // of" without making every client's error messages about union branches).
  body.sets.forEach((set, i) => {
    set.entries.forEach((entry, j) => {
      if ((entry.songId === undefined) === (entry.title === undefined)) {
        throw badRequest(
          'ENTRY_SONG_OR_TITLE',
          `sets.${i}.entries.${j}: give either songId (a song) or title (a free-text entry)`
        )
      }
    })
  })
  db.transaction((tx) => {
    if (store.bumpVersion(tx, ownerId, body.version) === 0) {
      throw store.exists(tx, ownerId) ? new SetlistVersionConflict() : store.notFound(ownerId)
    }

    const existingSets = tx
      .select({ id: S.id })
      .from(S.table)
      .where(eq(S.owner, ownerId))
      .all() as Array<{ id: number }>
    const existingEntries = tx
      .select({ id: E.id, songId: E.songId })
      .from(E.table)
      .where(eq(E.owner, ownerId))
      .all() as Array<{ id: number; songId: number | null }>
    const setIds = new Set(existingSets.map((s) => s.id))
    const entryIds = new Set(existingEntries.map((e) => e.id))
    const songsInSetlist = new Set(existingEntries.map((e) => e.songId))

    const seenSets = new Set<number>()
    const seenEntries = new Set<number>()
    body.sets.forEach((set, i) => {
      if (set.id !== undefined) {
        if (!setIds.has(set.id)) {
          throw badRequest(store.codes.set, `sets.${i}.id: set ${set.id} is not part of ${owner}`)
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
            store.codes.entry,
            `sets.${i}.entries.${j}.id: entry ${entry.id} is not part of ${owner}`
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

    const wanted = [
      ...new Set(body.sets.flatMap((s) => s.entries.flatMap((e) => e.songId ?? [])))
    ]
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
    tx.delete(E.table)
      .where(
        and(
          eq(E.owner, ownerId),
          seenEntries.size ? notInArray(E.id, [...seenEntries]) : undefined
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
      S.table,
      S.id,
      [S.name, S.position, S.breakAfterSeconds],
      keptSets.map((s) => [s.id, s.name, s.position, s.breakAfterSeconds])
    )
    const newSets = setValues
      .filter((_, position) => body.sets[position]!.id === undefined)
      .map((values) => ({ ...values, [S.ownerKey]: ownerId }))
    // RETURNING order is unspecified in SQLite: the position (unique within this save) maps ids
    // back.
    const setIdAt = new Map(keptSets.map((s) => [s.position, s.id]))
    for (const chunk of chunksFor(newSets, columnCount(S.table))) {
      for (const row of tx
        .insert(S.table)
        .values(chunk as never)
        .returning({ id: S.id, position: S.position })
        .all() as Array<{ id: number; position: number }>) {
        setIdAt.set(row.position, row.id)
      }
    }

    const entryUpdates: unknown[][] = []
    const entryInserts: Array<Record<string, unknown>> = []
    body.sets.forEach((set, setPosition) => {
      const setId = setIdAt.get(setPosition)!
      set.entries.forEach((entry, position) => {
        const notes = entry.notes ?? null
        const durationSeconds = entry.durationSeconds ?? null
        const transpose = entry.transpose ?? 0
        const capo = entry.capo ?? null
        const songId = entry.songId ?? null
        const title = entry.title === undefined ? null : entry.title.trim()
        if (entry.id !== undefined) {
          entryUpdates.push([
            entry.id, setId, position, songId, title, notes, durationSeconds, transpose, capo
          ])
        } else {
          entryInserts.push({
            [E.ownerKey]: ownerId,
            setId,
            position,
            songId,
            title,
            notes,
            durationSeconds,
            transpose,
            capo
          })
        }
      })
    })
    // Only the planned fields: the live state (status, inserted, rating, live_updated_at) stays as
    // it is.
    updateRowsById(
      tx,
      E.table,
      E.id,
      [E.setId, E.position, E.songId, E.title, E.notes, E.durationSeconds, E.transpose, E.capo],
      entryUpdates
    )
    for (const chunk of chunksFor(entryInserts, columnCount(E.table))) {
      tx.insert(E.table)
        .values(chunk as never)
        .run()
    }

    tx.delete(S.table)
      .where(and(eq(S.owner, ownerId), notInArray(S.id, [...setIdAt.values()])))
      .run()
  })
}

/**
 * A setlist as read (API shape) back into a PUT body: with ids it keeps the rows (and their live
 * state), without it describes new ones (a copy).
 */
export function setsToInput (sets: SetlistSetType[], keepIds: boolean): SetlistPutType['sets'] {
  return sets.map((set) => ({
    ...(keepIds ? { id: set.id } : {}),
    name: set.name,
    breakAfterSeconds: set.customBreakAfterSeconds,
    entries: set.entries.map((entry) => ({
      ...(keepIds ? { id: entry.id } : {}),
      ...(entry.songId === null ? { title: entry.title } : { songId: entry.songId }),
      notes: entry.notes,
      durationSeconds: entry.customDurationSeconds,
      transpose: entry.transpose,
      capo: entry.capo
    }))
  }))
}
