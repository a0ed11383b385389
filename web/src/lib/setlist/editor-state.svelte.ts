import type { SongListItem as Song } from '../api/types'
import { parseDuration } from '../duration'
import { draft } from '../state/drafts.svelte'
import { describeChanges, type Change } from './changes'
import {
  apply,
  clone,
  fromServer,
  record,
  replay,
  setlistText,
  toBody,
  type DraftSet,
  type Operation,
  type ServerSet,
  type SetlistBody,
  type SongSummary
} from './model'

/** What the editor keeps as a draft (drafts.svelte.ts): it survives a lost session. */
interface Stored {
  version: number
  /** The sets as last saved (or loaded): what the dirty check and a conflict compare with. */
  base: DraftSet[]
  /** The sets as edited: what the markup renders. */
  sets: DraftSet[]
  /** The edits since `base`, replayed on a newer version after a conflict. */
  ops: Operation[]
}

/** A save refused (409): the newer version stored meanwhile and what changed in it. */
export interface Conflict {
  version: number
  sets: DraftSet[]
  changes: Change[]
}

/**
 * The setlist editor's document (SetlistEditor.svelte) without its screen: the sets being edited,
 * every edit as an operation (model.ts), the dirty check, which sets use a song, and the save and
 * conflict flow (after a 409 the user takes the newer version or replays their edits on it).
 * Made while the editor initialises (the draft ends with it).
 */
export class EditorState {
  readonly st: Stored
  /** Edits came back from a draft (a session lost while editing). */
  readonly restored: boolean
  /** Counts edits: what reads `plain` depends on this one signal. */
  revision = $state(0)
  conflict = $state<Conflict | null>(null)
  // The same sets as plain objects, kept in step with `st.sets`: every edit is applied to both
  // (`run`), and every replacement goes through `#replaceSets`. What reads the whole setlist on
  // each edit (the timing, the dirty check, the picker's "in set" badges, finding an entry) reads
  // these and depends on `revision`, instead of reading every entry through Svelte's proxies and
  // depending on each: with 200 songs that was most of the script time of a move.
  #plain: DraftSet[]
  // The saved version as text once per save, not once per edit (a 200-song setlist is edited fast).
  readonly #baseText = $derived.by(() => setlistText(this.st.base))
  readonly isDirty = $derived.by(() => {
    void this.revision
    return setlistText(this.#plain) !== this.#baseText
  })

  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- replaced whole, never mutated
  #usedInBefore = { text: '', sets: new Map<number, string[]>() }
  /**
   * The names of the sets each song is in. Rebuilt whole on every change, never mutated
   * afterwards: a plain Map. The same Map while what it says stays the same (a move within a
   * set), so the picker's badges are not rendered again.
   */
  readonly usedIn = $derived.by(() => {
    void this.revision
    const sets = usedInSets(this.#plain)
    // By song, not in setlist order: a move within a set changes the order, not what it says.
    const text = JSON.stringify([...sets].sort(([a], [b]) => a - b))
    if (text !== this.#usedInBefore.text) this.#usedInBefore = { text, sets }
    return this.#usedInBefore.sets
  })

  constructor (
    draftKey: string,
    loaded: { version: number; sets: ServerSet[] },
    userId: number | null
  ) {
    this.st = draft(
      draftKey,
      {
        version: loaded.version,
        base: fromServer(loaded.sets),
        sets: fromServer(loaded.sets),
        ops: [] as Operation[]
      },
      userId
    )
    this.restored = this.st.ops.length > 0
    this.#plain = clone(this.st.sets)
  }

  /** The sets as plain objects (not reactive: read `revision` to follow them). */
  get plain (): DraftSet[] {
    return this.#plain
  }

  /** Applies one edit to both copies and records it; false (nothing changed) if it did not. */
  run (op: Operation): boolean {
    if (!apply(this.#plain, op)) return false
    apply(this.st.sets, op)
    record(this.st.ops, op)
    this.revision += 1
    return true
  }

  /** What a save sends: the edited sets with the version they were edited from. */
  body (): SetlistBody {
    return toBody(this.st.version, $state.snapshot(this.st.sets) as DraftSet[])
  }

  /** The save went through: its answer is the new base, and nothing is left to replay. */
  saved (version: number, stored: ServerSet[]): void {
    const sets = fromServer(stored)
    this.#rebase(version, sets, clone(sets), [])
  }

  /** The save was refused (409): `current` is kept aside until the user chooses. */
  refused (current: { version: number; sets: ServerSet[] }): void {
    const theirs = fromServer(current.sets)
    this.conflict = {
      version: current.version,
      sets: theirs,
      changes: describeChanges($state.snapshot(this.st.base) as DraftSet[], theirs)
    }
  }

  /** After a conflict: the newer version, my edits dropped. False when there was no conflict. */
  takeTheirs (): boolean {
    if (!this.conflict) return false
    this.#rebase(this.conflict.version, this.conflict.sets, clone(this.conflict.sets), [])
    return true
  }

  /**
   * After a conflict: my edits replayed on the newer version (still to be saved); how many no
   * longer applied, or null when there was no conflict.
   */
  keepMine (): number | null {
    if (!this.conflict) return null
    const result = replay(this.conflict.sets, $state.snapshot(this.st.ops) as Operation[])
    this.#rebase(this.conflict.version, this.conflict.sets, result.sets)
    return result.skipped
  }

  /** A new base to edit from; `ops`, when given, replace the edits to replay (else kept). */
  #rebase (version: number, base: DraftSet[], sets: DraftSet[], ops?: Operation[]): void {
    this.st.version = version
    this.st.base = base
    this.st.sets = sets
    this.#plain = clone(sets)
    if (ops) this.st.ops = ops
    this.conflict = null
    this.revision += 1
  }
}

/** The names of the sets each song is in (free-text entries have no song). */
export function usedInSets (sets: DraftSet[]): Map<number, string[]> {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- rebuilt whole, never mutated
  const used = new Map<number, string[]>()
  for (const set of sets) {
    for (const entry of set.entries) {
      if (entry.songId === null) continue
      const names = used.get(entry.songId) ?? []
      if (!names.includes(set.name)) names.push(set.name)
      used.set(entry.songId, names)
    }
  }
  return used
}

/** What a setlist entry keeps of a song from the picker's list. */
export const songSummary = (song: Song): SongSummary => ({
  id: song.id,
  title: song.title,
  artist: song.artist,
  key: song.key ?? song.keyText,
  leadSinger: song.leadSinger,
  durationSeconds: song.durationSeconds,
  tempoBpm: song.tempoBpm,
  hasChart: song.hasChart,
  status: song.status
})

/**
 * A length typed into an entry (at least `min` = 1 s) or a break (`min` = 0): its seconds, null
 * for none (empty), undefined when it is unreadable or out of bounds (up to two hours).
 */
export function typedLength (text: string, min: 0 | 1): number | null | undefined {
  const seconds = parseDuration(text)
  if (seconds === null) return null
  if (!Number.isInteger(seconds) || seconds < min || seconds > 7200) return undefined
  return seconds
}
