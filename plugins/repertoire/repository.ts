import { and, asc, count, eq, inArray, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { repertoireEntries, repertoireSets, repertoireSetlists, songs } from '#src/db/schema.js'
import { conflict, notFound } from '#src/errors.js'
import {
  buildSets,
  freeTextSong,
  setlistSongColumns,
  type EntryRow,
  type SetRow
} from '#src/repositories/setlists.js'
import { replaceSetlist, type SetlistStore } from '#src/repositories/setlist-writes.js'
import type { TimingDefaults } from '#shared/timing.js'
import {
  MAX_REPERTOIRE_SETLISTS,
  type RepertoireCreateType,
  type RepertoirePatchType,
  type RepertoireSummaryType,
  type RepertoireType
} from '#schemas/repertoire.js'
import type { SetlistPutType } from '#schemas/setlists.js'
import { writtenRow } from '#src/db/returning.js'

type HeaderRow = typeof repertoireSetlists.$inferSelect

/** A repertoire setlist is stored like a gig setlist, in its own tables. */
export const repertoireStore: SetlistStore = {
  sets: {
    table: repertoireSets,
    id: repertoireSets.id,
    owner: repertoireSets.repertoireId,
    ownerKey: 'repertoireId',
    name: repertoireSets.name,
    position: repertoireSets.position,
    breakAfterSeconds: repertoireSets.breakAfterSeconds
  },
  entries: {
    table: repertoireEntries,
    id: repertoireEntries.id,
    owner: repertoireEntries.repertoireId,
    ownerKey: 'repertoireId',
    setId: repertoireEntries.setId,
    position: repertoireEntries.position,
    songId: repertoireEntries.songId,
    title: repertoireEntries.title,
    notes: repertoireEntries.notes,
    durationSeconds: repertoireEntries.durationSeconds,
    transpose: repertoireEntries.transpose,
    capo: repertoireEntries.capo
  },
  bumpVersion: (tx, id, expected) =>
    tx
      .update(repertoireSetlists)
      .set({ version: sql`${repertoireSetlists.version} + 1` })
      .where(and(eq(repertoireSetlists.id, id), eq(repertoireSetlists.version, expected)))
      .run().changes,
  exists: (tx, id) =>
    !!tx
      .select({ id: repertoireSetlists.id })
      .from(repertoireSetlists)
      .where(eq(repertoireSetlists.id, id))
      .get(),
  notFound: (id) => notFound('repertoire setlist', id),
  noun: 'repertoire setlist',
  codes: { set: 'SET_NOT_IN_REPERTOIRE', entry: 'ENTRY_NOT_IN_REPERTOIRE' }
}

// A programme has no date or start: its times count from midnight, i.e. they are elapsed time.
const ELAPSED = { date: '2000-01-01', startTime: '00:00' }

/** Sets and entries of the given lists (or all): two statements, whatever their number. */
function readSetsAndEntries (db: Db, ids?: number[]) {
  const sets = db
    .select({
      id: repertoireSets.id,
      repertoireId: repertoireSets.repertoireId,
      name: repertoireSets.name,
      breakAfterSeconds: repertoireSets.breakAfterSeconds
    })
    .from(repertoireSets)
    .where(ids ? inArray(repertoireSets.repertoireId, ids) : undefined)
    .orderBy(asc(repertoireSets.position), asc(repertoireSets.id))
    .all()
  const entries = db
    .select({
      id: repertoireEntries.id,
      repertoireId: repertoireEntries.repertoireId,
      setId: repertoireEntries.setId,
      songId: repertoireEntries.songId,
      title: repertoireEntries.title,
      notes: repertoireEntries.notes,
      durationSeconds: repertoireEntries.durationSeconds,
      transpose: repertoireEntries.transpose,
      capo: repertoireEntries.capo,
      song: setlistSongColumns
    })
    .from(repertoireEntries)
    .leftJoin(songs, eq(songs.id, repertoireEntries.songId))
    .innerJoin(repertoireSets, eq(repertoireSets.id, repertoireEntries.setId))
    .where(ids ? inArray(repertoireEntries.repertoireId, ids) : undefined)
    .orderBy(
      asc(repertoireSets.position),
      asc(repertoireSets.id),
      asc(repertoireEntries.position),
      asc(repertoireEntries.id)
    )
    .all()
  return { sets, entries }
}

/** The list's sets and entries as the setlist read model has them (live fields at rest). */
export interface RepertoireData {
  header: HeaderRow
  sets: SetRow[]
  entries: EntryRow[]
}

function group (headers: HeaderRow[], { sets, entries }: ReturnType<typeof readSetsAndEntries>) {
  const byList = new Map<number, RepertoireData>(
    headers.map((header) => [header.id, { header, sets: [], entries: [] }])
  )
  for (const { repertoireId, ...set } of sets) byList.get(repertoireId)?.sets.push(set)
  for (const { repertoireId, ...entry } of entries) {
    byList
      .get(repertoireId)
      ?.entries.push({
        ...entry,
        // A free-text entry has no song: the LEFT JOIN read nothing for it.
        song: entry.songId === null || !entry.song ? freeTextSong(entry.title ?? '') : entry.song,
        status: 'planned',
        inserted: false,
        rating: null,
        liveUpdatedAt: null
      })
  }
  return byList
}

export function readRepertoire (db: Db, id: number): RepertoireData | undefined {
  const header = db.select().from(repertoireSetlists).where(eq(repertoireSetlists.id, id)).get()
  return header && group([header], readSetsAndEntries(db, [id])).get(id)
}

export function toRepertoire (data: RepertoireData, defaults: TimingDefaults): RepertoireType {
  const { sets, timing } = buildSets({ ...data, gig: ELAPSED }, defaults)
  const { id, name, notes, version, createdAt, updatedAt } = data.header
  return {
    id,
    name,
    notes,
    version,
    totalSeconds: timing.totalSeconds,
    sets,
    createdAt,
    updatedAt
  }
}

export function loadRepertoire (
  db: Db,
  id: number,
  defaults: TimingDefaults
): RepertoireType | undefined {
  const data = readRepertoire(db, id)
  return data && toRepertoire(data, defaults)
}

/** Every list with its counts and length: three statements, sorted by name in the band locale. */
export function listRepertoire (
  db: Db,
  defaults: TimingDefaults,
  locale: string
): RepertoireSummaryType[] {
  const headers = db.select().from(repertoireSetlists).all()
  const byList = group(headers, readSetsAndEntries(db))
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true })
  return [...byList.values()]
    .map((data) => {
      const { sets, ...rest } = toRepertoire(data, defaults)
      const songCount = data.entries.filter((entry) => entry.songId !== null).length
      return { ...rest, setCount: sets.length, songCount }
    })
    .sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id)
}

