import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, type App } from '#src/app.js'
import { loadConfig } from '#src/config.js'
import { gigs, setlistEntries, setlistSets, songs, users } from '#src/db/schema.js'
import { createSession } from '#src/repositories/sessions.js'
import type { ServerProcess } from './server-process.js'

// A database prepared before a server process starts on it (test/src/http/attack-replay.test.ts,
// bench/documents.ts): members with live sessions signed with the server's secret, so floods need
// no (rate-limited) logins; requests on their own connections; the process's memory from /proc.

export const JWT_SECRET = 'attack-replay-secret-attack-replay-secret'
export const stamp = '2026-05-01T10:00:00.000Z'

export interface Seeded {
  dir: string
  /** Cookie headers: `members` members, then one admin last. */
  cookies: string[]
  admin: string
}

/**
 * A database built before the server starts: `members` members and an admin with live sessions
 * (signed with the server's secret, so no rate-limited logins are needed), plus what `seed` adds.
 */
export async function seedDatabase (members: number, seed: (app: App) => void): Promise<Seeded> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-replay-'))
  const config = loadConfig({ DATA_DIR: dir, JWT_SECRET, LOG_LEVEL: 'silent' })
  const app = await buildApp({ config, createFirstAdmin: false, logger: false })
  const cookies: string[] = []
  for (let i = 0; i <= members; i++) {
    const user = app.db
      .insert(users)
      .values({
        username: i < members ? `member${i}` : 'admin',
        displayName: `Member ${i}`,
        role: i < members ? 'member' : 'admin',
        passwordHash: 'x',
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
      .get()
    const { session } = createSession(app.db, user.id, new Date(), { userAgent: 'replay' })
    cookies.push(`access_token=${app.signAccessToken(user.id, session.id).token}`)
  }
  seed(app)
  await app.close()
  return { dir, cookies: cookies.slice(0, members), admin: cookies.at(-1)! }
}

/** A gig with `sets` sets of `perSet` songs each; returns its id. */
export function insertGig (app: App, name: string, sets: number, perSet: number): number {
  return app.db.transaction((tx) => {
    const gig = tx
      .insert(gigs)
      .values({ name, date: '2026-07-04', startTime: '20:00', createdAt: stamp, updatedAt: stamp })
      .returning()
      .get()
    for (let s = 0; s < sets; s++) {
      const set = tx
        .insert(setlistSets)
        .values({ gigId: gig.id, position: s, name: `Set ${s + 1}` })
        .returning()
        .get()
      // One statement per set for its songs and one for its entries (200 songs: 1,200 variables).
      const setSongs = tx
        .insert(songs)
        .values(
          Array.from({ length: perSet }, (_, e) => ({
            title: `${name} Titel ${s * perSet + e + 1}`,
            durationSeconds: 200,
            composers: ['Müller, Jörg'],
            createdAt: stamp,
            updatedAt: stamp
          }))
        )
        .returning({ id: songs.id })
        .all()
      // RETURNING's order is not guaranteed; rowids grow in insertion order.
      const songIds = setSongs.map((song) => song.id).sort((a, b) => a - b)
      tx.insert(setlistEntries)
        .values(songIds.map((songId, e) => ({ gigId: gig.id, setId: set.id, position: e, songId })))
        .run()
    }
    return gig.id
  })
}

export { fetchRaw, type Answer } from './fetch-raw.js'

/** Resident and peak memory of a process (its threads included), in MB. */
export function memoryOf (pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1])
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}
export const memory = (server: ServerProcess) => memoryOf(server.child.pid!)

/** CPU seconds the process has used, all its threads (Linux counts them in 1/100 s). */
export function cpuSeconds (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Starts a new peak measurement (Linux: writing 5 to clear_refs resets VmHWM). */
export const resetPeakOf = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5')
export const resetPeak = (server: ServerProcess) => resetPeakOf(server.child.pid!)
