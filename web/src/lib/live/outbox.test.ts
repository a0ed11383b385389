import { describe, expect, it } from 'vitest'
import type { SongListItem } from '$lib/api/types'
import { createOutbox, indexedDbStore, type OutboxStore, type Queued } from './outbox'

/** The outbox's records in a Map, as IndexedDB keeps them: by id, a copy per read. */
function memoryStore () {
  const records = new Map<string, Queued>()
  const store: OutboxStore = {
    byGig: async (gigId) =>
      [...records.values()].filter((r) => r.gigId === gigId).map((r) => structuredClone(r)),
    put: async (record) => {
      records.set(record.id, structuredClone(record))
    },
    delete: async (id) => {
      records.delete(id)
    }
  }
  return { store, records }
}

const tap = (id: string, seq: number, gigId = 1): Queued => ({
  kind: 'tap',
  id,
  gigId,
  seq,
  madeOn: 4,
  what: `Played: ${id}`,
  entryId: 10 + seq,
  patch: { status: 'played', songId: 3 }
})

const insert = (id: string, seq: number): Queued => ({
  kind: 'insert',
  id,
  gigId: 1,
  seq,
  madeOn: 4,
  what: 'Added: Proud Mary',
  setId: 2,
  afterEntryId: undefined,
  song: { id: 7, title: 'Proud Mary' } as SongListItem
})

describe('outbox', () => {
  it('gives a gig\'s queued taps oldest first, whatever order the store keeps', async () => {
    const { store } = memoryStore()
    const outbox = createOutbox(store)
    await outbox.enqueue(tap('c', 3))
    await outbox.enqueue(tap('a', 1))
    await outbox.enqueue(insert('b', 2))
    await outbox.enqueue(tap('other gig', 0, 2))
    expect((await outbox.queued(1)).map((q) => q.id)).toEqual(['a', 'b', 'c'])
    expect((await outbox.queued(2)).map((q) => q.id)).toEqual(['other gig'])
    expect(await outbox.queued(3)).toEqual([])
  })

  it('keeps a plain copy of what it is given, inserts\' songs with it', async () => {
    const { store, records } = memoryStore()
    const outbox = createOutbox(store)
    const queued = insert('i', 1)
    await outbox.enqueue(queued)
    queued.what = 'changed after queueing'
    const [kept] = await outbox.queued(1)
    expect(kept).toMatchObject({ what: 'Added: Proud Mary', song: { title: 'Proud Mary' } })
    // `afterEntryId: undefined` is left out of the copy (an insert at the end of its set).
    expect('afterEntryId' in records.get('i')!).toBe(false)
  })

  it('a tap queued again under its idempotency key is kept once', async () => {
    const { store } = memoryStore()
    const outbox = createOutbox(store)
    await outbox.enqueue(tap('a', 1))
    await outbox.enqueue({ ...tap('a', 1), madeOn: 5 })
    expect(await outbox.queued(1)).toMatchObject([{ id: 'a', madeOn: 5 }])
  })

  it('a settled tap leaves it; settling one twice or one never queued is harmless', async () => {
    const { store } = memoryStore()
    const outbox = createOutbox(store)
    await outbox.enqueue(tap('a', 1))
    await outbox.enqueue(tap('b', 2))
    await outbox.settle('a')
    await outbox.settle('a')
    await outbox.settle('never')
    expect((await outbox.queued(1)).map((q) => q.id)).toEqual(['b'])
  })

  it('survives a reload: a new outbox over the same store finds the taps', async () => {
    const { store } = memoryStore()
    await createOutbox(store).enqueue(tap('a', 1))
    expect((await createOutbox(store).queued(1)).map((q) => q.id)).toEqual(['a'])
  })

  it('without IndexedDB (private mode) keeps nothing and fails nothing', async () => {
    const outbox = createOutbox(indexedDbStore(() => undefined))
    await outbox.enqueue(tap('a', 1))
    await outbox.settle('a')
    expect(await outbox.queued(1)).toEqual([])
  })
})