const nameTaken = (name: string) =>
  conflict('REPERTOIRE_NAME_TAKEN', `a repertoire setlist named "${name}" exists`)

function assertNameFree (db: Db, name: string, exceptId?: number): void {
  const other = db
    .select({ id: repertoireSetlists.id })
    .from(repertoireSetlists)
    .where(sql`lower(${repertoireSetlists.name}) = lower(${name})`)
    .get()
  if (other && other.id !== exceptId) throw nameTaken(name)
}

/** The header and its first sets, all or nothing. */
export function createRepertoire (
  db: Db,
  body: Omit<RepertoireCreateType, 'fromGigId'>,
  now: Date
): number {
  const stamp = now.toISOString()
  const name = body.name.trim()
  return db.transaction((tx) => {
    const n = tx.select({ n: count() }).from(repertoireSetlists).get()!.n
    if (n >= MAX_REPERTOIRE_SETLISTS) {
      throw conflict(
        'LIMIT_REACHED',
        `the band keeps at most ${MAX_REPERTOIRE_SETLISTS} repertoire setlists`
      )
    }
    assertNameFree(db, name)
    const { id } = writtenRow(
      tx
        .insert(repertoireSetlists)
        .values({ name, notes: body.notes ?? null, createdAt: stamp, updatedAt: stamp })
        .returning({ id: repertoireSetlists.id })
    )
    if (body.sets?.length) saveRepertoireSets(db, id, { version: 0, sets: body.sets }, now)
    return id
  })
}

export function patchRepertoire (
  db: Db,
  id: number,
  body: RepertoirePatchType,
  now: Date
): boolean {
  return db.transaction(() => {
    const name = body.name?.trim()
    if (name !== undefined) assertNameFree(db, name, id)
    return (
      db
        .update(repertoireSetlists)
        .set({
          ...(name === undefined ? {} : { name }),
          ...(body.notes === undefined ? {} : { notes: body.notes }),
          updatedAt: now.toISOString()
        })
        .where(eq(repertoireSetlists.id, id))
        .run().changes > 0
    )
  })
}

/** PUT …/setlist: the gig setlist's save, on this list's tables. */
export function saveRepertoireSets (db: Db, id: number, body: SetlistPutType, now: Date): void {
  db.transaction(() => {
    replaceSetlist(db, repertoireStore, id, body)
    db.update(repertoireSetlists)
      .set({ updatedAt: now.toISOString() })
      .where(eq(repertoireSetlists.id, id))
      .run()
  })
}

export function deleteRepertoire (db: Db, id: number): boolean {
  return db.delete(repertoireSetlists).where(eq(repertoireSetlists.id, id)).run().changes > 0
}
