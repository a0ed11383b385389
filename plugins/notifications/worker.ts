import { createHash } from 'node:crypto'
import type { Db } from '#src/db/client.js'
import type { Clock } from '#src/clock.js'
import type { MailOutboxRow } from '#src/db/schema.js'
import { isTemporary, type PooledTransport } from './transport.js'
import {
  claimDueMails,
  markAttemptFailed,
  markSent,
  nextDueAt,
  requeueInterrupted
} from './outbox.js'

// Sends the outbox in the server's own process: woken when mails are queued, and by a timer for
// retries. Requests never wait for it.

export const OUTBOX_LIMITS = {
  /** Mails taken per round (the pool sends them one after another on its connection). */
  batch: 50,
  /** Attempts before a mail is given up and listed for the admins. */
  attempts: 8,
  /** The first retry's delay; each further one doubles it, up to `maxDelayMs`. */
  firstDelayMs: 60_000,
  maxDelayMs: 6 * 3600_000,
  /** How often the timer looks for due retries (and the watcher's other writers). */
  pollMs: 30_000
} as const

/** The delay before attempt `attempts + 1`: 1, 2, 4, … minutes, at most 6 hours. */
export const retryDelayMs = (attempts: number) =>
  Math.min(OUTBOX_LIMITS.firstDelayMs * 2 ** (attempts - 1), OUTBOX_LIMITS.maxDelayMs)

export interface WorkerLog {
  warn(obj: object, message: string): void
}

export class OutboxWorker {
  private running: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | undefined
  private closed = false
  readonly stats = { sent: 0, failed: 0, retried: 0 }

  constructor (
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transport: PooledTransport,
    private readonly messageDomain: string,
    private readonly log: WorkerLog,
    /** Whether the database is still open (a send may end after the server closed it). */
    private readonly isOpen: () => boolean
  ) {}

  /** Requeues what a previous process left half-sent and starts the timer. */
  start (): void {
    // A database that refuses writes at start (full disk, read-only) must not stop the server:
    // /health reports it, and the next start puts the interrupted mails back.
    try {
      requeueInterrupted(this.db)
    } catch (err) {
      this.log.warn({ err }, 'interrupted mails not requeued')
    }
    this.timer = setInterval(() => this.kick(), OUTBOX_LIMITS.pollMs).unref()
    this.kick()
  }

  /** Sends what is due now; a call during a round makes one more round after it. */
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
      // Awaited even when nothing is due: a kick during this turn is seen by the check below.
      try {
        await this.round()
      } catch (err) {
        // The database refused a write (full, read-only): /health says so; the timer tries again.
        this.log.warn({ err }, 'mail outbox round failed')
        return
      }
    } while (this.again && !this.closed)
  }

  private async round (): Promise<void> {
    for (;;) {
      if (this.closed) return
      const rows = claimDueMails(this.db, this.clock(), OUTBOX_LIMITS.batch)
      if (rows.length === 0) return
      await Promise.all(rows.map((row) => this.sendOne(row)))
    }
  }

  private async sendOne (row: MailOutboxRow): Promise<void> {
    try {
      await this.transport.send({
        to: row.toAddress,
        subject: row.subject,
        ...row.body,
        messageId: this.messageId(row.idemKey)
      })
      if (!this.isOpen()) return
      markSent(this.db, row.id, this.clock())
      this.stats.sent++
    } catch (error) {
      // Aborted by the shutdown: still `sending`, so the next start sends it.
      if (this.closed) return
      const reason = error instanceof Error ? error.message : String(error)
      const retry = isTemporary(error) && row.attempts < OUTBOX_LIMITS.attempts
      const retryAt = retry ? new Date(this.clock().getTime() + retryDelayMs(row.attempts)) : null
      markAttemptFailed(this.db, row.id, reason, retryAt)
      if (retry) this.stats.retried++
      else {
        this.stats.failed++
        this.log.warn({ mailId: row.id, reason }, 'member mail given up')
      }
    }
  }

  /** The same mail always has the same Message-ID: a resend after a crash is recognisable. */
  private messageId (idemKey: string): string {
    const hash = createHash('sha256').update(idemKey).digest('hex').slice(0, 32)
    return `<${hash}@${this.messageDomain}>`
  }

  /** When the next queued mail is due (tests and the admin list). */
  nextDue (): string | null {
    return nextDueAt(this.db)
  }

  close (): void {
    this.closed = true
    clearInterval(this.timer)
    this.transport.close()
  }
}
