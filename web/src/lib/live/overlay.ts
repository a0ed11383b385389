import type { LiveEntry, LiveUpdate, LiveView, SongListItem } from '$lib/api/types'
import type { Queued } from './outbox'

// This phone's taps laid over the server's live view until the server's view contains them: pure
// functions of the view and the taps, so that the page and its tests see the same thing.

export type Patch = Omit<LiveUpdate, 'entryId'>

/** A tap on its way: shown at once, dropped once the server's view includes it (or refused). */
export interface PendingTap {
  kind: 'tap'
  key: number
  /** Not answered within LATE_MS: shown as pending, not as done. */
  late?: boolean
  entryId: number
  patch: Patch
  /** The live version the server answered with; the tap is in every view from that one. */
  version?: number
  /** Its record in the outbox (IndexedDB) until the server answered. */
  out: Queued
}
export interface PendingInsert {
  kind: 'insert'
  key: number
  late?: boolean
  setId: number
  afterEntryId: number | undefined
  song: SongListItem
  /** The new entry's id, once the server made it. */
  entryId?: number
  out: Queued
}
export type Pending = PendingTap | PendingInsert

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

/** The server answered the request (its effect may still be on its way to the view). */
export function answered (pending: Pending): boolean {
  return pending.kind === 'tap' ? pending.version !== undefined : pending.entryId !== undefined
}

/** The server's view already shows the tap. */
export function isIn (view: LiveView, pending: Pending): boolean {
  if (pending.kind === 'tap') {
    return pending.version !== undefined && view.version >= pending.version
  }
  return (
    pending.entryId !== undefined &&
    view.sets.some((set) => set.entries.some((entry) => entry.id === pending.entryId))
  )
}

/** A record the outbox kept from an earlier visit (a reload offline), pending again as `key`. */
export function fromOutbox (out: Queued, key: number): Pending {
  return out.kind === 'tap'
    ? { kind: 'tap', key, late: true, entryId: out.entryId, patch: out.patch, out }
    : {
        kind: 'insert',
        key,
        late: true,
        setId: out.setId,
        afterEntryId: out.afterEntryId,
        song: out.song,
        out
      }
}

/**
 * The outbox's records ahead of the taps pending already, each once: a record is known by its
 * idempotency key, so reading the outbox again adds nothing.
 */
export function withRestored (pending: Pending[], restored: Pending[]): Pending[] {
  if (restored.length === 0) return pending
  const known = new Set(pending.map((p) => p.out.id))
  return [...restored.filter((p) => !known.has(p.out.id)), ...pending]
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
          title: p.song.title,
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
