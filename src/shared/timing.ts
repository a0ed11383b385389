import type { EntryStatus } from './enums.js'
import { addSecondsLocal, timeOf } from './local-time.js'

export interface TimingDefaults {
  defaultSongSeconds: number
  songGapSeconds: number
  setBreakSeconds: number
  defaultStartTime: string
}

export interface TimingEntryInput {
  /** The entry's own duration (overrides the song's). */
  durationSeconds: number | null
  songDurationSeconds: number | null
  status: EntryStatus
}

export interface TimingSetInput {
  breakAfterSeconds: number | null
  entries: TimingEntryInput[]
}

export interface EntryTiming {
  /** Local wall-clock `HH:MM` (after midnight it simply continues at 00:xx). */
  plannedStart: string
  plannedStartAt: string
  durationSeconds: number
}

export interface SetTiming {
  start: string
  end: string
  startAt: string
  endAt: string
  durationSeconds: number
  breakAfterSeconds: number
  entries: EntryTiming[]
}

export interface SetlistTiming {
  startAt: string
  endAt: string
  /** Sets plus the breaks between them (no break after the last set). */
  totalSeconds: number
  sets: SetTiming[]
}

/**
 * The setlist timing rules of the API contract: the first set starts at the gig's start time (else
 * the configured default); each entry takes its duration (entry, else song, else default) plus the
 * gap between songs; skipped entries take no time; each set is followed by its break (set value,
 * else default).
 */
export function computeSetlistTiming (
  date: string,
  startTime: string | null,
  sets: TimingSetInput[],
  defaults: TimingDefaults
): SetlistTiming {
  const startAt = `${date}T${startTime ?? defaults.defaultStartTime}`
  let cursor = startAt
  let elapsed = 0
  const timedSets = sets.map((set, index) => {
    const setStart = cursor
    let setSeconds = 0
    const entries = set.entries.map((entry) => {
      const durationSeconds =
        entry.durationSeconds ?? entry.songDurationSeconds ?? defaults.defaultSongSeconds
      const timing = { plannedStart: timeOf(cursor), plannedStartAt: cursor, durationSeconds }
      if (entry.status !== 'skipped') {
        const slot = durationSeconds + defaults.songGapSeconds
        setSeconds += slot
        cursor = addSecondsLocal(setStart, setSeconds)
      }
      return timing
    })
    const setEnd = addSecondsLocal(setStart, setSeconds)
    const breakAfterSeconds = set.breakAfterSeconds ?? defaults.setBreakSeconds
    const isLast = index === sets.length - 1
    elapsed += setSeconds + (isLast ? 0 : breakAfterSeconds)
    cursor = addSecondsLocal(setEnd, isLast ? 0 : breakAfterSeconds)
    return {
      start: timeOf(setStart),
      end: timeOf(setEnd),
      startAt: setStart,
      endAt: setEnd,
      durationSeconds: setSeconds,
      breakAfterSeconds,
      entries
    }
  })
  return {
    startAt,
    endAt: addSecondsLocal(startAt, elapsed),
    totalSeconds: elapsed,
    sets: timedSets
  }
}

/** A set as stored: its own break (null: the default). */
export interface StoredSet {
  id: number
  breakAfterSeconds: number | null
}
/** An entry as stored, with its song's duration. */
export interface StoredEntry {
  setId: number
  durationSeconds: number | null
  status: EntryStatus
  song: { durationSeconds: number | null }
}

/**
 * The one assembly of a timed setlist: the sets in their order, each with its entries (in the
 * order given) and its timing. The API's setlist and live view (buildSets in
 * src/repositories/setlists.ts) and the documents (assembleGigDocument) shape it each their way.
 */
export function timeSets<S extends StoredSet, E extends StoredEntry> (
  gig: { date: string, startTime: string | null },
  sets: S[],
  entries: E[],
  defaults: TimingDefaults
): { timing: SetlistTiming, sets: Array<{ set: S, entries: E[], timing: SetTiming }> } {
  const bySet = new Map<number, E[]>(sets.map((set) => [set.id, []]))
  for (const entry of entries) bySet.get(entry.setId)?.push(entry)
  const grouped = sets.map((set) => ({ set, entries: bySet.get(set.id) ?? [] }))
  const timing = computeSetlistTiming(
    gig.date,
    gig.startTime,
    grouped.map(({ set, entries }) => ({
      breakAfterSeconds: set.breakAfterSeconds,
      entries: entries.map((e) => ({
        durationSeconds: e.durationSeconds,
        songDurationSeconds: e.song.durationSeconds,
        status: e.status
      }))
    })),
    defaults
  )
  return {
    timing,
    sets: grouped.map((group, i) => ({ ...group, timing: timing.sets[i]! }))
  }
}
