import { sessionFetch } from '$lib/api/client'
import type { LiveView } from '$lib/api/types'
import { OFFLINE_HEADER } from '$lib/offline/gig-pack'
import { readEventStream, type StreamEvent } from './event-stream'

/**
 * How the page hears about the show: `stream` (Server-Sent Events), `polling` (GET with
 * If-None-Match when the stream is refused or cannot be read), `offline` (neither reaches the
 * server; the last state stays on screen), `gone` (the gig was deleted or the session ended).
 */
export type Channel = 'connecting' | 'stream' | 'polling' | 'reconnecting' | 'offline' | 'gone'

// The server sends a heartbeat every 15 s (plugins/app/live-views.ts): 20 s without a byte means
// the Wi-Fi dropped or the server stalled without the connection noticing (no FIN reaches a phone
// that left the network). The page then says so and polls.
export const SILENCE_MS = 20_000
// A stream or a poll that gets no answer in this long has failed (a stalled server accepts the
// connection and answers nothing).
const ANSWER_MS = 5_000
const POLL_MS = 2_000
// While polling, the stream is tried again now and then (a proxy or a full server may recover).
const STREAM_RETRY_MS = 30_000
// Reconnect quickly (a server restart is back within seconds), never hammer: at most every 2 s.
const BACKOFF_MS = [200, 500, 1_000, 2_000]

