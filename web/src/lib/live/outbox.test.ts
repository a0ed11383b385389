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

/**
 * Just enough of IndexedDB for the outbox's store: one database, its `taps` store and `gig`
 * index, requests answered on the next microtask as a browser does.
 */
function fakeIndexedDb (failOpen = false) {
  const records = new Map<string, Queued>()
  const made: string[] = []
  let opens = 0
  let fail: string | null = null
  const answer = <T>(work: () => T) => {
    const request = {} as IDBRequest<T> & { result: T, error: DOMException | null }
    queueMicrotask(() => {
      if (fail) {
        request.error = new DOMException(fail)
        request.onerror?.(new Event('error'))
        return
      }
      request.result = work()
      request.onsuccess?.(new Event('success'))
    })
    return request
  }
  const store = {
    put: (record: Queued) =>
      answer(() => records.set(record.id, structuredClone(record)) && record.id),
    delete: (id: string) => answer(() => records.delete(id) && undefined),
    index: () => ({
      getAll: (gigId: number) =>
        answer(() => [...records.values()].filter((r) => r.gigId === gigId))
    }),
    createIndex: (name: string) => made.push(`index ${name}`)
  }
  const db = {
    closed: false,
    onversionchange: null as (() => void) | null,
    close () {
      db.closed = true
    },
    createObjectStore: (name: string) => {
      made.push(`store ${name}`)
      return store
    },
    transaction: () => ({ objectStore: () => store })
  }
  const factory = {
    open: () => {
      opens++
      const request: Partial<Record<'onerror' | 'onupgradeneeded' | 'onsuccess', () => void>> &
        { result?: unknown } = {}
      queueMicrotask(() => {
        if (failOpen) return request.onerror?.()
        request.result = db
        if (opens === 1) request.onupgradeneeded?.()
        request.onsuccess?.()
      })
      return request
    }
  }
  return {
    idb: factory as unknown as IDBFactory,
    records,
    made,
    db,
    opens: () => opens,
    failWith: (name: string | null) => {
      fail = name
    }
  }
}

describe('the outbox in IndexedDB', () => {
  it('keeps the records in the taps store, indexed by gig, opened once', async () => {
    const fake = fakeIndexedDb()
    const outbox = createOutbox(indexedDbStore(() => fake.idb))
    await outbox.enqueue(tap('b', 2))
    await outbox.enqueue(tap('a', 1))
    await outbox.enqueue(tap('x', 1, 2))
    expect((await outbox.queued(1)).map((q) => q.id)).toEqual(['a', 'b'])
    await outbox.settle('a')
    expect([...fake.records.keys()].sort()).toEqual(['b', 'x'])
    expect(fake.made).toEqual(['store taps', 'index gig'])
    expect(fake.opens()).toBe(1)
  })

  it('lets the database go when another tab deletes it (logout), and opens it again', async () => {
    const fake = fakeIndexedDb()
    const outbox = createOutbox(indexedDbStore(() => fake.idb))
    await outbox.enqueue(tap('a', 1))
    fake.db.onversionchange!()
    expect(fake.db.closed).toBe(true)
    await outbox.queued(1)
    expect(fake.opens()).toBe(2)
  })

  it('a failed write is the caller\'s to see; a database that does not open keeps nothing',
    async () => {
      const fake = fakeIndexedDb()
      const outbox = createOutbox(indexedDbStore(() => fake.idb))
      fake.failWith('QuotaExceededError')
      await expect(outbox.enqueue(tap('a', 1))).rejects.toThrow('QuotaExceededError')
      const closed = createOutbox(indexedDbStore(() => fakeIndexedDb(true).idb))
      await closed.enqueue(tap('a', 1))
      expect(await closed.queued(1)).toEqual([])
    })
})
