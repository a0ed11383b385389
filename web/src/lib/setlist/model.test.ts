import { describe, expect, it } from 'vitest'
import {
  addOperation,
  apply,
  moveOperation,
  newEntry,
  record,
  replay,
  sameSetlist,
  toBody,
  type Operation
} from './model'
import { entry, order, set, song } from './draft-fixtures'

describe('operations', () => {
  it('moves within a set and across sets, by anchor', () => {
    const sets = [set(1, 'Set 1', [1, 2, 3, 4]), set(2, 'Set 2', [5])]
    const down = moveOperation(sets, 'e1', 's1', 2)!
    expect(down).toEqual({ type: 'move', entry: 'e1', set: 's1', after: 'e3', index: 2 })
    expect(apply(sets, down)).toBe(true)
    expect(order(sets)).toEqual([[2, 3, 1, 4], [5]])
    expect(apply(sets, moveOperation(sets, 'e4', 's2', 0)!)).toBe(true)
    expect(order(sets)).toEqual([[2, 3, 1], [4, 5]])
    expect(moveOperation(sets, 'e4', 's2', 0)).toBeNull()
  })

  it('adds at the end of a set, removes, and updates', () => {
    const sets = [set(1, 'Set 1', [1])]
    const added = newEntry(song(9))
    expect(apply(sets, addOperation(sets, added, 's1'))).toBe(true)
    expect(apply(sets, { type: 'updateEntry', entry: added.key, changes: { notes: 'slow' } }))
      .toBe(true)
    expect(apply(sets, { type: 'updateSet', set: 's1', changes: { name: 'Opener' } })).toBe(true)
    expect(apply(sets, { type: 'remove', entry: 'e1' })).toBe(true)
    expect(sets[0]!.name).toBe('Opener')
    expect(sets[0]!.entries.map((e) => [e.songId, e.notes])).toEqual([[9, 'slow']])
  })

  it('skips an operation whose target is gone', () => {
    const sets = [set(1, 'Set 1', [1])]
    expect(apply(sets, { type: 'remove', entry: 'e7' })).toBe(false)
    expect(apply(sets, { type: 'updateSet', set: 's9', changes: { name: 'x' } })).toBe(false)
    expect(apply(sets, addOperation(sets, entry(1), 's1'))).toBe(false)
  })

  it('replays edits on a newer version, counting those that no longer apply', () => {
    const mine = [set(1, 'Set 1', [1, 2, 3])]
    const log: Operation[] = []
    for (const op of [
      moveOperation(mine, 'e3', 's1', 0)!,
      { type: 'remove', entry: 'e2' } as const
    ]) {
      apply(mine, op)
      record(log, op)
    }
    // Someone else removed song 2 and added song 4 meanwhile.
    const theirs = [set(1, 'Set 1', [1, 3, 4])]
    const { sets, skipped } = replay(theirs, log)
    expect(order(sets)).toEqual([[3, 1, 4]])
    expect(skipped).toBe(1)
    expect(order(theirs)).toEqual([[1, 3, 4]])
  })

  it('folds typing and step-by-step moves into one operation each', () => {
    const log: Operation[] = []
    record(log, { type: 'updateSet', set: 's1', changes: { name: 'O' } })
    record(log, { type: 'updateSet', set: 's1', changes: { name: 'Op' } })
    record(log, { type: 'move', entry: 'e1', set: 's1', after: 'e2', index: 1 })
    record(log, { type: 'move', entry: 'e1', set: 's1', after: 'e3', index: 2 })
    record(log, { type: 'updateEntry', entry: 'e1', changes: { notes: 'a' } })
    record(log, { type: 'updateEntry', entry: 'e2', changes: { notes: 'b' } })
    expect(log).toEqual([
      { type: 'updateSet', set: 's1', changes: { name: 'Op' } },
      { type: 'move', entry: 'e1', set: 's1', after: 'e3', index: 2 },
      { type: 'updateEntry', entry: 'e1', changes: { notes: 'a' } },
      { type: 'updateEntry', entry: 'e2', changes: { notes: 'b' } }
    ])
  })
})

describe('the PUT body', () => {
  it('keeps stored ids, trims texts, and sends no id for new sets and entries', () => {
    const sets = [set(1, ' Set 1 ', [1])]
    sets[0]!.entries[0]!.notes = '  '
    sets[0]!.entries.push(newEntry(song(2)))
    expect(toBody(4, sets)).toEqual({
      version: 4,
      sets: [
        {
          id: 1,
          name: 'Set 1',
          breakAfterSeconds: null,
          entries: [
            { id: 1, songId: 1, notes: null, durationSeconds: null, transpose: 0, capo: null },
            { songId: 2, notes: null, durationSeconds: null, transpose: 0, capo: null }
          ]
        }
      ]
    })
    expect(sameSetlist(sets, structuredClone(sets))).toBe(true)
    sets[0]!.entries[1]!.capo = 2
    expect(sameSetlist(sets, [set(1, 'Set 1', [1])])).toBe(false)
  })
})
