import { availableParallelism } from 'node:os'

// Password hashing (scrypt, ~0.3 s of a core each) is the dearest thing an anonymous client can
// ask for. Unbounded, wrong logins from 25–200 addresses kept every thread busy: a valid login
// took 14–33 s. Here at most `concurrency` hashes run at once; the others wait in a short queue
// whose order is fair: a member's (change of password, an admin setting one) before any
// anonymous one, then the address that asked least in the current minute, then the oldest. Every
// attempt counts, refused ones too: a flood that retries at once after each 503 ranks itself
// last. When the queue is full a newcomer takes the place of the worst one waiting if it is
// better, else it is refused: an address that has not tried lately gets in ahead of a flood.

export interface PasswordWorkClient {
  /** addressKey of the request (an IPv6 /64 counts as one address). */
  address: string
  /** A logged-in member's request: never waits behind anonymous ones. */
  member: boolean
}

export interface PasswordGateOptions {
  concurrency: number
  /** Waiting in all; beyond, the worst waiting (or the newcomer) is refused. */
  maxWaiting: number
  /** Waiting per address; beyond, refused. */
  maxWaitingPerAddress: number
  /** How long an address's hashing counts against it. */
  windowMs: number
  retryAfterSeconds: number
  now?: () => number
}

/** One core stays with the event loop; scrypt runs on libuv's pool (4 threads by default). */
export const PASSWORD_WORK = {
  concurrency: Math.max(1, Math.min(4, availableParallelism()) - 1),
  maxWaiting: 8,
  // A band logging in together behind one venue router: a few wait, the rest retry (Retry-After).
  maxWaitingPerAddress: 4,
  windowMs: 60_000,
  retryAfterSeconds: 2
}

export class PasswordGateBusy extends Error {
  override name = 'PasswordGateBusy'
  constructor (readonly retryAfterSeconds: number) {
    super(`too many password checks at once; retry in ${retryAfterSeconds} s`)
  }
}

interface Waiter {
  client: PasswordWorkClient
  seq: number
  start: () => void
  refuse: (error: Error) => void
}

export class PasswordGate {
  readonly stats = { ran: 0, refused: 0, evicted: 0 }
  readonly #options: PasswordGateOptions
  readonly #now: () => number
  #running = 0
  #seq = 0
  readonly #waiting: Waiter[] = []
  /** Attempts per address in the current window (run, waiting or refused). */
  #usage = new Map<string, number>()
  #windowStart: number

  constructor (options: PasswordGateOptions = PASSWORD_WORK) {
    this.#options = options
    this.#now = options.now ?? Date.now
    this.#windowStart = this.#now()
  }

  get running (): number {
    return this.#running
  }

  get waiting (): number {
    return this.#waiting.length
  }

  /** Runs `work` when its turn comes; rejects with PasswordGateBusy when refused. */
  run<T> (client: PasswordWorkClient, work: () => Promise<T>): Promise<T> {
    this.#rollWindow()
    if (!client.member) {
      this.#usage.set(client.address, (this.#usage.get(client.address) ?? 0) + 1)
    }
    if (this.#running < this.#options.concurrency && this.#waiting.length === 0) {
      return this.#start(work)
    }
    const busy = new PasswordGateBusy(this.#options.retryAfterSeconds)
    const own = this.#waiting.filter((w) => w.client.address === client.address).length
    if (!client.member && own >= this.#options.maxWaitingPerAddress) {
      this.stats.refused++
      return Promise.reject(busy)
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        seq: this.#seq++,
        start: () => this.#start(work).then(resolve, reject),
        refuse: reject
      }
      if (this.#waiting.length >= this.#options.maxWaiting) {
        const worst = this.#worst()
        if (!worst || this.#rank(waiter, worst) >= 0) {
          this.stats.refused++
          reject(busy)
          return
        }
        this.#waiting.splice(this.#waiting.indexOf(worst), 1)
        this.stats.evicted++
        worst.refuse(busy)
      }
      this.#waiting.push(waiter)
    })
  }

  async #start<T> (work: () => Promise<T>): Promise<T> {
    this.#running++
    this.stats.ran++
    try {
      return await work()
    } finally {
      this.#running--
      this.#next()
    }
  }

  #next (): void {
    if (this.#waiting.length === 0 || this.#running >= this.#options.concurrency) return
    let best = this.#waiting[0]!
    for (const w of this.#waiting) if (this.#rank(w, best) < 0) best = w
    this.#waiting.splice(this.#waiting.indexOf(best), 1)
    best.start()
  }

  #worst (): Waiter | undefined {
    let worst: Waiter | undefined
    for (const w of this.#waiting) if (!worst || this.#rank(w, worst) > 0) worst = w
    return worst
  }

  /** Negative: `a` goes before `b`. Members first, then the address that asked least, oldest. */
  #rank (a: Waiter, b: Waiter): number {
    if (a.client.member !== b.client.member) return a.client.member ? -1 : 1
    const used = (w: Waiter) => (w.client.member ? 0 : (this.#usage.get(w.client.address) ?? 0))
    return used(a) - used(b) || a.seq - b.seq
  }

  /** Fixed windows: the map holds at most one window's addresses. */
  #rollWindow (): void {
    const now = this.#now()
    if (now - this.#windowStart < this.#options.windowMs) return
    this.#windowStart = now
    this.#usage = new Map()
  }
}
