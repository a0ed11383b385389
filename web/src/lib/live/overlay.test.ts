import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LiveEntry, LiveView, SongListItem } from '$lib/api/types'
import type { Queued } from './outbox'
import {
  answered,
  fromOutbox,
  overlay,
  withRestored,
  type Patch,
  type Pending,
  type PendingInsert,
  type PendingTap
} from './overlay'

type Status = LiveEntry['status']

const song = (id: number): SongListItem =>
  ({ id, title: `Song ${id}`, durationSeconds: 180 + id }) as SongListItem

const entry = (
  id: number,
  setId: number,
  status: Status = 'planned',
  rating: number | null = null
): LiveEntry => ({
  id,
  setId,
  songId: id,
  song: song(id),
  title: `Song ${id}`,
  notes: null,
  transpose: 0,
  capo: null,
  plannedStart: `20:${String(id).padStart(2, '0')}`,
  durationSeconds: 200,
  customDurationSeconds: null,
  status,
  inserted: false,
  rating
})

/** A live view of sets given as their entries; `current` as the server computes it. */
function view (sets: LiveEntry[][], version = 1): LiveView {
  const shaped = sets.map((entries, i) => ({
    id: i + 1,
    name: `Set ${i + 1}`,
    breakAfterSeconds: 0,
    customBreakAfterSeconds: null,
    start: `2${i}:00`,
    end: `2${i}:45`,
    durationSeconds: 2700,
    entries: entries.map((e) => ({ ...e, setId: i + 1 }))
  }))
  const current = shaped.flatMap((s) => s.entries).find((e) => e.status === 'planned') ?? null
  return {
    gig: {} as LiveView['gig'],
    version,
    current,
    currentSince: null,
    sets: shaped,
    totalSeconds: 0,
    progress: { planned: 0, played: 0, skipped: 0 }
  }
}

const stamp = (id: string) => ({ id, gigId: 1, seq: 0, madeOn: 0, what: id })

const tap = (key: number, entryId: number, patch: Patch, version?: number): PendingTap => ({
  kind: 'tap',
  key,
  entryId,
  patch,
  ...(version === undefined ? {} : { version }),
  out: { kind: 'tap', entryId, patch, ...stamp(`t${key}`) }
})

const insert = (key: number, setId: number, afterEntryId: number | undefined, songId: number,
  entryId?: number): PendingInsert => ({
  kind: 'insert',
  key,
  setId,
  afterEntryId,
  song: song(songId),
  ...(entryId === undefined ? {} : { entryId }),
  out: { kind: 'insert', setId, afterEntryId, song: song(songId), ...stamp(`i${key}`) }
})

const ids = (state: { view: LiveView }) => state.view.sets.map((s) => s.entries.map((e) => e.id))

