/**
 * The setlist editor's model, pure TypeScript (no Svelte, no DOM): the draft a user edits, every
 * edit as an operation (so the edits can be replayed on top of a newer version after a 409), the
 * PUT body and the timing (the server's own src/shared/timing.ts: one implementation); what
 * changed between two versions is changes.ts. Used by gig setlists and repertoire setlists alike;
 * test/web/setlist-model.test.ts runs it against the API's answers.
 */
import {
  computeSetlistTiming,
  type SetlistTiming,
  type TimingDefaults
} from '$shared/timing.js'
import type { Body, Setlist } from '../api/types.js'

export type ServerSet = Setlist['sets'][number]
export type ServerEntry = ServerSet['entries'][number]
export type SongSummary = NonNullable<ServerEntry['song']>
export type SetlistBody = Body<'/gigs/{id}/setlist', 'put'>

export interface DraftEntry {
  /** `e<id>` for stored entries, `n…` for new ones: stable across versions, used by operations. */
  key: string
  id: number | null
  /** Null for a free-text entry (a speech, the first dance): it has a title and no song. */
  songId: number | null
  song: SongSummary | null
  /** What the entry shows: the song's title, or a free-text entry's own. */
  title: string
  notes: string
  /** The override (null: the song's length, else the band's default). */
  durationSeconds: number | null
  /** Semitones for this gig and the capo fret (the stage view's charts); kept across saves. */
  transpose: number
  capo: number | null
  /** Live-mode state, kept by the server across saves; skipped entries take no time. */
  status: ServerEntry['status']
}

export interface DraftSet {
  key: string
  id: number | null
  name: string
  /** The override (null: the band's default break). */
  breakAfterSeconds: number | null
  entries: DraftEntry[]
}

export type SetChanges = Partial<Pick<DraftSet, 'name' | 'breakAfterSeconds'>>
export type EntryChanges = Partial<
  Pick<DraftEntry, 'title' | 'notes' | 'durationSeconds' | 'transpose' | 'capo'>
>

/** One edit. Targets are keys, positions are anchors (the entry before), with an index fallback. */
export type Operation =
  | { type: 'addSet'; set: DraftSet; after: string | null }
  | { type: 'removeSet'; set: string }
  | { type: 'updateSet'; set: string; changes: SetChanges }
  | { type: 'add'; entry: DraftEntry; set: string; after: string | null; index: number }
  | { type: 'remove'; entry: string }
  | { type: 'move'; entry: string; set: string; after: string | null; index: number }
  | { type: 'updateEntry'; entry: string; changes: EntryChanges }

/** Where a programme's times count from (the server's rule for repertoire setlists). */
export const ELAPSED = { date: '2000-01-01', startTime: '00:00' }

