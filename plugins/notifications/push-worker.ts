import { createRequire } from 'node:module'
import type WebPush from 'web-push'
import type { Db } from '#src/db/client.js'
import type { Clock } from '#src/clock.js'
import { OUTBOX_LIMITS, retryDelayMs, type WorkerLog } from './worker.js'
import type { VapidKeys } from './push-keys.js'
import {
  claimDuePushes,
  markPushFailed,
  markPushSent,
  removeSubscription,
  requeueInterruptedPushes,
  type ClaimedPush
} from './push-outbox.js'

// Sends the push outbox to the push services (Web Push, RFC 8030), encrypted for each phone
// (RFC 8291, by the web-push library) and signed with the server's VAPID key (RFC 8292). The
// request itself goes out by fetch, so a test's local endpoint may be plain HTTP.

export const PUSH_SEND = {
  /** Pushes taken per round. */
  batch: 50,
  /** How long a push service keeps a message for a phone that is off: a day-old notice is stale. */
  ttlSeconds: 2 * 86_400,
  timeoutMs: 10_000
} as const

/** An answer of the push service: 404/410 mean the subscription is gone for good. */
const GONE = new Set([404, 410])
const temporary = (status: number) => status === 429 || status >= 500

export class PushWorker {
  private running: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private webpush: typeof WebPush | undefined
  readonly stats = { sent: 0, failed: 0, retried: 0, removed: 0 }

  constructor (
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly vapid: VapidKeys & { subject: string },
    private readonly log: WorkerLog,
    private readonly isOpen: () => boolean
  ) {}

  start (): void {
    // A database that refuses writes at start (full disk, read-only) must not stop the server:
    // /health reports it, and the next start puts the interrupted pushes back.
    try {
      requeueInterruptedPushes(this.db)
    } catch (err) {
      this.log.warn({ err }, 'interrupted pushes not requeued')
    }
    this.timer = setInterval(() => this.kick(), OUTBOX_LIMITS.pollMs).unref()
    this.kick()
  }

  /** Sends what is due; a call during a round makes one more round after it. */
  kick (): Promise<void> {
    if (this.closed) return Promise.resolve()
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = this.rounds().finally(() => {
      this.running = null
    })
    return this.running
  }

  /** Resolves when nothing due is left (tests). */
  async idle (): Promise<void> {
    while (this.running) await this.running
  }

  private async rounds (): Promise<void> {
    do {
      this.again = false
      try {
        await this.round()
      } catch (err) {
        // The database refused a write (full, read-only): /health says so; the timer tries again.
        this.log.warn({ err }, 'push outbox round failed')
        return
      }
    } while (this.again && !this.closed)
  }

  private async round (): Promise<void> {
    for (;;) {
      if (this.closed || !this.isOpen()) return
      const rows = claimDuePushes(this.db, this.clock(), PUSH_SEND.batch)
      if (rows.length === 0) return
      await Promise.all(rows.map((row) => this.sendOne(row)))
    }
  }

  private async sendOne (row: ClaimedPush): Promise<void> {
    let status: number
    let reason: string
    try {
      // Loaded with the first push, not at every start.
      this.webpush ??= createRequire(import.meta.url)('web-push') as typeof WebPush
      const request = this.webpush.generateRequestDetails(
        { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
        JSON.stringify(row.payload),
        {
          vapidDetails: this.vapid,
          TTL: PUSH_SEND.ttlSeconds,
          contentEncoding: 'aes128gcm'
        }
      )
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers,
        body: new Uint8Array(request.body),
        signal: AbortSignal.timeout(PUSH_SEND.timeoutMs)
      })
      status = response.status
      reason = `${status} ${(await response.text()).slice(0, 300)}`.trim()
    } catch (error) {
      // No answer at all (refused, timed out): like a 5xx, worth another try.
      status = 0
      reason = error instanceof Error ? error.message : String(error)
    }
    if (this.closed || !this.isOpen()) return
    if (status >= 200 && status < 300) {
      markPushSent(this.db, row.id, this.clock())
      this.stats.sent++
    } else if (GONE.has(status)) {
      removeSubscription(this.db, row.subscriptionId)
      this.stats.removed++
    } else {
      const retry = (status === 0 || temporary(status)) && row.attempts < OUTBOX_LIMITS.attempts
      const retryAt = retry ? new Date(this.clock().getTime() + retryDelayMs(row.attempts)) : null
      markPushFailed(this.db, row.id, reason, retryAt)
      if (retry) this.stats.retried++
      else {
        this.stats.failed++
        this.log.warn({ pushId: row.id, reason }, 'push notification given up')
      }
    }
  }

  close (): void {
    this.closed = true
    clearInterval(this.timer)
  }
}
