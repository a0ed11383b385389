/** Drafts for the setlist model's unit tests (model.test.ts, changes.test.ts). */
import type { DraftEntry, DraftSet, SongSummary } from './model'

export const song = (id: number, title = `Song ${id}`): SongSummary =>
  ({ id, title, durationSeconds: 200 }) as SongSummary

/** A stored entry `e<id>` of song `id`. */
export const entry = (id: number, changes: Partial<DraftEntry> = {}): DraftEntry => ({
  key: `e${id}`,
  id,
  songId: id,
  song: song(id),
  title: `Song ${id}`,
  notes: '',
  durationSeconds: null,
  transpose: 0,
  capo: null,
  status: 'planned',
  ...changes
})

export const set = (id: number, name: string, ids: number[]): DraftSet => ({
  key: `s${id}`,
  id,
  name,
  breakAfterSeconds: null,
  entries: ids.map((i) => entry(i))
})

/** The song ids set by set: what a test compares. */
export const order = (sets: DraftSet[]) => sets.map((s) => s.entries.map((e) => e.songId))
