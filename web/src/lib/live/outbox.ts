import type { LiveUpdate, SongListItem } from '$lib/api/types'

// The editor's taps that the server has not answered yet, kept in IndexedDB so that a tap made
// in a basement without network survives a reload (or the phone's battery saver killing the tab)
// and is sent, in order, once the server is reachable again. Each has its idempotency key (the
// server applies it once) and the live version it was made on (the server refuses it when
// another editor changed that entry since).

export interface QueuedTap {
  kind: 'tap'
  entryId: number
  patch: Omit<LiveUpdate, 'entryId'>
}
export interface QueuedInsert {
  kind: 'insert'
  setId: number
  afterEntryId: number | undefined
  song: SongListItem
}
export type Queued = (QueuedTap | QueuedInsert) & {
  /** The idempotency key, also the record's key. */
  id: string
  gigId: number
  /** Order of the taps on this phone (sent in this order). */
  seq: number
  /** The live version the tap was made on. */
  madeOn: number
  /** What was tapped, in words, for the status line ("Played: Proud Mary"). */
  what: string
}

/** Where the records live: IndexedDB in the app, a Map in the tests. */
export interface OutboxStore {
  /** Every record of one gig, in any order. */
  byGig: (gigId: number) => Promise<Queued[]>
  put: (record: Queued) => Promise<void>
  delete: (id: string) => Promise<void>
}

export interface Outbox {
  /** This gig's queued taps, oldest first. */
  queued: (gigId: number) => Promise<Queued[]>
  enqueue: (tap: Queued) => Promise<void>
  /** The server answered (or refused) the tap: it leaves the outbox. */
  settle: (id: string) => Promise<void>
}

export function createOutbox (store: OutboxStore): Outbox {
  return {
    queued: async (gigId) => (await store.byGig(gigId)).sort((a, b) => a.seq - b.seq),
    // $state proxies are not cloneable: a plain copy goes in.
    enqueue: (tap) => store.put(JSON.parse(JSON.stringify(tap)) as Queued),
    settle: (id) => store.delete(id)
  }
}

export const OUTBOX_DB = 'bandstand-outbox'
const STORE = 'taps'

/**
 * The records in the browser's IndexedDB. Without one (private mode, a browser without storage)
 * nothing is kept: the page's own list of pending taps is all there is.
 */
export function indexedDbStore (idb: () => IDBFactory | undefined): OutboxStore {
  let opening: Promise<IDBDatabase | null> | null = null

  function open (): Promise<IDBDatabase | null> {
    const factory = idb()
    if (!factory) return Promise.resolve(null)
    opening ??= new Promise((resolve) => {
      const request = factory.open(OUTBOX_DB, 1)
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: 'id' })
        store.createIndex('gig', 'gigId')
      }
      request.onsuccess = () => {
        const db = request.result
        // Logout or another user deletes the outbox (lib/offline/user-caches.ts): let it go.
        db.onversionchange = () => {
          db.close()
          opening = null
        }
        resolve(db)
      }
      request.onerror = () => resolve(null)
    })
    return opening
  }

  async function run<T> (
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore) => IDBRequest<T>
  ): Promise<T | undefined> {
    const db = await open()
    if (!db) return undefined
    return new Promise((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE))
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error ?? new Error('outbox'))
    })
  }

  return {
    byGig: async (gigId) =>
      ((await run('readonly', (s) => s.index('gig').getAll(gigId))) as Queued[] | undefined) ?? [],
    put: async (record) => {
      await run('readwrite', (s) => s.put(record))
    },
    delete: async (id) => {
      await run('readwrite', (s) => s.delete(id))
    }
  }
}

export const { queued, enqueue, settle } = createOutbox(
  indexedDbStore(() => (typeof indexedDB === 'undefined' ? undefined : indexedDB))
)
