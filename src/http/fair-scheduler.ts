import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Fair turns for the requests of different clients when the server is busier than it can answer
 * at once. Node answers every connection that has a request ready in one turn of the event loop
 * before it looks for new ones: 2,000 requests of one member arriving together kept it busy for
 * 0.3–0.6 s (bench/documents.ts), and every other phone's poll waited behind them. Here, once a
 * turn has spent `budgetMs` on requests, the next ones only wait, in one queue per client, and the
 * following turns answer them round-robin — one of each client in turn, `budgetMs` per turn — so a
 * client with one request waits for one request of each other client, not for the whole flood. A
 * client that had nothing waiting goes first (as in start-time fair queuing: its request is due
 * now, the others' next ones are due after theirs): a phone's poll during a flood of many members
 * waits for no round at all. Under load, at most `maxFreshAhead` fresh clients in a row go before
 * the round: clients from many addresses, each sending one request at a time, are always fresh
 * and would otherwise keep the round's clients waiting for good.
 *
 * Logged-in members (`Client.member`) never wait for the anonymous clients' round: all anonymous
 * clients together take one place in the members' round (and go first when they had nothing
 * waiting, like any fresh client), so a member waits for at most one anonymous request per round
 * however many addresses flood, and a phone's anonymous poll (GET /health) is still answered
 * during a flood of members. Nobody can make up members: forged cookies count as their address.
 *
 * Refusals take turns too: a request beyond its client's limit, or beyond all places, is put
 * aside and refused (503) in the following turns, one refusal after each client's request. Writing
 * a refusal costs about as much as reading the request did: 1,800 of them at once were most of a
 * 0.36 s turn. Only beyond `maxRefusing` put aside is a connection dropped at once, unanswered.
 *
 * Knows nothing of Fastify: it stands between Node's HTTP server and the app's request handler.
 * While nothing waits and the turn is within its budget, a request goes straight through.
 */
export interface FairSchedulerOptions {
  /** Milliseconds of answering per turn of the event loop before requests wait. */
  budgetMs: number
  /**
   * Requests waiting in all; beyond, the client with the most waiting gives up its newest, or the
   * newcomer is refused when its client has as many.
   */
  maxWaiting: number
  /** Refusals put aside; beyond, connections are dropped unanswered. */
  maxRefusing: number
  /** Fresh clients answered in a row before the round's next (default 4). */
  maxFreshAhead?: number
  /** Refuses a request (503): it is not handled. */
  refuse: (request: IncomingMessage, response: ServerResponse) => void
  now?: () => number
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void

/** Who a request is from, and how many of its requests may wait; beyond, refused. */
export interface Client {
  id: string
  maxWaiting: number
  /** A logged-in member: answered before any anonymous client. */
  member?: boolean
}

interface Waiting {
  request: IncomingMessage
  response: ServerResponse
}

/** A client's waiting requests, oldest first; `fresh` until its first one is answered. */
interface Queue {
  items: Waiting[]
  fresh: boolean
  lane: Lane
}

/** Members' or anonymous clients' queues. */
interface Lane {
  /** Waiting requests by client; the Map's order is the round-robin order. */
  queues: Map<string, Queue>
  /** Clients that had nothing waiting, in the order they came: answered before the round. */
  fresh: Array<[string, Queue]>
  waiting: number
  /** Fresh clients answered since the round's last turn. */
  freshInRow: number
}

const lane = (): Lane => ({ queues: new Map(), fresh: [], waiting: 0, freshInRow: 0 })

export class FairScheduler {
  readonly #options: FairSchedulerOptions
  readonly #now: () => number
  readonly #handle: RequestHandler
  /** Who a request is from: its session's member, else its address (src/http/http-server.ts). */
  #clientOf: (request: IncomingMessage) => Client

  readonly #members = lane()
  readonly #anonymous = lane()
  /** Members to answer before the anonymous lane's next turn: a round of those waiting then. */
  #membersUntilAnonymous = 0
  /** The anonymous lane had nothing waiting when its oldest request came: it goes first. */
  #anonymousFresh = false
  readonly #maxFreshAhead: number
  #waiting = 0
  /** Requests to refuse, oldest first. */
  #refusing: Waiting[] = []
  /** When the current turn started answering, or null between turns. */
  #turnStart: number | null = null
  #turnEndScheduled = false
  #refused = 0
  #dropped = 0

  constructor (
    handle: RequestHandler,
    clientOf: (request: IncomingMessage) => Client,
    options: FairSchedulerOptions
  ) {
    this.#handle = handle
    this.#clientOf = clientOf
    this.#options = options
    this.#now = options.now ?? (() => performance.now())
    this.#maxFreshAhead = options.maxFreshAhead ?? 4
  }

  /** How requests are told apart by client (set anew once the app can verify session tokens). */
  identifyClientsBy (clientOf: (request: IncomingMessage) => Client): void {
    this.#clientOf = clientOf
  }