describe('overlay: examples', () => {
  const show = view([[entry(1, 1, 'played', 2), entry(2, 1), entry(3, 1)], [entry(4, 2)]], 5)

  it('shows the server view as it is without taps', () => {
    const state = overlay(show, [])
    expect(state.view).toEqual(show)
    expect([state.current?.id, state.next?.id, state.previous?.id]).toEqual([2, 3, 1])
    expect(state.unconfirmed).toEqual([])
  })

  it('a tap on its way moves the show on at once and is marked unconfirmed', () => {
    const state = overlay(show, [tap(1, 2, { status: 'played' })])
    expect([state.current?.id, state.next?.id, state.previous?.id]).toEqual([3, 4, 2])
    expect(state.view.current?.id).toBe(3)
    expect(state.unconfirmed).toEqual([2])
    // The server's view itself is not touched.
    expect(show.sets[0]!.entries[1]!.status).toBe('planned')
  })

  it('a skip clears the rating; later taps on the same entry win', () => {
    const state = overlay(show, [tap(1, 1, { rating: 3 }), tap(2, 1, { status: 'skipped' })])
    expect(state.view.sets[0]!.entries[0]).toMatchObject({ status: 'skipped', rating: null })
    expect(overlay(show, [tap(1, 1, { status: 'skipped' }), tap(2, 1, { rating: 1 })])
      .view.sets[0]!.entries[0]).toMatchObject({ status: 'skipped', rating: 1 })
  })

  it('an answered tap stays until the server view reaches its version', () => {
    const played = tap(1, 2, { status: 'played' }, 6)
    expect(answered(played)).toBe(true)
    expect(overlay(show, [played]).current?.id).toBe(3)
    // Version 6 is the server's own: what it says stands (here another editor took it back).
    expect(overlay({ ...show, version: 6 }, [played]).current?.id).toBe(2)
    expect(answered(tap(2, 2, { status: 'played' }))).toBe(false)
  })

  it('an insert goes after the entry it follows, with a placeholder id and start', () => {
    const state = overlay(show, [insert(7, 1, 2, 99)])
    expect(ids(state)).toEqual([[1, 2, -7, 3], [4]])
    const added = state.view.sets[0]!.entries[2]!
    expect(added).toMatchObject({ songId: 99, title: 'Song 99', status: 'planned', inserted: true })
    expect(added.plannedStart).toBe(show.sets[0]!.entries[1]!.plannedStart)
    expect(added.durationSeconds).toBe(279)
    expect(state.unconfirmed).toEqual([-7])
  })

  it('an insert without an entry before it ends its set; in an empty set it starts it', () => {
    expect(ids(overlay(show, [insert(1, 2, undefined, 50)]))).toEqual([[1, 2, 3], [4, -1]])
    const empty = view([[entry(1, 1)], []])
    const state = overlay(empty, [insert(2, 2, undefined, 50)])
    expect(state.view.sets[1]!.entries[0]!.plannedStart).toBe('21:00')
  })

  it('an answered insert leaves once the server view has its entry', () => {
    const made = insert(1, 1, 2, 99, 12)
    expect(ids(overlay(show, [made]))).toEqual([[1, 2, -1, 3], [4]])
    const withIt = view([[entry(1, 1, 'played'), entry(2, 1), entry(12, 1), entry(3, 1)],
      [entry(4, 2)]], 6)
    expect(overlay(withIt, [made])).toEqual(overlay(withIt, []))
  })

  it('all played: no current or next song, the previous is the last played', () => {
    const done = view([[entry(1, 1, 'played'), entry(2, 1, 'skipped')]])
    const state = overlay(done, [])
    expect([state.current, state.next, state.previous?.id]).toEqual([null, null, 1])
  })
})

describe('the outbox restored', () => {
  it('becomes pending taps, shown as late, ahead of those of this visit', () => {
    const out: Queued = { kind: 'tap', entryId: 2, patch: { status: 'played' }, ...stamp('a') }
    const restored = fromOutbox(out, 9)
    expect(restored).toMatchObject({ kind: 'tap', key: 9, late: true, entryId: 2, out })
    const added: Queued = {
      kind: 'insert', setId: 1, afterEntryId: undefined, song: song(5), ...stamp('b')
    }
    expect(fromOutbox(added, 10)).toMatchObject({ kind: 'insert', key: 10, late: true, setId: 1 })
    const now = tap(1, 3, { rating: 1 })
    expect(withRestored([now], [restored]).map((p) => p.key)).toEqual([9, 1])
    expect(withRestored([now], [])).toEqual([now])
  })
})

// Properties over any show and any taps on it.
const statuses: Status[] = ['planned', 'played', 'skipped']
const arbSets = fc.array(
  fc.array(fc.record({
    status: fc.constantFrom(...statuses),
    rating: fc.option(fc.integer({ min: 1, max: 3 }))
  }), { maxLength: 5 }),
  { minLength: 1, maxLength: 3 }
)
const arbPatch: fc.Arbitrary<Patch> = fc.oneof(
  fc.record({ status: fc.constantFrom(...statuses) }),
  fc.record({ rating: fc.option(fc.integer({ min: 1, max: 3 })) })
)
/** One tap or insert, on an entry or set of the view: its parts as indexes into them. */
const arbIntent = fc.record({
  insert: fc.boolean(),
  at: fc.nat(),
  patch: arbPatch,
  songId: fc.integer({ min: 100, max: 110 }),
  /** The version the server answered with, as an offset from the view's (−1: unanswered). */
  answeredAt: fc.integer({ min: -1, max: 3 })
})
const arbShow = fc.record({
  sets: arbSets,
  version: fc.integer({ min: 3, max: 50 }),
  intents: fc.array(arbIntent, { maxLength: 8 })
})
type Input = typeof arbShow extends fc.Arbitrary<infer T> ? T : never

