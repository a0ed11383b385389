import type { ServerResponse } from 'node:http'

/** The live view as an SSE `snapshot` frame: built once, written to every follower as is. */
export interface LiveSnapshot {
  /** The opaque part of the view's ETag: the SSE event id. */
  tag: string
  frame: Buffer
}

export interface FollowerLimits {
  /** Streams one session may hold; a new one beyond it ends the session's oldest. */
  perSession: number
  /** Streams one user may hold across sessions; a new one beyond it ends the user's oldest. */
  perUser: number
  /** Streams the server holds; beyond it a new stream is refused (429). */
  total: number
  /**
   * A stream that stopped reading is sent nothing more (write() back-pressure); once what it would
   * have been sent and what Node still holds for it pass this many bytes, it is closed.
   */
  slowReaderBytes: number
  /** A comment line this often keeps proxies and phones from dropping an idle stream. */
  heartbeatMs: number
}

export interface FollowerEnvironment {
  /** The live view at the current database revision (undefined: the gig is gone). */
  snapshot(gigId: number): LiveSnapshot | undefined
  isSessionLive(userId: number, sessionId: number): boolean
  /** Subscribes to database changes while anyone follows. */
  onDatabaseChange(listener: () => void): () => void
  now(): number
}

/**
 * Logout and deactivation must reach open streams too; one indexed lookup per session and second at
 * most.
 */