  get stats () {
    return {
      waiting: this.#waiting,
      clients: this.#members.queues.size + this.#anonymous.queues.size,
      refusing: this.#refusing.length,
      refused: this.#refused,
      dropped: this.#dropped
    }
  }

  /** Node's request listener. */
  readonly admit = (request: IncomingMessage, response: ServerResponse): void => {
    const now = this.#now()
    if (this.#turnStart === null) {
      this.#turnStart = now
      this.#scheduleTurnEnd()
    }
    const idle = this.#waiting === 0 && this.#refusing.length === 0
    if (idle && now - this.#turnStart < this.#options.budgetMs) {
      this.#handle(request, response)
      return
    }
    const client = this.#clientOf(request)
    const lane = client.member ? this.#members : this.#anonymous
    if (!client.member && lane.waiting === 0) this.#anonymousFresh = true
    const queue = lane.queues.get(client.id)
    const length = queue?.items.length ?? 0
    if (length >= client.maxWaiting || (this.#waiting >= this.#options.maxWaiting &&
      !this.#makeRoomFor(length))) {
      this.#putAside({ request, response })
      return
    }
    if (queue) queue.items.push({ request, response })
    else {
      const created = { items: [{ request, response }], fresh: true, lane }
      lane.queues.set(client.id, created)
      lane.fresh.push([client.id, created])
    }
    this.#waiting++
    lane.waiting++
  }

  /**
   * All places taken: the client with the most requests waiting gives up its newest, unless the
   * newcomer's client (with `waitingOfClient` waiting) would then have as many.
   */
  #makeRoomFor (waitingOfClient: number): boolean {
    let longest: Queue | undefined
    for (const queues of [this.#members.queues, this.#anonymous.queues]) {
      for (const queue of queues.values()) {
        if (!longest || queue.items.length > longest.items.length) longest = queue
      }
    }
    if (!longest || longest.items.length <= waitingOfClient + 1) return false
    this.#putAside(longest.items.pop()!)
    this.#waiting--
    longest.lane.waiting--
    return true
  }

  #putAside (waiting: Waiting): void {
    if (this.#refusing.length < this.#options.maxRefusing) {
      this.#refusing.push(waiting)
      return
    }
    this.#dropped++
    waiting.request.socket.destroy()
  }

  // One callback per turn, after the turn's I/O (setImmediate: the check phase).
  #scheduleTurnEnd (): void {
    if (this.#turnEndScheduled) return
    this.#turnEndScheduled = true
    setImmediate(this.#turnEnd)
  }

  readonly #turnEnd = (): void => {
    this.#turnEndScheduled = false
    this.#turnStart = null
    const started = this.#now()
    let refusals = 0
    while (
      (this.#waiting > 0 || refusals < this.#refusing.length) &&
      this.#now() - started < this.#options.budgetMs
    ) {
      if (this.#waiting > 0) this.#answerNext()
      // A client that went away while waiting is not answered.
      const refusal = this.#refusing[refusals++]
      if (refusal && !refusal.request.socket.destroyed) {
        this.#refused++
        this.#options.refuse(refusal.request, refusal.response)
      }
    }
    if (refusals > 0) this.#refusing = this.#refusing.slice(refusals)
    // The rest in the next turns, after the I/O that arrived meanwhile has been read.
    if (this.#waiting > 0 || this.#refusing.length > 0) this.#scheduleTurnEnd()
  }

  /** The anonymous lane's turn: fresh, or once per round of the members waiting. */
  #nextLane (): Lane {
    const members = this.#members
    const anonymous = this.#anonymous
    const anonymousTurn = anonymous.waiting > 0 && (
      members.waiting === 0 ||
      this.#anonymousFresh ||
      this.#membersUntilAnonymous <= 0
    )
    if (anonymousTurn) {
      this.#anonymousFresh = false
      this.#membersUntilAnonymous = members.queues.size
      return anonymous
    }
    this.#membersUntilAnonymous--
    return members
  }

  /**
   * The next client's oldest request in the lane whose turn it is: a fresh client's (at most
   * `maxFreshAhead` in a row), else the round's next.
   */
  #answerNext (): void {
    const lane = this.#nextLane()
    let entry: [string, Queue] | undefined
    if (lane.freshInRow < this.#maxFreshAhead) {
      while (lane.fresh.length > 0 && !entry) {
        const candidate = lane.fresh.shift()!
        if (candidate[1].fresh) entry = candidate
      }
    }
    lane.freshInRow = entry ? lane.freshInRow + 1 : 0
    const [client, queue] = entry ?? lane.queues.entries().next().value!
    queue.fresh = false
    const next = queue.items.shift()!
    this.#waiting--
    lane.waiting--
    // To the end of the round, or out when it has nothing left.
    lane.queues.delete(client)
    if (queue.items.length > 0) lane.queues.set(client, queue)
    if (!next.request.socket.destroyed) this.#handle(next.request, next.response)
  }
}
