import { flushSync } from 'svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SongListItem } from '../api/types'
import { EditorState, songSummary, typedLength, usedInSets } from './editor-state.svelte'
import { placeOf } from './keyboard-move'
import { addOperation, moveOperation, newEntry, type ServerSet, type SongSummary } from './model'

const song = (id: number): SongSummary => ({ id, title: `Song ${id}` }) as SongSummary

/** A stored set `id` as the API answers it, with one entry per song id (entry id = song id). */
const serverSet = (id: number, name: string, ids: number[]): ServerSet =>
  ({
    id,
    name,
    customBreakAfterSeconds: null,
    entries: ids.map((songId) => ({
      id: songId,
      songId,
      song: song(songId),
      title: `Song ${songId}`,
      notes: null,
      customDurationSeconds: null,
      transpose: 0,
      capo: null,
      status: 'planned'
    }))
  }) as unknown as ServerSet

/** The song ids set by set. */
const order = (editor: EditorState) => editor.st.sets.map((s) => s.entries.map((e) => e.songId))

let closes: (() => void)[] = []
/** An editor made as the component makes it (its draft lives while the editor is shown). */
function editorOf (sets: ServerSet[], version = 1): EditorState {
  let editor!: EditorState
  closes.push(
    $effect.root(() => {
      editor = new EditorState('setlist-test', { version, sets }, 7)
    })
  )
  flushSync()
  return editor
}

beforeEach(() => {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a stand-in store, never rendered
  const items = new Map<string, string>()
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => items.set(key, value),
    removeItem: (key: string) => items.delete(key)
  })
})
afterEach(() => {
  for (const close of closes) close()
  closes = []
  vi.unstubAllGlobals()
})

describe('EditorState', () => {
  it('applies an edit to the rendered and the plain sets, and is dirty until moved back', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2, 3])])
    expect(editor.restored).toBe(false)
    expect(editor.isDirty).toBe(false)
    const before = editor.revision
    expect(editor.run(moveOperation(editor.plain, 'e3', 's1', 0)!)).toBe(true)
    expect(editor.revision).toBe(before + 1)
    expect(order(editor)).toEqual([[3, 1, 2]])
    expect(editor.plain[0]!.entries.map((e) => e.songId)).toEqual([3, 1, 2])
    expect(editor.isDirty).toBe(true)
    expect(editor.st.ops).toHaveLength(1)
    editor.run(moveOperation(editor.plain, 'e3', 's1', 2)!)
    expect(editor.isDirty).toBe(false)
    // An edit whose target is gone changes nothing.
    expect(editor.run({ type: 'remove', entry: 'e9' })).toBe(false)
    expect(editor.revision).toBe(before + 2)
  })

  it('names the sets each song is in, the same Map while that stays the same', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2]), serverSet(2, 'Encore', [3])])
    const first = editor.usedIn
    expect([...first]).toEqual([[1, ['Set 1']], [2, ['Set 1']], [3, ['Encore']]])
    editor.run(moveOperation(editor.plain, 'e2', 's1', 0)!)
    expect(editor.usedIn).toBe(first)
    editor.run(addOperation(editor.plain, newEntry(song(1)), 's2'))
    expect(editor.usedIn.get(1)).toEqual(['Set 1', 'Encore'])
    expect(editor.usedIn).not.toBe(first)
  })

  it('takes a save as the new base: not dirty, nothing left to replay', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2])], 3)
    editor.run({ type: 'remove', entry: 'e1' })
    expect(editor.body()).toMatchObject({ version: 3, sets: [{ id: 1, entries: [{ id: 2 }] }] })
    editor.saved(4, [serverSet(1, 'Set 1', [2])])
    expect(editor.st.version).toBe(4)
    expect(editor.st.ops).toEqual([])
    expect(editor.isDirty).toBe(false)
    expect(editor.conflict).toBeNull()
  })

  it('after a refused save takes the newer version, dropping my edits', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2])], 3)
    expect(editor.takeTheirs()).toBe(false)
    editor.run({ type: 'remove', entry: 'e1' })
    editor.refused({ version: 5, sets: [serverSet(1, 'Set 1', [1, 2, 4])] })
    expect(editor.conflict?.changes).toEqual([{ kind: 'added', title: 'Song 4', set: 'Set 1' }])
    expect(editor.takeTheirs()).toBe(true)
    expect(editor.conflict).toBeNull()
    expect(editor.st.version).toBe(5)
    expect(order(editor)).toEqual([[1, 2, 4]])
    expect(editor.st.ops).toEqual([])
    expect(editor.isDirty).toBe(false)
  })

  it('after a refused save replays my edits on the newer version, counting the lost ones', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2, 3])], 3)
    expect(editor.keepMine()).toBeNull()
    editor.run({ type: 'remove', entry: 'e1' })
    editor.run({ type: 'remove', entry: 'e2' })
    // Someone else removed song 2 meanwhile: that edit no longer applies.
    editor.refused({ version: 6, sets: [serverSet(1, 'Set 1', [1, 3, 4])] })
    expect(editor.keepMine()).toBe(1)
    expect(editor.conflict).toBeNull()
    expect(editor.st.version).toBe(6)
    expect(order(editor)).toEqual([[3, 4]])
    expect(editor.plain[0]!.entries.map((e) => e.songId)).toEqual([3, 4])
    expect(editor.st.ops).toHaveLength(2)
    expect(editor.isDirty).toBe(true)
    expect(editor.body().version).toBe(6)
  })
})

describe('helpers', () => {
  it('reads a typed length in bounds: entries from 1 s, breaks from 0, up to two hours', () => {
    expect(typedLength('', 1)).toBeNull()
    expect(typedLength('3:30', 1)).toBe(210)
    expect(typedLength('0', 1)).toBeUndefined()
    expect(typedLength('0', 0)).toBe(0)
    expect(typedLength('120', 0)).toBe(7200)
    expect(typedLength('121', 0)).toBeUndefined()
    expect(typedLength('soon', 0)).toBeUndefined()
  })

  it('keeps what an entry needs of a listed song (its key, or the key as typed)', () => {
    const listed = {
      id: 4,
      title: 'Four',
      artist: null,
      key: null,
      keyText: 'H-Dur',
      leadSinger: 'Ann',
      durationSeconds: 200,
      tempoBpm: 120,
      hasChart: true,
      status: 'accepted',
      genre: 'Rock'
    } as unknown as SongListItem
    expect(songSummary(listed)).toEqual({
      id: 4,
      title: 'Four',
      artist: null,
      key: 'H-Dur',
      leadSinger: 'Ann',
      durationSeconds: 200,
      tempoBpm: 120,
      hasChart: true,
      status: 'accepted'
    })
  })

  it('says where an entry is now, and which sets use a song (free text has none)', () => {
    const editor = editorOf([serverSet(1, 'Set 1', [1, 2]), serverSet(2, 'Encore', [1])])
    expect(placeOf(editor.plain, 'e2')).toEqual({
      title: 'Song 2',
      set: 'Set 1',
      position: 2,
      count: 2
    })
    expect(placeOf(editor.plain, 'e9')).toBeNull()
    editor.plain[0]!.entries[1]!.songId = null
    expect([...usedInSets(editor.plain)]).toEqual([[1, ['Set 1', 'Encore']]])
  })
})
