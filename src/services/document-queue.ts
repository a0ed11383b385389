// Admission of document requests: what runs, what waits, what is refused. A job is the render of
// one document at one database revision; requests for the same key share it. A job only loads its
// data when it starts (a free worker), so a waiting request holds its socket and a closure, never a
// gig. Beyond the queue a request is refused at once, so a flood costs almost nothing.

export interface DocumentQueueLimits {
  /** Jobs running at once: one per worker thread. */
  running: number
  /** Jobs waiting for a free thread; beyond that, QueueFullError. */
  waiting: number
  /** Requests of one user in flight (waiting, running or sharing a job); beyond, UserLimitError. */
  perUser: number
}

/** Refused: the queue is full. `retryAfterSeconds`: when a place is likely free again. */
export class QueueFullError extends Error {
  constructor (readonly retryAfterSeconds: number) {
    super('the document queue is full')
  }
}

/** Refused: this user already has `perUser` requests in flight. */
export class UserLimitError extends Error {
  constructor (readonly retryAfterSeconds: number) {
    super('too many documents requested at once')
  }
}

interface Waiter<T> {
  resolve(value: T): void
  reject(error: unknown): void
}

interface Job<T> {
  key: string
  run: () => Promise<T>
  waiters: Set<Waiter<T>>
  started: boolean
}

export interface DocumentRequest<T> {
  /** Requests with the same key share one job (kind, gig, options and database revision). */
  key: string
  userId: number
  /** Aborted when the client goes away: its place is freed, a job nobody waits for is dropped. */
  signal?: AbortSignal
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

  submit (request: DocumentRequest<T>): Promise<T> {
    const { key, userId, signal } = request
    if (signal?.aborted) return Promise.reject(signal.reason)
    const inFlight = this.#inFlight.get(userId) ?? 0
    if (inFlight >= this.limits.perUser) {
      return Promise.reject(new UserLimitError(this.#retryAfter()))
    }
    let job = this.#jobs.get(key)
    if (!job) {
      const free = this.#running < this.limits.running
      if (!free && this.#waiting.size >= this.limits.waiting) {
        return Promise.reject(new QueueFullError(this.#retryAfter()))
      }
      job = { key, run: request.run, waiters: new Set(), started: false }
      this.#jobs.set(key, job)
      this.#waiting.add(job)
    }
    this.#inFlight.set(userId, inFlight + 1)
    const shared = job
    const promise = new Promise<T>((resolve, reject) => {
      const done = () => {
        signal?.removeEventListener('abort', abort)
        const left = this.#inFlight.get(userId)! - 1
        if (left === 0) this.#inFlight.delete(userId)
        else this.#inFlight.set(userId, left)
      }
      const waiter: Waiter<T> = {
        resolve: (value) => {
          done()
          resolve(value)
        },
        reject: (error) => {
          done()
          reject(error)
        }
      }
      const abort = () => {
        if (!shared.waiters.delete(waiter)) return
        if (!shared.started && shared.waiters.size === 0) {
          this.#waiting.delete(shared)
          this.#jobs.delete(shared.key)
        }
        waiter.reject(signal!.reason)
      }
      shared.waiters.add(waiter)
      signal?.addEventListener('abort', abort, { once: true })
    })
    this.#pump()
    return promise
  }

  #pump (): void {
    for (const job of this.#waiting) {
      if (this.#running >= this.limits.running) return
      this.#waiting.delete(job)
      this.#start(job)
    }
  }

  #start (job: Job<T>): void {
    job.started = true
    this.#running++
    const started = performance.now()
    const settle = (outcome: (waiter: Waiter<T>) => void) => {
      this.#running--
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
