/**
 * The keyboard way of moving an entry (ArrowUp / ArrowDown on its handle, and the Move up / Move
 * down buttons): one step within its set; past the first or last entry it goes to the end of the
 * previous set or the start of the next. Pure, so the editor only applies what comes back.
 */
import { findEntry, titleOf, type DraftSet } from './model.js'

export type StepTarget =
  | { kind: 'move'; setKey: string; index: number }
  | { kind: 'atStart' }
  | { kind: 'atEnd' }

/** Where one step up (-1) or down (1) takes the entry `key`; null when there is no such entry. */
export function stepTarget (sets: DraftSet[], key: string, delta: -1 | 1): StepTarget | null {
  const found = findEntry(sets, key)
  if (!found) return null
  const { set, setIndex, index } = found
  if (delta < 0) {
    if (index > 0) return { kind: 'move', setKey: set.key, index: index - 1 }
    const previous = sets[setIndex - 1]
    if (previous) return { kind: 'move', setKey: previous.key, index: previous.entries.length }
    return { kind: 'atStart' }
  }
  if (index < set.entries.length - 1) return { kind: 'move', setKey: set.key, index: index + 1 }
  const next = sets[setIndex + 1]
  if (next) return { kind: 'move', setKey: next.key, index: 0 }
  return { kind: 'atEnd' }
}

/** The step a key press on a handle asks for (plain arrows only), or null for any other key. */
export function stepOfKey (event: KeyboardEvent): -1 | 1 | null {
  if (event.ctrlKey || event.metaKey || event.shiftKey) return null
  if (event.key === 'ArrowUp') return -1
  if (event.key === 'ArrowDown') return 1
  return null
}

/** Where the entry `key` is now, as the announcement of a move says it; null when it is gone. */
export function placeOf (
  sets: DraftSet[],
  key: string
): { title: string; set: string; position: number; count: number } | null {
  const found = findEntry(sets, key)
  if (!found) return null
  return {
    title: titleOf(found.set.entries[found.index]!),
    set: found.set.name,
    position: found.index + 1,
    count: found.set.entries.length
  }
}
