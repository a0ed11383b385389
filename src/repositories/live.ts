import type { Db } from '#src/db/client.js'
import type { TimingDefaults } from '#shared/timing.js'
import type { SetlistEntryType } from '#schemas/setlists.js'
import type { LiveStateType } from '#schemas/live.js'
import { toGig } from './gigs.js'
import { buildSets, readSetlistData } from './setlists.js'

/**
 * The live view: gig header, timed sets (skipped entries take no time), current entry, progress.
 * Everything it shows comes from the gig, its setlist with the songs, and the timing defaults.
 */
export function loadLiveState (
  db: Db,
  gigId: number,
  defaults: TimingDefaults
): LiveStateType | undefined {
  const data = readSetlistData(db, gigId)
  if (!data) return undefined
  const { sets, timing } = buildSets(data, defaults)
  const progress = { planned: 0, played: 0, skipped: 0 }
  let current: SetlistEntryType | null = null
  for (const set of sets) {
    for (const entry of set.entries) {
      progress[entry.status] += 1
      if (!current && entry.status === 'planned') current = entry
    }
  }
  // The current song started when the band moved on to it: the latest played or skipped mark
  // before it (the rows are in setlist order, as the sets' entries).
  let currentSince: string | null = null
  for (const row of current ? data.entries : []) {
    if (row.id === current!.id) break
    if (row.status !== 'planned' && row.liveUpdatedAt && row.liveUpdatedAt > (currentSince ?? '')) {
      currentSince = row.liveUpdatedAt
    }
  }
  return {
    gig: toGig(data.gig),
    version: data.gig.liveVersion,
    current,
    currentSince,
    sets,
    totalSeconds: timing.totalSeconds,
    progress
  }
}
