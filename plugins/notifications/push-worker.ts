import { createRequire } from 'node:module'
import type WebPush from 'web-push'
import type { Db } from '#src/db/client.js'
import type { Clock } from '#src/clock.js'
import { OutboxLoop, retryAt, type WorkerLog } from './outbox-loop.js'
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
  /** How long a push service keeps a message for a phone that is off: a day-old notice is stale. */
  ttlSeconds: 2 * 86_400,
  timeoutMs: 10_000
} as const

/** An answer of the push service: 404/410 mean the subscription is gone for good. */
const GONE = new Set([404, 410])
const temporary = (status: number) => status === 429 || status >= 500

export class PushWorker extends OutboxLoop<ClaimedPush> {
  private webpush: typeof WebPush | undefined
  readonly stats = { sent: 0, failed: 0, retried: 0, removed: 0 }

  constructor (
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly vapid: VapidKeys & { subject: string },
    log: WorkerLog,
    isOpen: () => boolean
  ) {
    super(log, isOpen, 'push')
  }

  protected requeueInterrupted (): void {
    requeueInterruptedPushes(this.db)
  }

  protected claimDue (batch: number): ClaimedPush[] {
    return claimDuePushes(this.db, this.clock(), batch)
  }

  protected async sendOne (row: ClaimedPush): Promise<void> {
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
      const again = retryAt(this.clock, row.attempts, status === 0 || temporary(status))
      markPushFailed(this.db, row.id, reason, again)
      if (again) this.stats.retried++
      else {
        this.stats.failed++
        this.log.warn({ pushId: row.id, reason }, 'push notification given up')
      }
    }
  }
}
