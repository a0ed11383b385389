import type { SongStatus } from '$lib/api/types'

/** A song's statuses in the order of its life (a proposal last, then the retired ones). */
export const SONG_STATUSES: SongStatus[] = [
  'accepted',
  'rehearsing',
  'ready',
  'proposed',
  'retired'
]
