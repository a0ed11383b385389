// Admission of document requests: what runs, what waits, what is refused. A job is the render of
// one document at one database revision; requests for the same key share it. A job only loads its
// data when it starts (a free worker), so a waiting request holds its socket and a closure, never a
// gig. Beyond the queue a request is refused at once, so a flood costs almost nothing.

export interface DocumentQueueLimits {
  /** Jobs running at once: one per worker thread. */
  running: number
  /** Jobs waiting for a free thread; beyond that, refused. */
  waiting: number
  /** Requests of one user in flight (waiting, running or sharing a job); beyond that, refused. */
  perUser: number
}

/**
 * A request that was not admitted: `queue` when the queue is full, `user` when this user already
 * has `perUser` requests in flight. `retryAfterSeconds`: when a place is likely free again. A plain
 * value, not an Error: a flood is refused thousands of times a second, and capturing a stack trace
 * for each was a measurable part of the cost.
 */
export interface Refusal {
  refused: 'queue' | 'user'
  retryAfterSeconds: number
}

/** An admitted request: its result, and `cancel` for a client that went away. */
export interface Admission<T> {
  result: Promise<T>
  /** Frees the place; the result rejects with a CancelledError. */
  cancel(): void
}

export class CancelledError extends Error {
  constructor () {
    super('the client went away')
  }
}

interface Waiter<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

interface Job<T> {
  key: string
  /** Who asked first: the job counts against their share of the threads. */
  owner: number
  run: () => Promise<T>
  waiters: Set<Waiter<T>>
  started: boolean
}

export interface DocumentRequest<T> {
  /** Requests with the same key share one job (kind, gig, options and database revision). */
  key: string
  userId: number
  /** Loads the data and renders; called when a thread is free. */
  run: () => Promise<T>
}

export class DocumentQueue<T> {
  readonly limits: DocumentQueueLimits
  /** Every job not finished yet, by key. */
  readonly #jobs = new Map<string, Job<T>>()
  /** Jobs not started, oldest first (a Set keeps insertion order and deletes in O(1)). */
  readonly #waiting = new Set<Job<T>>()
  readonly #inFlight = new Map<number, number>()
  /** Jobs running per owner. */
  readonly #runningBy = new Map<number, number>()
  #running = 0
  /** Moving average of a job's duration, for Retry-After. */
  #averageMs = 1000

  constructor (limits: DocumentQueueLimits) {
    this.limits = limits
  }

  get stats () {
    return { running: this.#running, waiting: this.#waiting.size, users: this.#inFlight.size }
  }

  /** Seconds until the jobs ahead are likely done (at least 1). */
  #retryAfter (): number {
    const ahead = this.#running + this.#waiting.size
    return Math.max(1, Math.ceil((ahead * this.#averageMs) / this.limits.running / 1000))
  }

  /** Admits the request (a job of its own, or a share of an identical one) or refuses it. */
  submit (request: DocumentRequest<T>): Admission<T> | Refusal {
    const { key, userId } = request
    const inFlight = this.#inFlight.get(userId) ?? 0
    if (inFlight >= this.limits.perUser) {
      return { refused: 'user', retryAfterSeconds: this.#retryAfter() }
    }
    let job = this.#jobs.get(key)
    if (!job) {
      const free = this.#running < this.limits.running
      if (!free && this.#waiting.size >= this.limits.waiting) {
        return { refused: 'queue', retryAfterSeconds: this.#retryAfter() }
      }
      job = { key, owner: userId, run: request.run, waiters: new Set(), started: false }
      this.#jobs.set(key, job)
      this.#waiting.add(job)
    }
    this.#inFlight.set(userId, inFlight + 1)
    const shared = job
    let waiter!: Waiter<T>
    const result = new Promise<T>((resolve, reject) => {
      const done = () => {
        const left = this.#inFlight.get(userId)! - 1
        if (left === 0) this.#inFlight.delete(userId)
        else this.#inFlight.set(userId, left)
      }
      waiter = {
        resolve: (value) => {
          done()
          resolve(value)
        },
        reject: (error) => {
          done()
          reject(error)
        }
      }
    })
    shared.waiters.add(waiter)
    this.#pump()
    const cancel = () => {
      if (!shared.waiters.delete(waiter)) return
      if (!shared.started && shared.waiters.size === 0) {
        this.#waiting.delete(shared)
        this.#jobs.delete(shared.key)
      }
      waiter.reject(new CancelledError())
    }
    return { result, cancel }
  }

  /**
   * Starts waiting jobs, oldest first, on free threads; a member's jobs take at most all threads
   * but one (one with a single thread): a member's long songbooks never hold every thread, and
   * another member's setlist starts on the one left (the member's next job waits its turn).
   */
  #pump (): void {
    const share = Math.max(1, this.limits.running - 1)
    for (const job of this.#waiting) {
      if (this.#running >= this.limits.running) return
      if ((this.#runningBy.get(job.owner) ?? 0) >= share) continue
      this.#waiting.delete(job)
      this.#start(job)
    }
  }

  #start (job: Job<T>): void {
    job.started = true
    this.#running++
    this.#runningBy.set(job.owner, (this.#runningBy.get(job.owner) ?? 0) + 1)
    const started = performance.now()
    const settle = (outcome: (waiter: Waiter<T>) => void) => {
      this.#running--
      const left = this.#runningBy.get(job.owner)! - 1
      if (left === 0) this.#runningBy.delete(job.owner)
      else this.#runningBy.set(job.owner, left)
      this.#jobs.delete(job.key)
      this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - started)
      for (const waiter of job.waiters) outcome(waiter)
      job.waiters.clear()
      this.#pump()
    }
    Promise.resolve()
      .then(job.run)
      .then(
        (value) => settle((waiter) => waiter.resolve(value)),
        (error: unknown) => settle((waiter) => waiter.reject(error))
      )
  }
}
