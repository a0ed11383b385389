// Notices to the band's chat through an incoming webhook (Mattermost or Slack: `{ "text": … }`).
// Sending never happens on a request's path: `send` only queues. One message at a time leaves the
// queue (notices arrive in order), each attempt has a timeout, failures are retried with
// exponential backoff, and the queue is bounded: a dead webhook costs a little memory, never a
// slow or failed request.

export interface NotifierLog {
  warn(message: string): void
}

export interface WebhookNotifierOptions {
  url: string
  /** Messages waiting at most; further ones are dropped (and counted) while it is full. */
  maxQueue?: number
  /** Per attempt, connecting and answering included. */
  timeoutMs?: number
  /** Attempts per message, the first included. */
  maxAttempts?: number
  /** Wait before attempt n + 1 (n ≥ 1); default 1 s, 2 s, 4 s … capped at 60 s, with jitter. */
  backoffMs?: (attempt: number) => number
  log?: NotifierLog
}

export const WEBHOOK_DEFAULTS = { maxQueue: 100, timeoutMs: 5000, maxAttempts: 5 }
const MAX_BACKOFF_MS = 60_000

const defaultBackoff = (attempt: number) =>
  Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5)

/** Seconds or an HTTP date, as in `Retry-After`; undefined when absent or unreadable. */
function retryAfterMs (header: string | null, now: number): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

type Outcome = { ok: true } | { ok: false; retry: boolean; waitMs?: number; reason: string }

export class WebhookNotifier {
  /** `limited`: refused before the queue by the per-member limit (counted by the caller). */
  readonly stats = { queued: 0, sent: 0, failed: 0, dropped: 0, attempts: 0, limited: 0 }
  private readonly queue: string[] = []
  private readonly options: Required<Omit<WebhookNotifierOptions, 'log'>> & { log?: NotifierLog }
  private running: Promise<void> | undefined
  private closed = false
  /** Aborts the attempt in flight or the backoff wait when closing. */
  private readonly stop = new AbortController()

  constructor (options: WebhookNotifierOptions) {
    this.options = {
      ...WEBHOOK_DEFAULTS,
      backoffMs: defaultBackoff,
      ...options
    }
  }

  /** Queues a message; false when the queue is full (or closed) and it was dropped. */
  send (text: string): boolean {
    if (this.closed || this.queue.length >= this.options.maxQueue) {
      this.stats.dropped++
      if (!this.closed) {
        this.options.log?.warn(
          `chat webhook: queue full (${this.options.maxQueue}), notice dropped ` +
            `(${this.stats.dropped} so far)`
        )
      }
      return false
    }
    this.queue.push(text)
    this.stats.queued++
    this.kick()
    return true
  }

  private kick (): void {
    if (this.running) return
    // Started on a later turn of the event loop: the request that queued it is answered first.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.work())
      .finally(() => {
        this.running = undefined
        // A message queued while the worker was finishing.
        if (this.queue.length > 0 && !this.stop.signal.aborted) this.kick()
      })
  }

  get pending (): number {
    return this.queue.length
  }

  /** Resolves once every queued message was sent or given up (tests, shutdown). */
  async idle (): Promise<void> {
    while (this.running) await this.running
  }

  /**
   * Stops: waits up to `graceMs` for the queue to drain, then abandons the rest (a shutdown must
   * not wait for a dead chat server).
   */
  async close (graceMs = 2000): Promise<void> {
    this.closed = true
    if (this.running) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        this.idle(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs).unref()
        })
      ])
      clearTimeout(timer)
    }
    this.stop.abort()
    await this.idle()
  }

  private async work (): Promise<void> {
    while (this.queue.length > 0 && !this.stop.signal.aborted) {
      const text = this.queue[0]!
      await this.deliver(text)
      this.queue.shift()
    }
  }

  private async deliver (text: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(text)
      if (outcome.ok) {
        this.stats.sent++
        return
      }
      if (!outcome.retry || attempt >= this.options.maxAttempts || this.stop.signal.aborted) {
        this.stats.failed++
        this.options.log?.warn(
          `chat webhook: notice not delivered after ${attempt} attempt(s): ${outcome.reason}`
        )
        return
      }
      const wait = Math.min(
        MAX_BACKOFF_MS,
        Math.max(this.options.backoffMs(attempt), outcome.waitMs ?? 0)
      )
      await this.sleep(wait)
    }
  }

  private async attempt (text: string): Promise<Outcome> {
    this.stats.attempts++
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        redirect: 'error',
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)])
      })
      // The answer's body is of no interest ("ok"); not reading it frees the connection.
      await response.body?.cancel()
      if (response.ok) return { ok: true }
      const retry = response.status === 429 || response.status >= 500
      return {
        ok: false,
        retry,
        waitMs: retryAfterMs(response.headers.get('retry-after'), Date.now()),
        reason: `HTTP ${response.status}`
      }
    } catch (error) {
      // The URL is a secret (it carries the webhook's token): only the kind of failure is logged.
      const name = (error as Error).name
      return {
        ok: false,
        retry: true,
        reason: name === 'TimeoutError' ? 'timeout' : (error as Error).message.slice(0, 100)
      }
    }
  }

  private async sleep (ms: number): Promise<void> {
    if (this.stop.signal.aborted) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      const signal = this.stop.signal
      function done () {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        resolve()
      }
      signal.addEventListener('abort', done)
    })
  }
}
