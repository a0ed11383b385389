import { describe, expect, it } from 'vitest'
import { describeChanges } from './changes'
import { song, set } from './draft-fixtures'
import { newEntry } from './model'

describe('describeChanges', () => {
  it('names sets and songs added, removed, renamed, moved and changed', () => {
    const before = [set(1, 'Set 1', [1, 2, 3, 4]), set(2, 'Set 2', [5, 6]), set(3, 'Old', [7])]
    const after = [set(1, 'Opener', [4, 1, 2]), set(2, 'Set 2', [5, 3])]
    after[1]!.entries[0]!.notes = 'capo 2'
    after.push({ key: 'n1', id: null, name: 'Encore', breakAfterSeconds: null, entries: [] })
    after[2]!.entries.push(newEntry(song(8, 'New one')))
    expect(describeChanges(before, after)).toEqual([
      { kind: 'setRenamed', set: 'Opener', from: 'Set 1' },
      { kind: 'reordered', title: 'Song 4', set: 'Opener' },
      { kind: 'changed', title: 'Song 5', set: 'Set 2' },
      { kind: 'movedTo', title: 'Song 3', set: 'Set 2', from: 'Set 1' },
      { kind: 'setAdded', set: 'Encore' },
      { kind: 'added', title: 'New one', set: 'Encore' },
      { kind: 'removed', title: 'Song 6', set: 'Set 2' },
      { kind: 'setRemoved', set: 'Old' }
    ])
  })

  it('finds nothing between a version and itself', () => {
    const sets = [set(1, 'Set 1', [1, 2])]
    expect(describeChanges(sets, structuredClone(sets))).toEqual([])
  })
})
