import { api, call } from '$lib/api/client'
import type { LiveEntry, LiveUpdate, LiveView, SongListItem } from '$lib/api/types'
import { explainError } from '$lib/errors'
import { LiveFeed, type FirstView } from './live-feed.svelte'

type Patch = Omit<LiveUpdate, 'entryId'>

/** A tap on its way: shown at once, dropped once the server's view includes it (or refused). */
interface PendingTap {
  kind: 'tap'
  key: number
  /** Not answered within LATE_MS: shown as pending, not as done. */
  late?: boolean
  entryId: number
  patch: Patch
  /** The live version the server answered with; the tap is in every view from that one. */
  version?: number
}
interface PendingInsert {
  kind: 'insert'
  key: number
  late?: boolean
  setId: number
  afterEntryId: number | undefined
  song: SongListItem
  /** The new entry's id, once the server made it. */
  entryId?: number
}
type Pending = PendingTap | PendingInsert

export interface Failure {
  key: number
  /** What was tapped, e.g. "Played: Proud Mary". */
  what: string
  message: string
}

/** The entries in show order, with what the page shows about them. */
export interface ShowState {
  view: LiveView
  current: LiveEntry | null
  next: LiveEntry | null
  /** The song played last (the rating buttons rate it). */
  previous: LiveEntry | null
  /** Entries this phone changed whose change the server has not confirmed yet. */
  unconfirmed: number[]
}

let keys = 0

/** A tap the server has not answered after this long is shown as pending (a stalled network). */
export const LATE_MS = 5_000
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

  start (first?: Promise<FirstView | null>): void {
    this.feed.start(first)
  }

  stop (): void {
    this.feed.stop()
    clearTimeout(this.#failureTimer)
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
    return this.correct(`${what}: ${entry.song.title}`, (version, key) =>
      call(
        api.POST('/gigs_lm/{id}/current', {
          params: { path: { id: this.#gigId } },
          body: { entryId: entry.id, version, idempotencyKey: key }
        })
      )
    )
  }

  async tap (entry: LiveEntry, patch: Patch, what: string): Promise<void> {
    const tap: PendingTap = { kind: 'tap', key: ++keys, entryId: entry.id, patch }
    this.pending = [...this.#stillPending(), tap]
    this.#watch(tap.key)
    try {
      const result = await call(
        api.PUT('/gigs_lm/{id}/', {
          params: { path: { id: this.#gigId } },
          body: { entryId: entry.id, ...patch }
        })
      )
      this.pending = this.pending.map((p) =>
        p.key === tap.key ? { ...tap, version: result.version } : p
      )
      this.dismiss()
      if ((this.feed.view?.version ?? 0) < result.version) this.feed.refresh()
    } catch (error) {
      this.#refused(tap.key, `${what}: ${entry.song.title}`, error)
    }
  }

  async insert (song: SongListItem, what: string): Promise<boolean> {
    const state = this.state
    if (!state) return false
    const sets = state.view.sets
    const setId = state.current?.setId ?? sets.at(-1)?.id
    if (setId === undefined) return false
    const afterEntryId = state.current?.id
    const pending: PendingInsert = { kind: 'insert', key: ++keys, setId, afterEntryId, song }
    this.pending = [...this.#stillPending(), pending]
    this.#watch(pending.key)
    try {
      const entry = await call(
        api.POST('/gigs_lm/{id}/insert', {
          params: { path: { id: this.#gigId } },
          body: { songId: song.id, setId, ...(afterEntryId ? { afterEntryId } : {}) }
        })
      )
      this.pending = this.pending.map((p) =>
        p.key === pending.key ? { ...pending, entryId: entry.id } : p
      )
      this.feed.refresh()
      return true
    } catch (error) {
      this.#refused(pending.key, `${what}: ${song.title}`, error)
      return false
    }
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

/** The server answered the request (its effect may still be on its way to the view). */
function answered (pending: Pending): boolean {
  return pending.kind === 'tap' ? pending.version !== undefined : pending.entryId !== undefined
}

function isIn (view: LiveView, pending: Pending): boolean {
  if (pending.kind === 'tap') {
    return pending.version !== undefined && view.version >= pending.version
  }
  return (
    pending.entryId !== undefined &&
    view.sets.some((set) => set.entries.some((entry) => entry.id === pending.entryId))
  )
}

/** The server's view with the taps still on their way applied, and what follows from it. */
export function overlay (view: LiveView, pending: Pending[]): ShowState {
  const unconfirmed: number[] = []
  const open = pending.filter((p) => !isIn(view, p))
  const sets = view.sets.map((set) => {
    let entries = set.entries
    for (const p of open) {
      if (p.kind === 'insert' && p.setId === set.id) {
        // After the entry it follows; at the end of the set without one.
        const after = entries.findIndex((e) => e.id === p.afterEntryId)
        const at = after < 0 ? entries.length : after + 1
        const entry: LiveEntry = {
          id: -p.key,
          setId: set.id,
          songId: p.song.id,
          song: p.song,
          notes: null,
          transpose: 0,
          capo: null,
          plannedStart: entries[at - 1]?.plannedStart ?? set.start,
          durationSeconds: p.song.durationSeconds ?? 0,
          customDurationSeconds: null,
          status: 'planned',
          inserted: true,
          rating: null
        }
        entries = [...entries.slice(0, at), entry, ...entries.slice(at)]
        unconfirmed.push(entry.id)
      }
    }
    entries = entries.map((entry) => {
      let changed = entry
      for (const p of open) {
        if (p.kind !== 'tap' || p.entryId !== entry.id) continue
        changed = { ...changed, ...p.patch }
        if (p.patch.status === 'skipped') changed.rating = null
        unconfirmed.push(entry.id)
      }
      return changed
    })
    return { ...set, entries }
  })
  const all = sets.flatMap((set) => set.entries)
  const at = all.findIndex((entry) => entry.status === 'planned')
  const current = at < 0 ? null : all[at]!
  const next = at < 0 ? null : (all.slice(at + 1).find((e) => e.status === 'planned') ?? null)
  const before = at < 0 ? all : all.slice(0, at)
  const previous = before.findLast((entry) => entry.status === 'played') ?? null
  return { view: { ...view, sets, current }, current, next, previous, unconfirmed }
}
