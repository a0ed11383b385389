import { asc, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { rehearsalAvailability, rehearsals, rehearsalSongs, songs } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { writtenRow } from '#src/db/returning.js'

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86400_000).toISOString().slice(0, 10)

const LOCATIONS = [
  'Proberaum Kulturbunker, Raum 7',
  'Proberaum Kulturbunker, Raum 7',
  'Gemeindesaal St. Marien',
  'Lenas Scheune'
]
const SONG_NOTES = [
  'Einsatz nach dem Solo',
  'Tempo halten!',
  'neuer Schluss',
  'zweistimmig im Refrain',
  null,
  'Tonart prüfen'
]

/**
 * Four past and four upcoming weekly rehearsals (Thursdays, 19:30–22:00) with songs to work on and
 * everyone's availability on the past ones, most of it on the future ones. Song ids default to the
 * non-retired songs in the database, so it can run right after seedSongs. Synchronous, one
 * transaction.
 */
export function seedRehearsals (
  db: Db,
  ctx: { now: Date; userIds: number[]; songIds?: number[]; timezone?: string }
): { rehearsalIds: number[] } {
  const stamp = ctx.now.toISOString()
  const today = todayIn(ctx.timezone ?? 'Europe/Berlin', ctx.now)
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay()
  // Strictly after and strictly before today: on a Thursday no rehearsal is put on today, which
  // would be neither past nor upcoming all day.
  const nextThursday = addDays(today, (4 - weekday + 7) % 7 || 7)
  const lastThursday = addDays(today, -((weekday - 4 + 7) % 7 || 7))
  return db.transaction((tx) => {
    const songIds =
      ctx.songIds ??
      tx
        .select({ id: songs.id })
        .from(songs)
        .where(ne(songs.status, 'retired'))
        .orderBy(asc(songs.id))
        .all()
        .map((s) => s.id)
    const rehearsalIds: number[] = []
    for (let week = -4; week < 4; week++) {
      const past = week < 0
      const row = writtenRow(
        tx
          .insert(rehearsals)
          .values({
            date: past ? addDays(lastThursday, (week + 1) * 7) : addDays(nextThursday, week * 7),
            startTime: '19:30',
            endTime: '22:00',
            location: LOCATIONS[(week + 4) % LOCATIONS.length]!,
            notes: week === 1 ? 'Generalprobe für das Stadtfest – bitte pünktlich!' : null,
            sequence: 0,
            createdAt: stamp,
            updatedAt: stamp
          })
          .returning({ id: rehearsals.id })
      )
      rehearsalIds.push(row.id)
      if (songIds.length > 0) {
        const count = Math.min(songIds.length, 3 + ((week + 4) % 3))
        tx.insert(rehearsalSongs)
          .values(
            Array.from({ length: count }, (_, position) => ({
              rehearsalId: row.id,
              songId: songIds[((week + 4) * 5 + position * 3) % songIds.length]!,
              position,
              notes: SONG_NOTES[(week + 4 + position) % SONG_NOTES.length] ?? null,
              done: past
            }))
          )
          .run()
      }
      ctx.userIds.forEach((userId, u) => {
        // The future ones still miss an answer here and there (GET /me/todos shows them).
        if (!past && (u + week) % 3 === 0) return
        const status = (u + week) % 5 === 1 ? 'no' : (u + week) % 7 === 2 ? 'maybe' : 'yes'
        tx.insert(rehearsalAvailability)
          .values({
            rehearsalId: row.id,
            userId,
            status,
            note: status === 'no' ? 'Spätschicht' : status === 'maybe' ? 'evtl. später' : null,
            updatedAt: stamp
          })
          .run()
      })
    }
    return { rehearsalIds }
  })
}
