import type { Clock } from '#src/clock.js'

// The loop both outboxes (mail, push) send by, in the server's own process: woken when messages
// are queued and by a timer for retries. Requests never wait for it.

export const OUTBOX_LIMITS = {
  /** Messages taken per round (sent side by side, then the next round). */
  batch: 50,
  /** Attempts before a message is given up and listed for the admins. */
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

/** When a failed attempt is tried again, or null when it is given up. */
export const retryAt = (clock: Clock, attempts: number, temporary: boolean): Date | null =>
  temporary && attempts < OUTBOX_LIMITS.attempts
    ? new Date(clock().getTime() + retryDelayMs(attempts))
    : null

export interface WorkerLog {
  warn(obj: object, message: string): void
}

/** What one outbox (mail, push) adds to the loop: its rows, how to claim and send them. */
export abstract class OutboxLoop<Row> {
  private running: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | undefined
  protected closed = false

  constructor (
    protected readonly log: WorkerLog,
    /** Whether the database is still open (a send may end after the server closed it). */
    protected readonly isOpen: () => boolean,
    /** What the log calls these messages ("mail", "push"). */
    private readonly kind: string
  ) {}

  /** Puts back what a previous process left half-sent. */
  protected abstract requeueInterrupted (): void
  /** Marks up to `batch` due messages as being sent and returns them. */
  protected abstract claimDue (batch: number): Row[]
  /** Sends one message and records how it went; never throws for a failed send. */
  protected abstract sendOne (row: Row): Promise<void>

  /** Requeues what a previous process left half-sent and starts the timer. */
  start (): void {
    // A database that refuses writes at start (full disk, read-only) must not stop the server:
    // /health reports it, and the next start puts the interrupted messages back.
    try {
      this.requeueInterrupted()
    } catch (err) {
      this.log.warn({ err }, `interrupted ${this.kind} messages not requeued`)
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
        this.log.warn({ err }, `${this.kind} outbox round failed`)
        return
      }
    } while (this.again && !this.closed)
  }

  private async round (): Promise<void> {
    for (;;) {
      if (this.closed || !this.isOpen()) return
      const rows = this.claimDue(OUTBOX_LIMITS.batch)
      if (rows.length === 0) return
      await Promise.all(rows.map((row) => this.sendOne(row)))
    }
  }

  close (): void {
    this.closed = true
    clearInterval(this.timer)
  }
}
