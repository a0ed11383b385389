import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { chunksFor, columnCount, updateRowsById } from '#src/db/batch.js'
import { gigs, setlistEntries, setlistSets, songs, type GigRow } from '#src/db/schema.js'
import {
  computeSetlistTiming,
  type SetlistTiming,
  type TimingDefaults
} from '#src/services/timing.js'
import { ApiError, badRequest, notFound } from '#src/errors.js'
import type {
  LiveStatusType,
  SetlistEntryType,
  SetlistPutType,
  SetlistType
} from '#schemas/setlists.js'

export interface SetRow {
  id: number
  name: string
  breakAfterSeconds: number | null
}
export interface EntryRow {
  id: number
  setId: number
  songId: number
  notes: string | null
  durationSeconds: number | null
  status: LiveStatusType
  inserted: boolean
  rating: number | null
  songTitle: string
  songArtist: string | null
  songKey: string | null
  songLeadSinger: string | null
  songDurationSeconds: number | null
  songStatus: string
}

const entryColumns = {
  id: setlistEntries.id,
  setId: setlistEntries.setId,
  songId: setlistEntries.songId,
  notes: setlistEntries.notes,
  durationSeconds: setlistEntries.durationSeconds,
  status: setlistEntries.status,
  inserted: setlistEntries.inserted,
  rating: setlistEntries.rating,
  songTitle: songs.title,
  songArtist: songs.artist,
  songKey: songs.key,
  songLeadSinger: songs.leadSinger,
  songDurationSeconds: songs.durationSeconds,
  songStatus: songs.status
}

// Prepared once per connection: live mode reads these on every poll.
const prepared = new WeakMap<Db, ReturnType<typeof prepare>>()
function prepare (db: Db) {
  return {
    gig: db
      .select()
      .from(gigs)
      .where(eq(gigs.id, sql.placeholder('gigId')))
      .prepare(),
    sets: db
      .select({
        id: setlistSets.id,
        name: setlistSets.name,
        breakAfterSeconds: setlistSets.breakAfterSeconds
      })
      .from(setlistSets)
      .where(eq(setlistSets.gigId, sql.placeholder('gigId')))
      .orderBy(asc(setlistSets.position), asc(setlistSets.id))
      .prepare(),
    entries: db
      .select(entryColumns)
      .from(setlistEntries)
      .innerJoin(songs, eq(songs.id, setlistEntries.songId))
      .innerJoin(setlistSets, eq(setlistSets.id, setlistEntries.setId))
      .where(eq(setlistEntries.gigId, sql.placeholder('gigId')))
      .orderBy(
        asc(setlistSets.position),
        asc(setlistSets.id),
        asc(setlistEntries.position),
        asc(setlistEntries.id)
      )
      .prepare()
  }
}
export function statements (db: Db) {
  let s = prepared.get(db)
  if (!s) {
    s = prepare(db)
    prepared.set(db, s)
  }
  return s
}

export interface SetlistData {
  gig: GigRow
  sets: SetRow[]
  entries: EntryRow[]
}

/** Gig, sets and entries with their songs: three statements whatever the setlist size. */
export function readSetlistData (db: Db, gigId: number): SetlistData | undefined {
  const s = statements(db)
  const gig = s.gig.get({ gigId })
  if (!gig) return undefined
  return { gig, sets: s.sets.all({ gigId }), entries: s.entries.all({ gigId }) as EntryRow[] }
}

export function toEntry (
  row: EntryRow,
  plannedStart: string,
  durationSeconds: number
): SetlistEntryType {
  return {
    id: row.id,
    setId: row.setId,
    songId: row.songId,
    song: {
      id: row.songId,
      title: row.songTitle,
      artist: row.songArtist,
      key: row.songKey,
      leadSinger: row.songLeadSinger,
      durationSeconds: row.songDurationSeconds,
      status: row.songStatus
    },
    notes: row.notes,
    plannedStart,
    durationSeconds,
    customDurationSeconds: row.durationSeconds,
    status: row.status,
    inserted: row.inserted,
    rating: row.rating as 1 | 2 | 3 | null
  }
}

/** Sets with their timed entries; skipped entries take no time (the contract's timing rules). */
export function buildSets (
  data: SetlistData,
  defaults: TimingDefaults
): { sets: SetlistType['sets']; timing: SetlistTiming } {
  const bySet = new Map<number, EntryRow[]>(data.sets.map((set) => [set.id, []]))
  for (const entry of data.entries) bySet.get(entry.setId)?.push(entry)
  const grouped = data.sets.map((set) => ({ set, entries: bySet.get(set.id) ?? [] }))
  const timing = computeSetlistTiming(
    data.gig.date,
    data.gig.startTime,
    grouped.map(({ set, entries }) => ({
      breakAfterSeconds: set.breakAfterSeconds,
      entries: entries.map((e) => ({
        durationSeconds: e.durationSeconds,
        songDurationSeconds: e.songDurationSeconds,
        status: e.status
      }))
    })),
    defaults
  )
  const sets = grouped.map(({ set, entries }, i) => {
    const t = timing.sets[i]!
    return {
      id: set.id,
      name: set.name,
      breakAfterSeconds: t.breakAfterSeconds,
      customBreakAfterSeconds: set.breakAfterSeconds,
      start: t.start,
      end: t.end,
      durationSeconds: t.durationSeconds,
      entries: entries.map((e, j) =>
        toEntry(e, t.entries[j]!.plannedStart, t.entries[j]!.durationSeconds)
      )
    }
  })
  return { sets, timing }
}

export function toSetlist (data: SetlistData, defaults: TimingDefaults): SetlistType {
  const { sets, timing } = buildSets(data, defaults)
  return {
    gigId: data.gig.id,
    version: data.gig.setlistVersion,
    sets,
    totalSeconds: timing.totalSeconds
  }
}

export function loadSetlist (
  db: Db,
  gigId: number,
  defaults: TimingDefaults
): SetlistType | undefined {
  const data = readSetlistData(db, gigId)
  return data && toSetlist(data, defaults)
}

/**
 * Thrown inside the save transaction when the version is stale; carries nothing, the route reloads.
 */
export class SetlistVersionConflict extends ApiError {
  constructor () {
    super(
      409,
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
