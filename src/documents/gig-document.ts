import type { GigRow, SongRow } from '#src/db/schema.js'
import type { EntryStatus } from '#shared/enums.js'
import { timeSets, type SetTiming, type TimingDefaults } from '#shared/timing.js'

// The data every gig document is rendered from: read by the setlist read model
// (src/repositories/setlists.ts) for plugins/documents, timed here, rendered by the pure renderers
// (setlist-pdf, schedule-pdf, gema-xlsx).

export type DocumentSong = Pick<
  SongRow,
  | 'id'
  | 'title'
  | 'artist'
  | 'key'
  | 'leadSinger'
  | 'durationSeconds'
  | 'composers'
  | 'lyricists'
  | 'arrangers'
  | 'publisher'
  | 'gemaWorkNumber'
  | 'isOriginal'
>
export type DocumentGig = Pick<
  GigRow,
  | 'id'
  | 'name'
  | 'date'
  | 'kind'
  | 'status'
  | 'venueName'
  | 'venueAddress'
  | 'venueCity'
  | 'organizerName'
  | 'organizerContact'
  | 'getInTime'
  | 'soundcheckTime'
  | 'doorsTime'
  | 'startTime'
  | 'endTime'
  | 'notes'
>

export interface RawSet {
  id: number
  name: string
  breakAfterSeconds: number | null
}
export interface RawEntry {
  id: number
  setId: number
  /** Null for a free-text entry (a speech, the first dance): never a work for the GEMA report. */
  songId: number | null
  song: DocumentSong
  notes: string | null
  durationSeconds: number | null
  status: EntryStatus
  inserted: boolean
  rating: number | null
  /** Semitones this gig moves the song (its key as played) and the capo fret; none: 0, null. */
  transpose?: number
  capo?: number | null
}
export interface RawScheduleItem {
  id: number
  at: string
  title: string
  who: string | null
  where: string | null
  notes: string | null
}

export interface DocumentEntry extends RawEntry {
  /** 1-based number within the whole gig, skipped ones included (as printed). */
  number: number
  song: DocumentSong
  plannedStart: string
  plannedStartAt: string
  /** Effective duration (entry, else song, else default). */
  seconds: number
}
/** A set with its timing (its break: the set's own, else the default). */
export interface DocumentSet
  extends Omit<RawSet, 'breakAfterSeconds'>, Omit<SetTiming, 'entries'> {
  isLast: boolean
  entries: DocumentEntry[]
}

export interface GigDocument {
  gig: DocumentGig
  sets: DocumentSet[]
  schedule: RawScheduleItem[]
  totalSeconds: number
  startAt: string
  endAt: string
  /**
   * True once live mode recorded anything (an entry played or skipped): the record is shown/used.
   */
  liveUsed: boolean
  /**
   * Musicians on stage (for GEMA): 'yes' answers of active musicians, else all active musicians.
   */
  musicianCount: number
  /**
   * Set for a repertoire setlist (a programme without date or venue): the line under the title;
   * times are elapsed time from 00:00.
   */
  programme?: { subtitle: string }
  /** The agreed fee as printed ("1.250,50 € · R-17"), on the running-order sheet when asked. */
  fee?: string
}

/** Band-level context a document needs besides the gig. */
export interface DocumentContext {
  bandName: string
  timezone: string
  generatedAt: Date
  /** The band's locale (`de-DE`, `en-GB`): the language of the PDFs' words and dates. */
  locale?: string
  /** The band logo as prepared at upload (src/documents/logo.ts); only the schedule uses it. */
  logo?: DocumentLogo | null
}

export interface DocumentLogo {
  /** `#rrggbb`, or null for the neutral palette. */
  accent: string | null
  /** A small RGB PNG (at most 512 px): embedded by pdfkit without decoding. */
  watermark: Buffer | null
}

/** Sets and entries arrive in setlist order (sets by position, entries by position in a set). */
export function assembleGigDocument (
  input: {
    gig: DocumentGig
    sets: RawSet[]
    entries: RawEntry[]
    schedule: RawScheduleItem[]
    musicianCount: number
  },
  defaults: TimingDefaults
): GigDocument {
  const { sets: timed, timing } = timeSets(input.gig, input.sets, input.entries, defaults)
  let number = 0
  const documentSets = timed.map(({ set, entries, timing: t }, index): DocumentSet => {
    const { entries: times, ...setTiming } = t
    return {
      ...set,
      ...setTiming,
      isLast: index === timed.length - 1,
      entries: entries.map((entry, i): DocumentEntry => ({
        ...entry,
        number: ++number,
        plannedStart: times[i]!.plannedStart,
        plannedStartAt: times[i]!.plannedStartAt,
        seconds: times[i]!.durationSeconds
      }))
    }
  })
  const schedule = [...input.schedule].sort((a, b) => a.at.localeCompare(b.at) || a.id - b.id)
  return {
    gig: input.gig,
    sets: documentSets,
    schedule,
    totalSeconds: timing.totalSeconds,
    startAt: timing.startAt,
    endAt: timing.endAt,
    liveUsed: input.entries.some((e) => e.status !== 'planned'),
    musicianCount: input.musicianCount
  }
}

/**
 * The works performed, in performance order: skipped entries out, inserted ones in. Entries live
 * mode left `planned` count as performed (an operator who stops tapping after the encore has not
 * skipped it), which also makes the whole plan count when live mode was never used.
 */
export const performedEntries = (doc: GigDocument): DocumentEntry[] =>
  doc.sets.flatMap((s) => s.entries).filter((e) => e.status !== 'skipped')
