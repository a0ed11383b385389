import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { FairScheduler, type Client } from '#src/http/fair-scheduler.js'
import { REQUEST_TURNS } from '#src/http/http-server.js'

// The scheduler in front of Fastify (src/http/http-server.ts), driven with a clock of its own:
// every answered request takes `costMs` of it, as a busy server's requests take time.

interface FakeRequest {
  name: string
  client: string
  socket: { destroyed: boolean; destroy(): void }
}

function setup ({
  budgetMs = 10,
  maxWaiting = 100,
  maxRefusing = 100,
  perClient = 10,
  costMs = 4,
  refuseMs = 0,
  /** Clients named `member:…` are logged-in members (their own lane). */
  lanes = false,
  maxFreshAhead = 4
} = {}) {
  let clock = 0
  const answered: string[] = []
  const refused: string[] = []
  const scheduler = new FairScheduler(
    (request) => {
      answered.push((request as unknown as FakeRequest).name)
      clock += costMs
    },
    (request): Client => ({
      id: (request as unknown as FakeRequest).client,
      maxWaiting: perClient,
      member: lanes && (request as unknown as FakeRequest).client.startsWith('member:')
    }),
    {
      budgetMs,
      maxFreshAhead,
      maxWaiting,
      maxRefusing,
      refuse: (request) => {
        refused.push((request as unknown as FakeRequest).name)
        clock += refuseMs
      },
      now: () => clock
    }
  )
  const send = (name: string, client: string) => {
    const socket = {
      destroyed: false,
      destroy () {
        this.destroyed = true
      }
    }
    const request = { name, client, socket } satisfies FakeRequest
    scheduler.admit(request as unknown as IncomingMessage, {} as ServerResponse)
    return request
  }
  return { scheduler, answered, refused, send }
}

test('requests go straight through while the turn is within its budget and nothing waits', () => {
  const { answered, send, scheduler } = setup({ costMs: 1 })
  for (let i = 0; i < 5; i++) send(`a${i}`, 'A')
  assert.deepEqual(answered, ['a0', 'a1', 'a2', 'a3', 'a4'])
  assert.equal(scheduler.stats.waiting, 0)
})

test(
  'past the budget requests wait and are answered round-robin in the next turns: a client with ' +
    'one request waits for one of each other client, not for the whole flood',
  async () => {
    const { answered, send, scheduler } = setup({ costMs: 4 })
    for (let i = 0; i < 8; i++) send(`a${i}`, 'member:A')
    send('health', 'address:B')
    send('c0', 'member:C')
    // a0–a2 used the turn's 10 ms (4 ms each); the rest waits.
    assert.deepEqual(answered, ['a0', 'a1', 'a2'])
    assert.equal(scheduler.stats.waiting, 7)
    assert.equal(scheduler.stats.clients, 3)

    await nextTurn() // the end of this turn: 10 ms more of answering, one of each client in turn
    assert.deepEqual(answered.slice(3), ['a3', 'health', 'c0'])
    await nextTurn()
    await nextTurn()
    assert.deepEqual(answered.slice(6), ['a4', 'a5', 'a6', 'a7'])
    assert.equal(scheduler.stats.waiting, 0)
  }
)

test(
  "a member's six parallel downloads in a busy turn all start in the next one, beside another " +
    "member's poll: only a download's start takes turns, not its streaming",
  async () => {
    // With the server's limits; starting a download (find the row, open the file) is ~1 ms.
    const { answered, refused, send } = setup({
      budgetMs: REQUEST_TURNS.budgetMs,
      perClient: REQUEST_TURNS.maxWaitingPerMember,
      lanes: true,
      costMs: 1
    })
    for (let i = 0; i < 10; i++) send(`busy${i}`, 'member:C') // the turn's budget is spent
    for (let i = 0; i < 6; i++) send(`file${i}`, 'member:A') // a phone saving a gig pack
    send('poll', 'member:B')
    assert.equal(answered.length, 10)
    await nextTurn()
    assert.deepEqual(answered.slice(10).sort(),
      ['file0', 'file1', 'file2', 'file3', 'file4', 'file5', 'poll'])
    assert.ok(answered.indexOf('poll') <= 11, 'the poll does not wait behind the downloads')
    assert.deepEqual(refused, [])
  }
)

test(
  'while requests wait, a newcomer waits too; having nothing waiting, it goes before the round',
  async () => {
    const { answered, send } = setup({ costMs: 6 })
    for (let i = 0; i < 5; i++) send(`a${i}`, 'A') // a0, a1 answered (12 ms), a2–a4 wait
    for (let i = 0; i < 3; i++) send(`c${i}`, 'C')
    await nextTurn() // a2, c0 answered (12 ms)
    assert.deepEqual(answered, ['a0', 'a1', 'a2', 'c0'])
    send('b0', 'B') // a new turn, nothing spent in it yet, but others wait: b0 waits too
    assert.deepEqual(answered, ['a0', 'a1', 'a2', 'c0'])
    await nextTurn() // B is fresh: before A and C, who have had their turns
    assert.deepEqual(answered, ['a0', 'a1', 'a2', 'c0', 'b0', 'a3'])
    await nextTurn()
    assert.deepEqual(answered.slice(6), ['c1', 'a4'])
  }
)

