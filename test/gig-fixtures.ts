import type { App } from '#src/app.js'
import { songs } from '#src/db/schema.js'
import type { Client } from './helpers.js'

type SongStatus = 'proposed' | 'accepted' | 'rehearsing' | 'ready' | 'retired'

/** Songs are another resource: tests insert them directly. */
export function insertSong (
  app: App,
  title: string,
  extra: {
    durationSeconds?: number | null
    status?: SongStatus
    key?: string
    leadSinger?: string
  } = {}
): number {
  const stamp = app.clock().toISOString()
  return app.db
    .insert(songs)
    .values({
      title,
      artist: 'Test Artist',
      status: 'ready',
      durationSeconds: 200,
      createdAt: stamp,
      updatedAt: stamp,
      ...extra
    })
    .returning({ id: songs.id })
    .get().id
}

export function insertSongs (
  app: App,
  count: number,
  durationSeconds: number | null = 200
): number[] {
  return Array.from({ length: count }, (_, i) =>
    insertSong(app, `Song ${String(i + 1).padStart(3, '0')}`, { durationSeconds })
  )
}

export async function createGig (editor: Client, body: Record<string, unknown> = {}): Promise<any> {
  const res = await editor.post('/gigs', {
    name: 'Stadtfest Musterstadt',
    date: '2026-07-04',
    startTime: '20:00',
    ...body
  })
  if (res.statusCode !== 201) throw new Error(`create gig failed: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** Saves a setlist of sets of song ids and returns the saved setlist. */
export async function putSetlist (
  editor: Client,
  gigId: number,
  sets: number[][],
  version = 0,
  names?: string[]
): Promise<any> {
  const res = await editor.put(`/gigs/${gigId}/setlist`, {
    version,
    sets: sets.map((songIds, i) => ({
      name: names?.[i] ?? `Set ${i + 1}`,
      entries: songIds.map((songId) => ({ songId }))
    }))
  })
  if (res.statusCode !== 200) throw new Error(`put setlist failed: ${res.statusCode} ${res.body}`)
  return res.json()
}