const SESSION_CHECK_MS = 1_000
const HEARTBEAT = Buffer.from(': heartbeat\n\n')
const RETRY = Buffer.from('retry: 3000\n\n')
const endFrame = (reason: string) =>
  Buffer.from(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`)
const SESSION_ENDED = endFrame('session ended')
const REPLACED = endFrame('replaced')

interface Group {
  current: LiveSnapshot
  followers: Set<Follower>
}

/** One open event stream. */
class Follower {
  /** Tag of the last snapshot queued on this stream. */
  lastTag: string | undefined
  checkedAt: number
  ended = false
  /** write() said the reader is behind; nothing more is queued until it drains. */
  congested = false
  private withheld = 0

  constructor (
    readonly raw: ServerResponse,
    readonly userId: number,
    readonly sessionId: number,
    readonly gigId: number,
    private readonly owner: LiveFollowers
  ) {
    this.checkedAt = owner.env.now()
    raw.on('close', () => this.closed())
  }

  /** Queues a frame unless the reader is behind; a reader too far behind is closed. */
  write (frame: Buffer, tag?: string): void {
    if (this.ended) return
    if (this.congested) {
      this.withheld += frame.length
      if (this.withheld + this.raw.writableLength > this.owner.limits.slowReaderBytes) {
        this.raw.destroy()
        this.closed()
      }
      return
    }
    if (tag !== undefined) this.lastTag = tag
    const accepted = this.raw.write(frame)
    this.owner.peakBufferedBytes = Math.max(this.owner.peakBufferedBytes, this.raw.writableLength)
    if (!accepted) {
      this.congested = true
      this.raw.once('drain', () => {
        this.congested = false
        this.withheld = 0
        // Snapshots are complete: the newest one is all a stream that fell behind needs.
        const current = this.owner.current(this.gigId)
        if (current && current.tag !== this.lastTag) this.write(current.frame, current.tag)
      })
    }
  }

  /** Sends a last frame and closes (at once when the reader is behind). */
  end (frame?: Buffer): void {
    if (this.ended) return
    if (this.congested) this.raw.destroy()
    else if (frame) this.raw.end(frame)
    else this.raw.end()
    this.closed()
  }

  private closed (): void {
    if (this.ended) return
    this.ended = true
    this.owner.remove(this)
  }
}

/**
 * The followers of every gig's live view: caps per session, user and server; one frame, built once,
 * written to every stream of a gig (a shared Buffer: 200 streams do not make 200 copies); a stream
 * that does not read gets nothing more queued and is closed once it is too far behind.
 */
export class LiveFollowers {
  /** The most bytes Node held for one stream at once (what the slow-reader rule bounds). */
  peakBufferedBytes = 0
  private readonly all = new Set<Follower>()
  private readonly groups = new Map<number, Group>()
  private heartbeat: NodeJS.Timeout | undefined
  private unsubscribe: (() => void) | undefined

  constructor (
    readonly limits: FollowerLimits,
    readonly env: FollowerEnvironment
  ) {}

  count (gigId?: number): number {
    return gigId === undefined ? this.all.size : (this.groups.get(gigId)?.followers.size ?? 0)
  }

  /** Streams whose reader is behind (nothing is queued for them until they drain). */
  behind (): number {
    let n = 0
    for (const follower of this.all) if (follower.congested) n++
    return n
  }

  current (gigId: number): LiveSnapshot | undefined {
    return this.groups.get(gigId)?.current
  }

  /**
   * Room for one more stream of this session: the oldest stream of the session, then of the user,
   * ends when either is at its cap (a reloaded page or a phone that changed networks leaves a
   * stream behind that may not lock it out). False when the server is full.
   */
  makeRoom (userId: number, sessionId: number): boolean {
    const streams = [...this.all]
    const ofSession = streams.filter((f) => f.sessionId === sessionId)
    if (ofSession.length >= this.limits.perSession) ofSession[0]!.end(REPLACED)
    const ofUser = streams.filter((f) => f.userId === userId && !f.ended)
    if (ofUser.length >= this.limits.perUser) ofUser[0]!.end(REPLACED)
    return this.all.size < this.limits.total
  }

  /**
   * Starts following: `retry`, then the snapshot unless the client's Last-Event-ID names it
   * already.
   */
  add (
    raw: ServerResponse,
    who: { userId: number; sessionId: number; gigId: number },
    snapshot: LiveSnapshot,
    lastEventId: string | undefined
  ): void {
    const follower = new Follower(raw, who.userId, who.sessionId, who.gigId, this)
    if (this.all.size === 0) this.start()
    this.all.add(follower)
    let group = this.groups.get(who.gigId)
    if (!group) {
      group = { current: snapshot, followers: new Set() }
      this.groups.set(who.gigId, group)
    }
    group.followers.add(follower)
    follower.write(RETRY)
    if (lastEventId === snapshot.tag) follower.lastTag = snapshot.tag
    else follower.write(snapshot.frame, snapshot.tag)
    // The stream saw a newer view than its gig's other followers were sent: tell them too.
    if (group.current.tag !== snapshot.tag) this.refresh()
  }

  remove (follower: Follower): void {
    this.all.delete(follower)
    const group = this.groups.get(follower.gigId)
    group?.followers.delete(follower)
    if (group?.followers.size === 0) this.groups.delete(follower.gigId)
    if (this.all.size === 0) this.stop()
  }

  /** After a database change: every followed view again; changed ones go to their followers. */
  refresh (): void {
    const sessionLive = this.sessionCheck()
    for (const [gigId, group] of [...this.groups]) {
      const snapshot = this.env.snapshot(gigId)
      if (!snapshot) {
        const deleted = Buffer.from(`event: deleted\ndata: ${JSON.stringify({ gigId })}\n\n`)
        for (const follower of [...group.followers]) follower.end(deleted)
        continue
      }
      if (snapshot.tag === group.current.tag) continue
      group.current = snapshot
      for (const follower of [...group.followers]) {
        if (follower.lastTag === snapshot.tag) continue
        if (sessionLive(follower)) follower.write(snapshot.frame, snapshot.tag)
      }
    }
  }

  endAll (): void {
    for (const follower of [...this.all]) follower.end()
  }

  /**
   * Is the stream's session still live? Checked at most once a second per stream and once per
   * session within one round; a dead session's stream is ended with `end`.
   */
  private sessionCheck (): (follower: Follower) => boolean {
    const now = this.env.now()
    const known = new Map<number, boolean>()
    return (follower) => {
      if (now >= follower.checkedAt && now - follower.checkedAt < SESSION_CHECK_MS) return true
      follower.checkedAt = now
      let live = known.get(follower.sessionId)
      if (live === undefined) {
        live = this.env.isSessionLive(follower.userId, follower.sessionId)
        known.set(follower.sessionId, live)
      }
      if (!live) follower.end(SESSION_ENDED)
      return live
    }
  }

  private start (): void {
    this.unsubscribe = this.env.onDatabaseChange(() => this.refresh())
    this.heartbeat = setInterval(() => {
      const sessionLive = this.sessionCheck()
      for (const follower of [...this.all]) {
        if (sessionLive(follower)) follower.write(HEARTBEAT)
      }
    }, this.limits.heartbeatMs)
    this.heartbeat.unref()
  }

  private stop (): void {
    this.unsubscribe?.()
    this.unsubscribe = undefined
    clearInterval(this.heartbeat)
    this.heartbeat = undefined
  }
}
