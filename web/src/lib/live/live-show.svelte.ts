import { api, ApiFailure, call, failureOf } from '$lib/api/client'
import type { LiveEntry, LiveView, SongListItem } from '$lib/api/types'
import { explainError } from '$lib/errors'
import { LiveFeed, type FirstView } from './live-feed.svelte'
import { enqueue, queued, settle, type Queued } from './outbox'
import {
  answered,
  fromOutbox,
  isIn,
  overlay,
  withRestored,
  type Patch,
  type Pending,
  type PendingInsert
} from './overlay'

export type { ShowState } from './overlay'

export interface Failure {
  key: number
  /** What was tapped, e.g. "Played: Proud Mary". */
  what: string
  message: string
}

let keys = 0

/** A tap the server has not answered after this long is shown as pending (a stalled network). */
export const LATE_MS = 5_000
/** While the server is unreachable, the outbox tries again this often. */
const RETRY_MS = 3_000
/** A refused tap's message stays this long in the status line (or until the next tap lands). */
const FAILURE_MS = 12_000

/** A key for the server to recognise a repeated request (idempotency), unique per tap. */
const idempotencyKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`

/**
 * Live mode for one phone: the server's view (LiveFeed) with this phone's own taps laid over it
 * until the server's view contains them. A tap sends only what it changes (entry and field), and
 * the server merges, so two editors tapping at once both land; a view from the server never
 * overwrites a tap that is still on its way, and a refused tap is taken back and reported.
 */
export class LiveShow {
  feed: LiveFeed
  pending = $state<Pending[]>([])
  /** The latest refused tap (one line of status, not a stack): it clears itself. */
  failure = $state<Failure | null>(null)
  state = $derived.by(() => (this.feed.view ? overlay(this.feed.view, this.pending) : null))
  /** Taps sent more than LATE_MS ago that the server has not answered. */
  late = $derived(this.pending.filter((p) => p.late && !answered(p)).length)
  /** An Undo or Make current on its way (the buttons wait for it). */
  correcting = $state(false)

  #gigId: number
  #failureTimer: ReturnType<typeof setTimeout> | undefined

  constructor (gigId: number) {
    this.#gigId = gigId
    this.feed = new LiveFeed(gigId)
  }

  #stopped = false
  #online = () => {
    this.#flush().catch(() => {})
  }

  start (first?: Promise<FirstView | null>): void {
    this.feed.start(first)
    void this.#restore()
    globalThis.addEventListener?.('online', this.#online)
  }

  stop (): void {
    this.#stopped = true
    this.feed.stop()
    clearTimeout(this.#failureTimer)
    clearTimeout(this.#retry)
    globalThis.removeEventListener?.('online', this.#online)
  }

  dismiss (): void {
    this.failure = null
  }

  /** Marks a tap late when the server has not answered it within LATE_MS. */
  #watch (key: number): void {
    setTimeout(() => {
      this.pending = this.pending.map((p) =>
        p.key === key && !answered(p) ? { ...p, late: true } : p
      )
    }, LATE_MS)
  }

  /**
   * What this phone knows last, for its offline copy: the server's view with this phone's
   * answered taps (their views may still be on the way); null while the view shown is the pack's.
   * Taps not answered yet are not in it: the outbox keeps them, and restores them after a reload.
   */
  lastKnown (): LiveView | null {
    const view = this.feed.view
    if (!view || !this.feed.fresh) return null
    const answeredTaps = this.pending.filter((p) => p.kind === 'tap' && answered(p))
    return answeredTaps.length ? overlay(view, answeredTaps).view : view
  }

  /** The server's view, once the page's own taps are all answered (else their versions clash). */
  #settledVersion (): number | null {
    const view = this.feed.view
    if (!view || this.pending.some((p) => !answered(p))) return null
    return view.version
  }

  /** Undo (the last tap of this gig, whoever made it) or Make current: the server's new view. */
  async correct (
    what: string,
    send: (version: number, key: string) => Promise<LiveView>
  ): Promise<void> {
    const version = this.#settledVersion()
    if (version === null || this.correcting) return
    this.correcting = true
    try {
      this.feed.show(await send(version, idempotencyKey()))
      this.dismiss()
    } catch (error) {
      this.#report(++keys, what, error)
    } finally {
      this.correcting = false
    }
  }

  undo (what: string): Promise<void> {
    return this.correct(what, (version, key) =>
      call(
        api.POST('/gigs_lm/{id}/undo', {
          params: { path: { id: this.#gigId } },
          body: { version, idempotencyKey: key }
        })
      )
    )
  }

  makeCurrent (entry: LiveEntry, what: string): Promise<void> {
    return this.correct(`${what}: ${entry.title}`, (version, key) =>
      call(
        api.POST('/gigs_lm/{id}/current', {
          params: { path: { id: this.#gigId } },
          body: { entryId: entry.id, version, idempotencyKey: key }
        })
      )
    )
  }

  /** The version a new tap is made on: the server's, plus this phone's taps not in it yet. */
  #madeOn (): number {
    const view = this.feed.view
    if (!view) return 0
    return view.version + this.pending.filter((p) => !isIn(view, p)).length
  }

  #queue (pending: Pending): void {
    this.pending = [...this.#stillPending(), pending]
    this.#watch(pending.key)
    void enqueue(pending.out).finally(() => this.#flush())
  }

  /**
   * Played, Skip, a rating: shown at once, queued in the outbox, sent in order. The tap names the
   * entry's song: should a save give the entry another song before it is sent, the server
   * refuses it (409) rather than mark the new song.
   */
  tap (entry: LiveEntry, change: Patch, what: string): void {
    const patch: Patch = { ...change, songId: entry.songId }
    const key = ++keys
    const out: Queued = {
      kind: 'tap',
      entryId: entry.id,
      patch,
      ...this.#stamp(`${what}: ${entry.title}`)
    }
    this.#queue({ kind: 'tap', key, entryId: entry.id, patch, out })
  }

  /** An unplanned song after the current one: queued like a tap (true once it is queued). */
  insert (song: SongListItem, what: string): boolean {
    const state = this.state
    if (!state) return false
    const sets = state.view.sets
    const setId = state.current?.setId ?? sets.at(-1)?.id
    if (setId === undefined) return false
    const afterEntryId = state.current?.id
    const out: Queued = {
      kind: 'insert',
      setId,
      afterEntryId,
      song,
      ...this.#stamp(`${what}: ${song.title}`)
    }
    this.#queue({ kind: 'insert', key: ++keys, setId, afterEntryId, song, out })
    return true
  }

  #stamp (what: string) {
    return {
      id: idempotencyKey(),
      gigId: this.#gigId,
      seq: Date.now() * 1000 + (keys % 1000),
      madeOn: this.#madeOn(),
      what
    }
  }

  /** Taps left in the outbox by an earlier visit (a reload offline): pending, then sent. */
  async #restore (): Promise<void> {
    const restored = (await queued(this.#gigId)).map((out) => fromOutbox(out, ++keys))
    if (restored.length === 0) return
    this.pending = withRestored(this.pending, restored)
    void this.#flush()
  }

  #flushing: Promise<void> = Promise.resolve()
  #sending = false
  #retry: ReturnType<typeof setTimeout> | undefined

  /** Sends the unanswered taps one by one, oldest first; stops at the first unreachable one. */
  #flush (): Promise<void> {
    if (this.#sending) return this.#flushing
    clearTimeout(this.#retry)
    // The browser knows it has no network (airplane mode, no Wi-Fi): nothing is tried until its
    // `online` event (or the retry). A page reloaded offline would otherwise send at once, and a
    // request that slips out while the network comes and goes is not the member's intent.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.#retry = setTimeout(this.#online, RETRY_MS)
      return this.#flushing
    }
    this.#sending = true
    this.#flushing = (async () => {
      try {
        for (;;) {
          const next = this.pending.find((p) => !answered(p))
          if (!next || this.#stopped) return
          if (!(await this.#send(next))) {
            this.#retry = setTimeout(this.#online, RETRY_MS)
            return
          }
        }
      } finally {
        this.#sending = false
      }
    })()
    return this.#flushing
  }

  /** One queued tap: false when the server could not be reached (it stays queued). */
  async #send (p: Pending): Promise<boolean> {
    const out = p.out
    try {
      if (p.kind === 'tap') {
        const result = await call(
          api.PUT('/gigs_lm/{id}/', {
            params: { path: { id: this.#gigId } },
            body: { entryId: p.entryId, ...p.patch, version: out.madeOn, idempotencyKey: out.id }
          })
        )
        this.#answer(p.key, { version: result.version })
        if ((this.feed.view?.version ?? 0) < result.version) this.feed.refresh()
      } else {
        const { data, response } = await api.POST('/gigs_lm/{id}/insert', {
          params: { path: { id: this.#gigId } },
          body: {
            songId: p.song.id,
            setId: p.setId,
            ...(p.afterEntryId ? { afterEntryId: p.afterEntryId } : {}),
            version: out.madeOn,
            idempotencyKey: out.id
          }
        }).catch((error: unknown) => {
          throw new ApiFailure(0, 'NETWORK', String(error))
        })
        if (!response.ok || !data) throw await failureOf(response)
        // 201: the new entry; 200: a replay, answered with the live view that has it.
        const entryId = 'id' in data ? data.id : insertedIn(data, p)
        // Replayed, but undone since: nothing of it is left to wait for.
        if (entryId === undefined) this.pending = this.pending.filter((q) => q.key !== p.key)
        else this.#answer(p.key, { entryId })
        this.feed.refresh()
      }
      this.dismiss()
      await settle(out.id)
      return true
    } catch (error) {
      if (unreachable(error)) {
        this.pending = this.pending.map((q) => (q.key === p.key ? { ...q, late: true } : q))
        return false
      }
      // Refused (409 stale: another editor changed it first; their state stands): dropped.
      await settle(out.id)
      this.#refused(p.key, out.what, error)
      return true
    }
  }

  #answer (key: number, answer: { version?: number; entryId?: number }): void {
    this.pending = this.pending.map((p) => (p.key === key ? { ...p, ...answer } : p))
  }

  #refused (key: number, what: string, error: unknown) {
    this.pending = this.pending.filter((p) => p.key !== key)
    this.#report(key, what, error)
  }

  #report (key: number, what: string, error: unknown) {
    this.failure = { key, what, message: explainError(error).message }
    clearTimeout(this.#failureTimer)
    this.#failureTimer = setTimeout(() => {
      if (this.failure?.key === key) this.failure = null
    }, FAILURE_MS)
  }

  /** Drops what the server's view already contains (keeps the list short on a long night). */
  #stillPending (): Pending[] {
    const view = this.feed.view
    return view ? this.pending.filter((p) => !isIn(view, p)) : this.pending
  }
}

/**
 * No answer from the server (offline, a proxy without it): the tap stays queued. A 503 is the
 * server's own answer (e.g. its storage failed): refused and said, like any other refusal.
 */
function unreachable (error: unknown): boolean {
  return error instanceof ApiFailure && [0, 502, 504].includes(error.status)
}

/** The entry a replayed insert made: the last inserted one of that song in its set. */
function insertedIn (view: LiveView, p: PendingInsert): number | undefined {
  const set = view.sets.find((s) => s.id === p.setId)
  return set?.entries.findLast((e) => e.inserted && e.songId === p.song.id)?.id
}