/** A deep copy through JSON: works on Svelte state proxies too (structuredClone does not). */
export function clone<T> (value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

let counter = 0
/** A key for a new set or entry, unique across reloads of the page (drafts survive a login). */
export function newKey (): string {
  counter += 1
  return `n${Date.now().toString(36)}${counter.toString(36)}`
}

export function fromServer (sets: ServerSet[]): DraftSet[] {
  return sets.map((set) => ({
    key: `s${set.id}`,
    id: set.id,
    name: set.name,
    breakAfterSeconds: set.customBreakAfterSeconds,
    entries: set.entries.map((entry) => ({
      key: `e${entry.id}`,
      id: entry.id,
      songId: entry.songId,
      song: entry.song,
      title: entry.title,
      notes: entry.notes ?? '',
      durationSeconds: entry.customDurationSeconds,
      transpose: entry.transpose,
      capo: entry.capo,
      status: entry.status
    }))
  }))
}

export function newEntry (song: SongSummary): DraftEntry {
  return {
    key: newKey(),
    id: null,
    songId: song.id,
    song,
    title: song.title,
    notes: '',
    durationSeconds: null,
    transpose: 0,
    capo: null,
    status: 'planned'
  }
}

/** What an entry shows (a draft kept from before free-text entries has only its song). */
export function titleOf (entry: Pick<DraftEntry, 'title' | 'song'>): string {
  return entry.title ?? entry.song?.title ?? ''
}

/** A free-text entry (a speech, the first dance, a medley intro): a title and no song. */
export function newTextEntry (title: string): DraftEntry {
  return {
    key: newKey(),
    id: null,
    songId: null,
    song: null,
    title,
    notes: '',
    durationSeconds: null,
    transpose: 0,
    capo: null,
    status: 'planned'
  }
}

export function toBody (version: number, sets: DraftSet[]): SetlistBody {
  return {
    version,
    sets: sets.map((set) => ({
      ...(set.id === null ? {} : { id: set.id }),
      name: set.name.trim(),
      breakAfterSeconds: set.breakAfterSeconds,
      entries: set.entries.map((entry) => ({
        ...(entry.id === null ? {} : { id: entry.id }),
        // A free-text entry sends its title instead of a song (a draft from before has a song).
        ...(entry.songId === null ? { title: entry.title.trim() } : { songId: entry.songId }),
        notes: entry.notes.trim() || null,
        durationSeconds: entry.durationSeconds,
        // A draft kept from before charts existed has neither.
        transpose: entry.transpose ?? 0,
        capo: entry.capo ?? null
      }))
    }))
  }
}

/** What a draft would save, as text: two drafts save the same setlist when theirs are equal. */
export function setlistText (sets: DraftSet[]): string {
  return JSON.stringify(toBody(0, sets).sets)
}

/** Whether two drafts would save the same setlist. */
export function sameSetlist (a: DraftSet[], b: DraftSet[]): boolean {
  return setlistText(a) === setlistText(b)
}

export function timingOf (
  sets: DraftSet[],
  start: { date: string; startTime: string | null },
  defaults: TimingDefaults
): SetlistTiming {
  return computeSetlistTiming(
    start.date,
    start.startTime,
    sets.map((set) => ({
      breakAfterSeconds: set.breakAfterSeconds,
      entries: set.entries.map((entry) => ({
        durationSeconds: entry.durationSeconds,
        // A free-text entry takes no time of its own unless it is given a duration.
        songDurationSeconds: entry.song ? entry.song.durationSeconds : 0,
        status: entry.status
      }))
    })),
    defaults
  )
}

// ---- operations ----

export function findEntry (
  sets: DraftSet[],
  key: string
): { set: DraftSet; setIndex: number; index: number } | null {
  for (const [setIndex, set] of sets.entries()) {
    const index = set.entries.findIndex((entry) => entry.key === key)
    if (index >= 0) return { set, setIndex, index }
  }
  return null
}

function insertAt (set: DraftSet, entry: DraftEntry, after: string | null, index: number): void {
  let at: number
  if (after === null) at = 0
  else {
    const anchor = set.entries.findIndex((e) => e.key === after)
    at = anchor >= 0 ? anchor + 1 : Math.min(index, set.entries.length)
  }
  set.entries.splice(at, 0, entry)
}

/**
 * Moves `entries[from]` within its list to where `insertAt` would put it, writing only the entries
 * in between (a step is a swap): on a Svelte state array a move then costs what it changes, not
 * the length of the set (a splice rewrites every index after it).
 */
function shiftWithin (
  entries: DraftEntry[],
  from: number,
  after: string | null,
  index: number
): void {
  const entry = entries[from]!
  let at: number
  if (after === null) at = 0
  else {
    const anchor = entries.findIndex((e) => e.key === after)
    at = anchor < 0 ? Math.min(index, entries.length - 1) : anchor < from ? anchor + 1 : anchor
  }
  for (let i = from; i < at; i++) entries[i] = entries[i + 1]!
  for (let i = from; i > at; i--) entries[i] = entries[i - 1]!
  entries[at] = entry
}

/**
 * Applies an operation in place (also to Svelte state proxies). Returns false when its target is
 * gone (another version removed it): the operation is then skipped.
 */
export function apply (sets: DraftSet[], op: Operation): boolean {
  const setOf = (key: string) => sets.find((set) => set.key === key)
  switch (op.type) {
    case 'addSet': {
      if (setOf(op.set.key)) return false
      const anchor = op.after === null ? -1 : sets.findIndex((set) => set.key === op.after)
      const at = op.after === null ? 0 : anchor >= 0 ? anchor + 1 : sets.length
      sets.splice(at, 0, clone(op.set))
      return true
    }
    case 'removeSet': {
      const index = sets.findIndex((set) => set.key === op.set)
      if (index < 0) return false
      sets.splice(index, 1)
      return true
    }
    case 'updateSet': {
      const set = setOf(op.set)
      if (!set) return false
      Object.assign(set, op.changes)
      return true
    }
    case 'add': {
      const set = setOf(op.set)
      if (!set || findEntry(sets, op.entry.key)) return false
      insertAt(set, clone(op.entry), op.after, op.index)
      return true
    }
    case 'remove': {
      const found = findEntry(sets, op.entry)
      if (!found) return false
      found.set.entries.splice(found.index, 1)
      return true
    }
    case 'move': {
      const found = findEntry(sets, op.entry)
      const target = setOf(op.set)
      if (!found || !target) return false
      if (found.set === target) {
        shiftWithin(target.entries, found.index, op.after, op.index)
        return true
      }
      const [entry] = found.set.entries.splice(found.index, 1)
      insertAt(target, entry!, op.after, op.index)
      return true
    }
    case 'updateEntry': {
      const found = findEntry(sets, op.entry)
      if (!found) return false
      Object.assign(found.set.entries[found.index]!, op.changes)
      return true
    }
  }
}

/**
 * The operation that moves entry `key` to position `index` of set `setKey` (the index counted
 * without the entry itself), or null when that is where it is already.
 */
export function moveOperation (
  sets: DraftSet[],
  key: string,
  setKey: string,
  index: number
): Operation | null {
  const found = findEntry(sets, key)
  const target = sets.find((set) => set.key === setKey)
  if (!found || !target) return null
  const rest = target.entries.filter((entry) => entry.key !== key)
  const at = Math.max(0, Math.min(index, rest.length))
  if (found.set === target && found.index === at) return null
  const after = at === 0 ? null : rest[at - 1]!.key
  return { type: 'move', entry: key, set: setKey, after, index: at }
}

/** The operation that adds `entry` at the end of set `setKey`. */
export function addOperation (sets: DraftSet[], entry: DraftEntry, setKey: string): Operation {
  const target = sets.find((set) => set.key === setKey)
  const last = target?.entries.at(-1)
  return {
    type: 'add',
    entry,
    set: setKey,
    after: last ? last.key : null,
    index: target?.entries.length ?? 0
  }
}

/**
 * Appends `op` to the log, folding it into the previous operation where that loses nothing:
 * typing a set name or a note is one operation, as is moving one entry step by step.
 */
export function record (log: Operation[], op: Operation): void {
  const last = log.at(-1)
  if (last?.type === 'updateSet' && op.type === 'updateSet' && last.set === op.set) {
    last.changes = { ...last.changes, ...op.changes }
  } else if (
    last?.type === 'updateEntry' &&
    op.type === 'updateEntry' &&
    last.entry === op.entry
  ) {
    last.changes = { ...last.changes, ...op.changes }
  } else if (last?.type === 'move' && op.type === 'move' && last.entry === op.entry) {
    log[log.length - 1] = op
  } else {
    log.push(op)
  }
}

/**
 * `ops` replayed on `sets` (e.g. the server's newer version); operations whose target is gone are
 * skipped.
 */
export function replay (
  sets: DraftSet[],
  ops: Operation[]
): { sets: DraftSet[]; skipped: number } {
  const result = clone(sets)
  let skipped = 0
  for (const op of ops) if (!apply(result, op)) skipped += 1
  return { sets: result, skipped }
}
