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
import { OutboxLoop, retryAt, type WorkerLog } from './outbox-loop.js'

/** Sends the mail outbox by SMTP, one pooled connection. */
export class OutboxWorker extends OutboxLoop<MailOutboxRow> {
  readonly stats = { sent: 0, failed: 0, retried: 0 }

  constructor (
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transport: PooledTransport,
    private readonly messageDomain: string,
    log: WorkerLog,
    isOpen: () => boolean
  ) {
    super(log, isOpen, 'mail')
  }

  protected requeueInterrupted (): void {
    requeueInterrupted(this.db)
  }

  protected claimDue (batch: number): MailOutboxRow[] {
    return claimDueMails(this.db, this.clock(), batch)
  }

  protected async sendOne (row: MailOutboxRow): Promise<void> {
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
      const again = retryAt(this.clock, row.attempts, isTemporary(error))
      markAttemptFailed(this.db, row.id, reason, again)
      if (again) this.stats.retried++
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

  override close (): void {
    super.close()
    this.transport.close()
  }
}
