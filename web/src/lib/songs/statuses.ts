import { SONG_STATUSES as LIFE, type SongStatus } from '$shared/enums'

/** Offered after the songs in work: a proposal, then the retired ones. */
const LATER: readonly SongStatus[] = ['proposed', 'retired']

/** A song's statuses in the order of its life (a proposal last, then the retired ones). */
export const SONG_STATUSES: readonly SongStatus[] = [
  ...LIFE.filter((status) => !LATER.includes(status)),
  ...LATER
]
