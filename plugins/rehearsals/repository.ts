import { and, asc, eq, getTableColumns, gte, inArray, lte, type SQL } from '#src/db/orm.js'
import type Database from 'better-sqlite3'
import type { Db, Tx } from '#src/db/client.js'
import { rehearsals, rehearsalSongs, songs, type RehearsalRow } from '#src/db/schema.js'
import type { RehearsalType } from '#schemas/rehearsals.js'
import { writtenRow } from '#src/db/returning.js'
import { jsonList } from '#src/http/json-list.js'
import { iterateSelect } from '#src/db/iterate.js'

export interface RehearsalSongValues {
  songId: number
  notes?: string | null
  done?: boolean
}

type SongLine = RehearsalType['songs'][number]

/** Songs of many rehearsals in one statement. */
function songsOf (db: Db, rehearsalIds: number[]): Map<number, SongLine[]> {
  const byRehearsal = new Map<number, SongLine[]>()
  if (rehearsalIds.length === 0) return byRehearsal
  const rows = db
    .select({
      rehearsalId: rehearsalSongs.rehearsalId,
      songId: rehearsalSongs.songId,
      title: songs.title,
      notes: rehearsalSongs.notes,
      done: rehearsalSongs.done
    })
    .from(rehearsalSongs)
    .innerJoin(songs, eq(songs.id, rehearsalSongs.songId))
    .where(inArray(rehearsalSongs.rehearsalId, rehearsalIds))
    .orderBy(asc(rehearsalSongs.rehearsalId), asc(rehearsalSongs.position))
    .all()
  for (const { rehearsalId, ...line } of rows) {
    const list = byRehearsal.get(rehearsalId)
    if (list) list.push(line)
    else byRehearsal.set(rehearsalId, [line])
  }
  return byRehearsal
}

const toRehearsal = (row: RehearsalRow, lines: SongLine[]): RehearsalType => ({
  id: row.id,
  date: row.date,
  startTime: row.startTime,
  endTime: row.endTime,
  location: row.location,
  notes: row.notes,
  songs: lines,
  sequence: row.sequence,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

/**
 * The rehearsals in date and start order with their songs, one rehearsal at a time: one statement
 * joins the songs (in their order) to their rehearsal, read row by row, so a list of a thousand
 * rehearsals never holds all its rows, their songs and a map of them at once (see jsonList). A
 * line whose song is gone is left out, as by a join.
 */
function * iterateRehearsals (
  db: Db,
  sqlite: Database.Database,
  filter: { from?: string; to?: string }
): Generator<RehearsalType> {
  const where: SQL[] = []
  if (filter.from) where.push(gte(rehearsals.date, filter.from))
  if (filter.to) where.push(lte(rehearsals.date, filter.to))
  const columns = {
    ...getTableColumns(rehearsals),
    songId: rehearsalSongs.songId,
    title: songs.title,
    songNotes: rehearsalSongs.notes,
    done: rehearsalSongs.done
  }
  const query = db
    .select(columns)
    .from(rehearsals)
    .leftJoin(rehearsalSongs, eq(rehearsalSongs.rehearsalId, rehearsals.id))
    .leftJoin(songs, eq(songs.id, rehearsalSongs.songId))
    .where(and(...where))
    .orderBy(asc(rehearsals.date), asc(rehearsals.startTime), asc(rehearsals.id),
      asc(rehearsalSongs.position), asc(rehearsalSongs.id))
  type Line = RehearsalRow & {
    songId: number,
    title: string | null,
    songNotes: string | null,
    done: boolean
  }
  let current: RehearsalType | undefined
  for (const line of iterateSelect<Line>(sqlite, query, columns)) {
    if (current?.id !== line.id) {
      if (current) yield current
      const { songId: _songId, title: _title, songNotes: _notes, done: _done, ...row } = line
      current = toRehearsal(row, [])
    }
    if (line.title !== null) {
      current.songs.push({
        songId: line.songId,
        title: line.title,
        notes: line.songNotes,
        done: line.done
      })
    }
  }
  if (current) yield current
}

/** The rehearsals in date and start order as their JSON array (`serialize`: one rehearsal's). */
export function listRehearsalsJson (
  db: Db,
  sqlite: Database.Database,
  filter: { from?: string; to?: string },
  serialize: (rehearsal: RehearsalType) => string
): Buffer {
  return jsonList(iterateRehearsals(db, sqlite, filter), (rehearsal) => rehearsal, serialize)
}

export function findRehearsalRow (db: Db, id: number): RehearsalRow | undefined {
  return db.select().from(rehearsals).where(eq(rehearsals.id, id)).get()
}

export function getRehearsal (db: Db, id: number): RehearsalType | undefined {
  const row = findRehearsalRow(db, id)
  return row && toRehearsal(row, songsOf(db, [id]).get(id) ?? [])
}

function writeSongs (tx: Tx, rehearsalId: number, lines: RehearsalSongValues[]): void {
  tx.delete(rehearsalSongs).where(eq(rehearsalSongs.rehearsalId, rehearsalId)).run()
  if (lines.length === 0) return
  tx.insert(rehearsalSongs)
    .values(
      lines.map((line, position) => ({
        rehearsalId,
        songId: line.songId,
        position,
        notes: line.notes ?? null,
        done: line.done ?? false
      }))
    )
    .run()
}

/**
 * Unknown song ids: the caller gets a 400 and nothing is written (checked inside the transaction).
 */
export class UnknownSongsError extends Error {
  constructor (readonly ids: number[]) {
    super(`unknown song ids: ${ids.join(', ')}`)
  }
}

function assertSongsExist (tx: Tx, lines: RehearsalSongValues[]): void {
  const ids = [...new Set(lines.map((l) => l.songId))]
  if (ids.length === 0) return
  const found = new Set(
    tx
      .select({ id: songs.id })
      .from(songs)
      .where(inArray(songs.id, ids))
      .all()
      .map((r) => r.id)
  )
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) throw new UnknownSongsError(missing)
}

export function createRehearsal (
  db: Db,
  values: Omit<typeof rehearsals.$inferInsert, 'id' | 'sequence'>,
  lines: RehearsalSongValues[]
): number {
  return db.transaction((tx) => {
    assertSongsExist(tx, lines)
    const row = writtenRow(tx.insert(rehearsals).values(values).returning({ id: rehearsals.id }))
    writeSongs(tx, row.id, lines)
    return row.id
  })
}

/** Header change, optional song list replacement and sequence bump as one unit. */
export function updateRehearsal (
  db: Db,
  id: number,
  values: Partial<typeof rehearsals.$inferInsert> & { updatedAt: string },
  lines: RehearsalSongValues[] | undefined
): boolean {
  return db.transaction((tx) => {
    if (lines) assertSongsExist(tx, lines)
    const current = tx
      .select({ sequence: rehearsals.sequence })
      .from(rehearsals)
      .where(eq(rehearsals.id, id))
      .get()
    if (!current) return false
    tx.update(rehearsals)
      .set({ ...values, sequence: current.sequence + 1 })
      .where(eq(rehearsals.id, id))
      .run()
    if (lines) writeSongs(tx, id, lines)
    return true
  })
}

export function deleteRehearsal (db: Db, id: number): boolean {
  return db.delete(rehearsals).where(eq(rehearsals.id, id)).run().changes > 0
}
