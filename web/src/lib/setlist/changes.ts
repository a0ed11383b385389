/**
 * What changed between two versions of one setlist, as a readable list: the conflict notice shows
 * it when another user saved first (the editor's model is model.ts).
 */
import { titleOf, type DraftEntry, type DraftSet } from './model.js'

export type Change =
  | { kind: 'setAdded' | 'setRemoved'; set: string }
  | { kind: 'setRenamed'; set: string; from: string }
  | { kind: 'breakChanged'; set: string }
  | { kind: 'added' | 'removed'; title: string; set: string }
  | { kind: 'movedTo'; title: string; set: string; from: string }
  | { kind: 'reordered'; title: string; set: string }
  | { kind: 'changed'; title: string; set: string }

/** Positions in `sequence` that are not part of its longest increasing run (patience sorting). */
function outOfOrder (sequence: number[]): Set<number> {
  const tails: number[] = []
  const tailIndex: number[] = []
  const previous: number[] = new Array(sequence.length).fill(-1)
  sequence.forEach((value, i) => {
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (tails[mid]! < value) lo = mid + 1
      else hi = mid
    }
    tails[lo] = value
    tailIndex[lo] = i
    previous[i] = lo > 0 ? tailIndex[lo - 1]! : -1
  })
  const kept = new Set<number>()
  for (let i = tailIndex[tails.length - 1] ?? -1; i >= 0; i = previous[i]!) kept.add(i)
  return new Set(sequence.map((_, i) => i).filter((i) => !kept.has(i)))
}

/**
 * What changed from `before` to `after` (two versions of one setlist, matched by stored ids): sets
 * added, removed, renamed; songs added, removed, moved to another set, moved within their set,
 * and notes or lengths changed. In the order of `after`, removals last.
 */
export function describeChanges (before: DraftSet[], after: DraftSet[]): Change[] {
  const changes: Change[] = []
  const beforeSets = new Map(before.filter((s) => s.id !== null).map((s) => [s.id, s]))
  const afterSetIds = new Set(after.map((s) => s.id))
  const beforeEntries = new Map<number, { entry: DraftEntry; set: DraftSet; index: number }>()
  for (const set of before) {
    set.entries.forEach((entry, index) => {
      if (entry.id !== null) beforeEntries.set(entry.id, { entry, set, index })
    })
  }
  const afterEntryIds = new Set(after.flatMap((set) => set.entries.map((entry) => entry.id)))

  for (const set of after) {
    const old = set.id === null ? undefined : beforeSets.get(set.id)
    if (!old) changes.push({ kind: 'setAdded', set: set.name })
    else {
      if (old.name !== set.name) changes.push({ kind: 'setRenamed', set: set.name, from: old.name })
      if (old.breakAfterSeconds !== set.breakAfterSeconds) {
        changes.push({ kind: 'breakChanged', set: set.name })
      }
    }
    // Entries that stayed in this set: those out of their old relative order were moved.
    const stayed = set.entries
      .map((entry, index) => ({
        entry,
        index,
        was: entry.id === null ? undefined : beforeEntries.get(entry.id)
      }))
      .filter((item) => item.was && old && item.was.set.id === old.id)
    const moved = outOfOrder(stayed.map((item) => item.was!.index))
    const movedKeys = new Set([...moved].map((i) => stayed[i]!.entry.key))
    for (const entry of set.entries) {
      const was = entry.id === null ? undefined : beforeEntries.get(entry.id)
      const title = titleOf(entry)
      if (!was) changes.push({ kind: 'added', title, set: set.name })
      else if (was.set.id !== set.id) {
        changes.push({ kind: 'movedTo', title, set: set.name, from: was.set.name })
      } else if (movedKeys.has(entry.key)) changes.push({ kind: 'reordered', title, set: set.name })
      if (
        was &&
        (was.entry.notes !== entry.notes ||
          was.entry.durationSeconds !== entry.durationSeconds ||
          was.entry.songId !== entry.songId ||
          was.entry.title !== entry.title)
      ) {
        changes.push({ kind: 'changed', title, set: set.name })
      }
    }
  }
  for (const set of before) {
    if (set.id !== null && !afterSetIds.has(set.id)) {
      changes.push({ kind: 'setRemoved', set: set.name })
    }
    for (const entry of set.entries) {
      if (entry.id !== null && !afterEntryIds.has(entry.id) && afterSetIds.has(set.id)) {
        changes.push({ kind: 'removed', title: titleOf(entry), set: set.name })
      }
    }
  }
  return changes
}