test(
  'beyond the waiting limits: refused (in the next turns, taking turns with the answers); when ' +
    'all places are taken, the client with the most waiting gives up its newest',
  async () => {
    const { answered, refused, send, scheduler } = setup({
      costMs: 20,
      perClient: 2,
      maxWaiting: 3
    })
    send('a0', 'A') // answered, and the turn's budget is spent
    send('a1', 'A')
    send('a2', 'A')
    send('a3', 'A') // a third of A would wait: to be refused
    send('b0', 'B') // the third place
    send('c0', 'C') // all taken: A, with the most, gives up a2
    send('c1', 'C') // each has one now: the newcomer is refused
    assert.deepEqual(refused, [], 'nothing written in the turn that read them')
    assert.deepEqual(scheduler.stats, {
      waiting: 3,
      clients: 3,
      refusing: 3,
      refused: 0,
      dropped: 0
    })
    for (let i = 0; i < 4; i++) await nextTurn()
    assert.deepEqual(refused, ['a3', 'a2', 'c1'])
    assert.deepEqual(answered, ['a0', 'a1', 'b0', 'c0'])
    assert.equal(scheduler.stats.waiting, 0)
    assert.equal(scheduler.stats.refused, 3)
  }
)

test('refusals take turns within the budget; beyond maxRefusing, connections drop', async () => {
  const { refused, send, scheduler } = setup({
    costMs: 20,
    perClient: 1,
    maxRefusing: 5,
    refuseMs: 3
  })
  send('a0', 'A') // answered
  send('a1', 'A') // waits
  const sent = Array.from({ length: 7 }, (_, i) => send(`x${i}`, 'A'))
  assert.deepEqual(scheduler.stats, { waiting: 1, clients: 1, refusing: 5, refused: 0, dropped: 2 })
  assert.deepEqual(sent.map((request) => request.socket.destroyed), [
    false, false, false, false, false, true, true
  ])
  await nextTurn() // a1 (20 ms) and one refusal: over the budget
  assert.deepEqual(refused, ['x0'])
  await nextTurn() // refusals only: 3 ms each, four fit in 10 ms
  assert.deepEqual(refused, ['x0', 'x1', 'x2', 'x3', 'x4'])
  assert.equal(scheduler.stats.refusing, 0)
})

test('a waiting request whose client went away is neither answered nor refused', async () => {
  const { answered, refused, send } = setup({ costMs: 20, perClient: 1 })
  send('a0', 'A')
  const gone = send('a1', 'A')
  const goneToo = send('a2', 'A') // to be refused
  send('a3', 'A') // to be refused
  gone.socket.destroyed = true
  goneToo.socket.destroyed = true
  for (let i = 0; i < 3; i++) await nextTurn()
  assert.deepEqual(answered, ['a0'])
  assert.deepEqual(refused, ['a3'])
})

test(
  'anonymous clients, however many, take one place in the members\' round: a member waits for ' +
    'at most one anonymous request per round',
  async () => {
    const { answered, send } = setup({ costMs: 4, lanes: true, perClient: 50 })
    for (let i = 0; i < 3; i++) send(`x${i}`, 'address:X') // the turn's budget spent
    // a flood from many addresses, each with a request or two, waits; then members' requests
    for (let i = 0; i < 20; i++) send(`flood${i}`, `address:${i % 10}`)
    send('anna0', 'member:A')
    send('anna1', 'member:A')
    send('ben0', 'member:B')
    send('ben1', 'member:B')
    for (let i = 0; i < 3; i++) await nextTurn()
    // the anonymous lane was fresh: one of it first; then one round of members, one anonymous …
    assert.deepEqual(answered.slice(3, 10), [
      'flood0', 'anna0', 'ben0', 'flood1', 'anna1', 'ben1', 'flood2'
    ])
    for (let i = 0; i < 10; i++) await nextTurn()
    assert.equal(answered.length, 27)

    // a flood of members: an anonymous poll is answered at the next turn of its lane
    const members = setup({ costMs: 4, lanes: true, perClient: 50 })
    for (let i = 0; i < 3; i++) members.send(`m${i}`, 'member:M')
    for (let i = 0; i < 30; i++) members.send(`flood${i}`, `member:${i % 10}`)
    members.send('health', 'address:phone')
    await nextTurn()
    assert.equal(members.answered[3], 'health')
  }
)

test(
  'under load at most maxFreshAhead fresh clients in a row go before the round: newcomers from ' +
    'many addresses, one request each, do not keep a waiting client waiting for good',
  async () => {
    const flood = async (maxFreshAhead: number) => {
      const { answered, send } = setup({ costMs: 4, maxFreshAhead })
      for (let i = 0; i < 3; i++) send(`x${i}`, 'X') // answered: the turn's budget is spent
      send('x3', 'X')
      send('x4', 'X') // X waits with two; x3 goes first (X is fresh), x4 waits in the round
      // six newcomers a turn, three answered a turn (10 ms, 4 ms each)
      for (let turn = 0; turn < 8; turn++) {
        for (let i = 0; i < 6; i++) send(`n${turn}.${i}`, `N${turn}.${i}`)
        await nextTurn()
      }
      return answered
    }
    const bounded = await flood(2)
    assert.ok(bounded.includes('x3'))
    assert.ok(bounded.includes('x4'), bounded.join(' '))
    // unbounded, the newcomers always go first: x4 would still wait
    const unbounded = await flood(Infinity)
    assert.ok(unbounded.includes('x3'))
    assert.ok(!unbounded.includes('x4'), unbounded.join(' '))
  }
)
