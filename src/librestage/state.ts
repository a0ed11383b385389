import type {
  gigAvailability,
  gigChecklistItems,
  gigs,
  gigScheduleItems,
  rehearsalAvailability,
  rehearsals,
  rehearsalSongs,
  repertoireEntries,
  repertoireSetlists,
  repertoireSets,
  setlistEntries,
  setlistSets,
  songs,
  songVotes,
  surveyAnswers,
  surveyOptions,
  surveys,
  users
} from '#src/db/schema.js'
import type { EditableAppConfigType } from '#schemas/app-config.js'
import { TableTally, type LibreStageReport } from './report.js'
import type { LibreStageSource, LibreStageTable } from './source.js'
import { shorten } from './values.js'

// What the table mappers share while libreStage rows become Bandstand rows.

type Rows<T extends { $inferInsert: unknown }> = Array<T['$inferInsert']>

export interface ImportRows {
  users: Rows<typeof users>
  songs: Rows<typeof songs>
  songVotes: Rows<typeof songVotes>
  rehearsals: Rows<typeof rehearsals>
  rehearsalSongs: Rows<typeof rehearsalSongs>
  rehearsalAvailability: Rows<typeof rehearsalAvailability>
  gigs: Rows<typeof gigs>
  setlistSets: Rows<typeof setlistSets>
  setlistEntries: Rows<typeof setlistEntries>
  gigScheduleItems: Rows<typeof gigScheduleItems>
  gigAvailability: Rows<typeof gigAvailability>
  gigChecklistItems: Rows<typeof gigChecklistItems>
  repertoireSetlists: Rows<typeof repertoireSetlists>
  repertoireSets: Rows<typeof repertoireSets>
  repertoireEntries: Rows<typeof repertoireEntries>
  surveys: Rows<typeof surveys>
  surveyOptions: Rows<typeof surveyOptions>
  surveyAnswers: Rows<typeof surveyAnswers>
}

export interface MappingContext {
  now: Date
  /** Users Bandstand already has (the first admin; everyone with --force). */
  existingUsers: Array<{ id: number; username: string; displayName: string; role: string }>
  /** Names of repertoire lists Bandstand already has (names are unique ignoring case). */
  existingRepertoireNames: string[]
  config: EditableAppConfigType
  /** The first free id of a Bandstand table. */
  firstId: (table: string) => number
}

export interface ImportPlan {
  rows: ImportRows
  /** The configuration with the added labels, or null when nothing was added. */
  config: EditableAppConfigType | null
  /** Users created by this import; those whose libreStage password was not kept get reset links. */
  newUsers: Array<{ id: number; passwordKept: boolean }>
  report: Omit<LibreStageReport, 'dryRun' | 'resetLinks'>
}

/** What the table mappers share: the rows so far, the id maps, the report. */
export class MapState {
  readonly rows: ImportRows = {
    users: [],
    songs: [],
    songVotes: [],
    rehearsals: [],
    rehearsalSongs: [],
    rehearsalAvailability: [],
    gigs: [],
    setlistSets: [],
    setlistEntries: [],
    gigScheduleItems: [],
    gigAvailability: [],
    gigChecklistItems: [],
    repertoireSetlists: [],
    repertoireSets: [],
    repertoireEntries: [],
    surveys: [],
    surveyOptions: [],
    surveyAnswers: []
  }

  /** libreStage id → Bandstand id, per kind. */
  readonly users = new Map<number, number>()
  readonly songs = new Map<number, number>()
  readonly gigs = new Map<number, number>()
  readonly rehearsals = new Map<number, number>()
  /** Bandstand user id → display name; Bandstand song id → title (for notes). */
  readonly userNames = new Map<number, string>()
  readonly songTitles = new Map<number, string>()
  readonly tallies: TableTally[] = []
  readonly reportedUsers: LibreStageReport['users'] = []
  readonly stamp: string
  private readonly next = new Map<string, number>()

  constructor (
    readonly source: LibreStageSource,
    readonly ctx: MappingContext
  ) {
    this.stamp = ctx.now.toISOString()
  }

  tally (table: LibreStageTable, into: string): TableTally {
    const tally = new TableTally(table, into, this.source.rows[table].length)
    this.tallies.push(tally)
    return tally
  }

  id (table: string): number {
    const id = this.next.get(table) ?? this.ctx.firstId(table)
    this.next.set(table, id + 1)
    return id
  }
}

/** Text cut to a Bandstand limit; a cut is reported. */
export function fit (
  tally: TableTally,
  text: string | null,
  max: number,
  what: string
): string | null {
  if (text === null || [...text].length <= max) return text
  tally.changed(`${what} shortened to ${max} characters`)
  return shorten(text, max)
}

/** Notes from several labelled parts (empty ones left out). */
export const joinNotes = (...parts: Array<string | null | undefined | false>) =>
  parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n') || null