function build ({ sets, version }: Input) {
  let id = 0
  return view(sets.map((s) => s.map(({ status, rating }) => entry(++id, 0, status, rating))),
    version)
}

type Intent = Input['intents'][number]

/** The intents as taps on `show`; `contained`: each answered in a version the view has. */
function pendingOn (show: LiveView, intents: Intent[], contained: boolean): Pending[] {
  const entries = show.sets.flatMap((s) => s.entries)
  return intents.flatMap((intent, i): Pending[] => {
    const key = i + 1
    if (intent.insert || entries.length === 0) {
      const set = show.sets[intent.at % show.sets.length]!
      const after = set.entries[intent.at % (set.entries.length + 1)]?.id
      // Contained: the server made it as an entry the view lists.
      const made = contained ? entries[intent.at % Math.max(entries.length, 1)]?.id : undefined
      if (contained && made === undefined) return []
      return [insert(key, set.id, after, intent.songId, made)]
    }
    const target = entries[intent.at % entries.length]!.id
    const answeredIn = contained
      ? show.version - Math.max(intent.answeredAt, 0)
      : intent.answeredAt < 0 ? undefined : show.version + 1 + intent.answeredAt
    return [tap(key, target, intent.patch, answeredIn)]
  })
}

describe('overlay: properties', () => {
  it('a view that already contains every pending tap shows exactly the server\'s view', () => {
    fc.assert(fc.property(arbShow, (input) => {
      const show = build(input)
      const state = overlay(show, pendingOn(show, input.intents, true))
      expect(state).toEqual(overlay(show, []))
      expect(state.view.sets).toEqual(show.sets)
      expect(state.view.current).toEqual(show.current)
      expect(state.unconfirmed).toEqual([])
    }))
  })

  it('replaying the outbox twice equals once', () => {
    fc.assert(fc.property(arbShow, fc.nat(), (input, split) => {
      const show = build(input)
      const all = pendingOn(show, input.intents, false)
      // Some taps of this visit, the others in the outbox from before a reload (some in both).
      const cut = all.length === 0 ? 0 : split % (all.length + 1)
      const visit = all.slice(cut)
      const outbox = all.slice(0, Math.min(all.length, cut + 1)).map((p) => p.out)
      let keys = 1000
      const restore = (pending: Pending[]) =>
        withRestored(pending, outbox.map((out) => fromOutbox(out, ++keys)))
      const once = restore(visit)
      const twice = restore(once)
      expect(twice).toEqual(once)
      expect(overlay(show, twice)).toEqual(overlay(show, once))
      // Each record once, whichever way it came.
      expect(new Set(once.map((p) => p.out.id)).size).toBe(once.length)
    }))
  })

  it('a tap sent again lands as it did once (a tap states a value, not a step)', () => {
    fc.assert(fc.property(arbShow, (input) => {
      const show = build(input)
      const taps = pendingOn(show, input.intents, false).filter((p) => p.kind === 'tap')
      const once = overlay(show, taps)
      const again = overlay(show, [...taps, ...taps])
      expect(again.view).toEqual(once.view)
      expect([again.current, again.next, again.previous])
        .toEqual([once.current, once.next, once.previous])
      expect(new Set(again.unconfirmed)).toEqual(new Set(once.unconfirmed))
    }))
  })

  it('keeps every entry of the server\'s view, in its order, and adds the inserts on their way',
    () => {
      fc.assert(fc.property(arbShow, (input) => {
        const show = build(input)
        const pending = pendingOn(show, input.intents, false)
        const state = overlay(show, pending)
        const shown = state.view.sets.flatMap((s) => s.entries.map((e) => e.id))
        expect(shown.filter((id) => id > 0)).toEqual(show.sets.flatMap((s) =>
          s.entries.map((e) => e.id)))
        const inserts = pending.filter((p) => p.kind === 'insert').map((p) => -p.key)
        expect(shown.filter((id) => id < 0).sort((a, b) => a - b))
          .toEqual(inserts.sort((a, b) => a - b))
      }))
    })
})
