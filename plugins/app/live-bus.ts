import fp from 'fastify-plugin'
import type { SetlistEntryType } from '#schemas/setlists.js'

/** What happened to a gig's live view. */
export type LiveEvent =
  | { type: 'entry'; version: number; entry: SetlistEntryType }
  /** Setlist saved, song inserted or gig changed: followers need a fresh snapshot. */
  | { type: 'changed'; version?: number }
  | { type: 'deleted' }

export type LiveListener = (event: LiveEvent) => void

/**
 * In-process pub/sub per gig. One process serves the band (SQLite, one connection), so no broker is
 * needed; listeners are called synchronously after the write committed and receive the same event
 * object.
 */
export class LiveBus {
  private readonly listeners = new Map<number, Set<LiveListener>>()

  subscribe (gigId: number, listener: LiveListener): () => void {
    let set = this.listeners.get(gigId)
    if (!set) {
      set = new Set()
      this.listeners.set(gigId, set)
    }
    set.add(listener)
    return () => {
      set.delete(listener)
      if (set.size === 0 && this.listeners.get(gigId) === set) this.listeners.delete(gigId)
    }
  }

  publish (gigId: number, event: LiveEvent): void {
    const set = this.listeners.get(gigId)
    if (!set) return
    for (const listener of [...set]) listener(event)
  }

  listenerCount (gigId?: number): number {
    if (gigId !== undefined) return this.listeners.get(gigId)?.size ?? 0
    let n = 0
    for (const set of this.listeners.values()) n += set.size
    return n
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    liveBus: LiveBus
  }
}

export default fp(
  async (app) => {
    app.decorate('liveBus', new LiveBus())
  },
  { name: 'live-bus', fastify: '5.x' }
)