const opaque = (etag: string) => etag.replace(/^W\//, '').replace(/^"|"$/g, '')

export interface FirstView {
  view: LiveView
  etag: string | null
  /** Set when the service worker answered from the gig pack (no network): when it was saved. */
  savedAt?: number
}

/** When a pack answer was saved (the service worker's mark), or undefined for a live answer. */
function savedAt (response: Response): number | undefined {
  const mark = response.headers.get(OFFLINE_HEADER)
  const time = mark ? Date.parse(mark) : Number.NaN
  return Number.isFinite(time) ? time : mark ? Date.now() : undefined
}

/**
 * The view fetched while the app is still starting (the page's load function runs before the
 * layout has loaded the configuration and the user): the page can show the song at once.
 */
export async function fetchFirstView (gigId: number): Promise<FirstView | null> {
  try {
    const response = await sessionFetch(
      new Request(`/gigs_lm/${gigId}`, { credentials: 'same-origin', cache: 'no-store' })
    )
    if (!response.ok) return null
    return {
      view: (await response.json()) as LiveView,
      etag: response.headers.get('etag'),
      savedAt: savedAt(response)
    }
  } catch {
    return null
  }
}

/**
 * The live view of one gig as the server last said it, kept current: the event stream with
 * `Last-Event-ID` on every reconnect (the server sends nothing when we are up to date), polling
 * with `If-None-Match` as the fallback. Every snapshot is the whole view, so nothing is lost
 * between reconnects.
 */
export class LiveFeed {
  view = $state<LiveView | null>(null)
  channel = $state<Channel>('connecting')
  /** Why the feed stopped for good (`deleted`, `session`), or an HTTP problem (`missing`). */
  stopped = $state<'deleted' | 'session' | 'missing' | null>(null)
  /** Date.now() of the last answer from the server. */
  lastContact = $state<number | null>(null)
  /** The view shown came from the server (not from the gig pack saved earlier). */
  fresh = $state(false)

  #gigId: number
  #tag: string | undefined
  #abort: AbortController | null = null
  #timer: ReturnType<typeof setTimeout> | undefined
  #failures = 0
  #pollUntil = 0
  #running = false
  #reopenAfterPoll = false
  #onOnline = () => this.#restart()
  #onOffline = () => {
    this.channel = 'offline'
    this.#abort?.abort()
  }

  constructor (gigId: number) {
    this.#gigId = gigId
  }

  /** Follows from now on; `first`, a view fetched earlier, shows unless the stream is quicker. */
  start (first?: Promise<FirstView | null>): void {
    if (this.#running) return
    this.#running = true
    addEventListener('online', this.#onOnline)
    addEventListener('offline', this.#onOffline)
    void first?.then((answer) => {
      if (!answer || this.view) return
      if (answer.savedAt !== undefined) {
        // From the gig pack: the last update is when it was saved, and the server is not there.
        this.lastContact ??= answer.savedAt
        this.channel = 'offline'
        this.view = answer.view
      } else this.#accept(answer.view, answer.etag)
    })
    void this.#follow()
  }

  /** A view the server answered to a correction (Undo, Make current): shown at once. */
  show (view: LiveView): void {
    this.#accept(view, null)
  }

  stop (): void {
    this.#running = false
    removeEventListener('online', this.#onOnline)
    removeEventListener('offline', this.#onOffline)
    clearTimeout(this.#timer)
    this.#abort?.abort()
  }

  /** Asks the server now (after a tap, when the stream may be slower than the answer). */
  refresh (): void {
    if (this.channel !== 'stream') void this.#poll()
  }

  /** The server's tag of the view shown (as an ETag), when it sent one. */
  get etag (): string | null {
    return this.#tag ? `W/"${this.#tag}"` : null
  }

  /** A view newer than the one shown (a tap's answer can overtake the stream). */
  #accept (view: LiveView, etag: string | null): void {
    if (this.view && view.version < this.view.version) return
    this.view = view
    this.fresh = true
    if (etag) this.#tag = opaque(etag)
  }

  #restart () {
    this.#failures = 0
    this.#pollUntil = 0
    this.#reopenAfterPoll = false
    this.#abort?.abort()
    this.#abort = null
    this.#next(0)
  }

  #next (delay: number) {
    clearTimeout(this.#timer)
    if (!this.#running || this.stopped) return
    this.#timer = setTimeout(() => {
      if (Date.now() < this.#pollUntil) void this.#poll().then(() => this.#next(POLL_MS))
      else void this.#follow()
    }, delay)
  }

  #contact () {
    this.lastContact = Date.now()
    this.#failures = 0
  }

  #failed () {
    this.#failures += 1
    // One failed attempt can be the server closing a stream on purpose; two are an outage.
    if (this.#failures > 1 || !this.view) this.channel = 'offline'
    else if (this.channel === 'stream' || this.channel === 'polling') this.channel = 'reconnecting'
    return BACKOFF_MS[Math.min(this.#failures - 1, BACKOFF_MS.length - 1)]!
  }

  async #follow () {
    const abort = new AbortController()
    this.#abort = abort
    let silence: ReturnType<typeof setTimeout> | undefined
    let stalled = false
    const alive = (ms = SILENCE_MS) => {
      clearTimeout(silence)
      silence = setTimeout(() => {
        stalled = true
        abort.abort()
      }, ms)
    }
    try {
      alive(ANSWER_MS)
      const response = await sessionFetch(
        new Request(`/gigs_lm/${this.#gigId}/events`, {
          headers: this.#tag ? { 'last-event-id': this.#tag } : {},
          credentials: 'same-origin',
          cache: 'no-store',
          signal: abort.signal
        })
      )
      const isStream = response.headers.get('content-type')?.startsWith('text/event-stream')
      if (!response.ok || !isStream || !response.body) {
        await response.body?.cancel()
        if (response.status === 401) return this.#end('session')
        if (response.status === 404) return this.#end('missing')
        // Refused (429: the server follows as many streams as it may) or unreadable: poll.
        return this.#fallBack()
      }
      this.#contact()
      // Answered: from now on silence is measured against the heartbeat.
      alive()
      this.channel = 'stream'
      const opened = Date.now()
      let ended: string | null = null
      await readEventStream(
        response.body,
        (event) => {
          ended = this.#handle(event) ?? ended
        },
        () => {
          this.lastContact = Date.now()
          alive()
        }
      )
      if (ended === 'replaced') return this.#fallBack()
      if (ended) return
      // A stream that closes right away (a proxy in the way) must not be reopened in a tight loop.
      this.#next(Date.now() - opened < 1_000 ? this.#failed() : BACKOFF_MS[0]!)
    } catch {
      // Aborted by a restart (back online): the new attempt is already on its way.
      if (!this.#running || this.stopped || this.#abort !== abort) return
      const delay = this.#failed()
      // Silence: poll (each poll with its own deadline) until the server answers again.
      if (stalled) this.#stalled()
      else this.#next(delay)
    } finally {
      clearTimeout(silence)
    }
  }

  /** Handles one event; returns why the server ended the stream, if it did. */
  #handle (event: StreamEvent): string | null {
    if (event.event === 'snapshot') {
      const view = JSON.parse(event.data) as LiveView
      this.view = view
      this.fresh = true
      this.#tag = event.id ?? this.#tag
      return null
    }
    if (event.event === 'deleted') {
      this.#end('deleted')
      return 'deleted'
    }
    if (event.event === 'end') {
      const { reason } = JSON.parse(event.data) as { reason?: unknown }
      if (reason === 'replaced') return 'replaced'
      this.#end('session')
      // The app's own check: a 401 that the silent refresh cannot mend leads to the login page.
      void sessionFetch(new Request('/me', { credentials: 'same-origin' })).catch(() => {})
      return 'session'
    }
    return null
  }

  #fallBack () {
    this.#pollUntil = Date.now() + STREAM_RETRY_MS
    void this.#poll().then(() => this.#next(POLL_MS))
  }

  /** After a silence: polls until an answer comes, then the stream at once. */
  #stalled () {
    this.#pollUntil = Number.POSITIVE_INFINITY
    this.#reopenAfterPoll = true
    void this.#poll().then(() => this.#next(POLL_MS))
  }

  async #poll () {
    try {
      const response = await sessionFetch(
        new Request(`/gigs_lm/${this.#gigId}`, {
          headers: this.#tag ? { 'if-none-match': `W/"${this.#tag}"` } : {},
          credentials: 'same-origin',
          cache: 'no-store',
          signal: AbortSignal.timeout(ANSWER_MS)
        })
      )
      if (response.status === 401) return this.#end('session')
      if (response.status === 404) return this.#end('missing')
      if (response.status !== 304 && !response.ok) throw new Error(`HTTP ${response.status}`)
      // The service worker's copy from the gig pack is no contact with the server.
      if (savedAt(response) !== undefined) throw new Error('offline')
      this.#contact()
      if (this.#reopenAfterPoll) {
        // Back after a silence: the stream again (the next step), polling meanwhile.
        this.#reopenAfterPoll = false
        this.#pollUntil = 0
      }
      if (this.channel !== 'stream') this.channel = 'polling'
      if (response.status === 200) this.#accept(await response.json(), response.headers.get('etag'))
    } catch {
      this.#failed()
    }
  }

  #end (why: 'deleted' | 'session' | 'missing') {
    this.stopped = why
    this.channel = 'gone'
    this.#abort?.abort()
    clearTimeout(this.#timer)
  }
}
