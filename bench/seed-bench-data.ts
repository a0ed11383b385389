import { openDatabase } from '#src/db/client.js'
import {
  calendarTokens,
  gigs,
  rehearsals,
  setlistEntries,
  setlistSets,
  songs,
  users
} from '#src/db/schema.js'
import { hashPassword } from '#src/auth/password.js'
import { hashToken } from '#src/auth/tokens.js'
import { writtenRow } from '#src/db/returning.js'

export interface BenchData {
  username: string
  password: string
  liveGigId: number
  liveEntryId: number
  calendarToken: string
}

/**
 * The data set the targets are stated for: 500 songs, 300 gigs, one gig with 60 songs in four sets,
 * and a member with a calendar token (500 calendar events: 300 gigs + 200 rehearsals).
 */
export async function seedBenchData (databaseFile: string): Promise<BenchData> {
  const handle = openDatabase(databaseFile)
  const { db } = handle
  const stamp = new Date().toISOString()
  const password = 'bench password for the bench run'
  const passwordHash = await hashPassword(password)
  const calendarToken = 'bench-calendar-token-0123456789abcdef'
  const result = db.transaction((tx) => {
    const user = writtenRow(tx
      .insert(users)
      .values({
        username: 'bench',
        displayName: 'Bench Editor',
        role: 'editor',
        passwordHash,
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning())
    tx.insert(calendarTokens)
      .values({ userId: user.id, tokenHash: hashToken(calendarToken), createdAt: stamp })
      .run()
    const songRows = tx
      .insert(songs)
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          title: `Bench Song ${String(i + 1).padStart(3, '0')} – Über den Wolken`,
          artist: 'Die Benchmarker',
          genre: 'Pop',
          durationSeconds: 150 + (i % 120),
          key: 'C',
          tempoBpm: 80 + (i % 90),
          leadSinger: ['Anna', 'Ben', 'Clara'][i % 3]!,
          composers: ['Müller, Hans', 'Schmidt, Eva'],
          lyricists: ['Weiß, Jörg'],
          status: 'ready' as const,
          createdAt: stamp,
          updatedAt: stamp
        }))
      )
      .returning({ id: songs.id })
      .all()
    const gigRows = tx
      .insert(gigs)
      .values(
        Array.from({ length: 300 }, (_, i) => {
          const day = new Date(Date.UTC(2025, 0, 1) + i * 3 * 86400_000).toISOString().slice(0, 10)
          return {
            name: `Gig ${i + 1}`,
            date: day,
            kind: 'Club',
            status: 'confirmed' as const,
            venueName: 'Zur Linde',
            venueAddress: 'Hauptstraße 1',
            venueCity: 'Köln',
            startTime: '20:00',
            endTime: '01:00',
            createdAt: stamp,
            updatedAt: stamp
          }
        })
      )
      .returning({ id: gigs.id })
      .all()
    tx.insert(rehearsals)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          date: new Date(Date.UTC(2025, 0, 2) + i * 4 * 86400_000).toISOString().slice(0, 10),
          startTime: '19:00',
          endTime: '21:00',
          location: 'Proberaum',
          createdAt: stamp,
          updatedAt: stamp
        }))
      )
      .run()
    const liveGigId = gigRows[gigRows.length - 1]!.id
    const sets = tx
      .insert(setlistSets)
      .values(
        [1, 2, 3, 4].map((n) => ({
          gigId: liveGigId,
          position: n,
          name: `Set ${n}`,
          breakAfterSeconds: 900
        }))
      )
      .returning({ id: setlistSets.id })
      .all()
    const entries = tx
      .insert(setlistEntries)
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          gigId: liveGigId,
          setId: sets[Math.floor(i / 15)]!.id,
          position: (i % 15) + 1,
          songId: songRows[i]!.id
        }))
      )
      .returning({ id: setlistEntries.id })
      .all()
    return { liveGigId, liveEntryId: entries[0]!.id }
  })
  handle.close()
  return { username: 'bench', password, calendarToken, ...result }
}
