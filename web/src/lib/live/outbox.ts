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

export const OUTBOX_DB = 'bandstand-outbox'
const STORE = 'taps'

let opening: Promise<IDBDatabase | null> | null = null

function open (): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null)
  opening ??= new Promise((resolve) => {
    const request = indexedDB.open(OUTBOX_DB, 1)
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
    // A browser without storage (private mode): the outbox lives in memory only.
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

/** This gig's queued taps, oldest first. */
export async function queued (gigId: number): Promise<Queued[]> {
  const all = (await run('readonly', (s) => s.index('gig').getAll(gigId))) as Queued[] | undefined
  return (all ?? []).sort((a, b) => a.seq - b.seq)
}

export async function enqueue (tap: Queued): Promise<void> {
  // $state proxies are not cloneable: a plain copy goes in.
  await run('readwrite', (s) => s.put(JSON.parse(JSON.stringify(tap)) as Queued))
}

export async function settle (id: string): Promise<void> {
  await run('readwrite', (s) => s.delete(id))
}
