import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  createTestApp, createUser, json, PASSWORD, userClient, type ErrorResponseBody
} from '#test/helpers.js'
import {
  PasswordGate,
  PasswordGateBusy,
  PASSWORD_WORK,
  type PasswordWorkClient
} from '#src/auth/password-gate.js'
import { addressKey } from '#src/http/address-key.js'

/** Work that ends when the test says so. */
function held () {
  const started: string[] = []
  const ends = new Map<string, () => void>()
  const work = (name: string) => () => {
    started.push(name)
    return new Promise<string>((resolve) => ends.set(name, () => resolve(name)))
  }
  const finish = async (name: string) => {
    ends.get(name)!()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { started, work, finish }
}

const anon = (address: string): PasswordWorkClient => ({ address, member: false })
const options = {
  concurrency: 1,
  maxWaiting: 3,
  maxWaitingPerAddress: 2,
  windowMs: 60_000,
  retryAfterSeconds: 2
}

test('password gate: capped; members first, then the address that asked least', async () => {
  const gate = new PasswordGate(options)
  const { started, work, finish } = held()
  const outcomes: Array<Promise<unknown>> = []
  const run = (client: PasswordWorkClient, name: string) => {
    const p = gate.run(client, work(name))
    outcomes.push(p.catch((e: Error) => e))
    return p
  }
  void run(anon('flood'), 'f1')
  void run(anon('flood'), 'f2')
  void run(anon('flood'), 'f3')
  await assert.rejects(run(anon('flood'), 'f4'), PasswordGateBusy) // two waiting per address
  void run(anon('alice'), 'alice')
  void run({ address: 'flood', member: true }, 'member') // full: f3 (most used, newest) gives way
  assert.deepEqual(started, ['f1'])
  assert.equal(gate.running, 1)
  assert.equal(gate.waiting, 3)
  const f3 = await outcomes[2]
  assert.ok(f3 instanceof PasswordGateBusy)
  assert.equal(f3.retryAfterSeconds, 2)

  await finish('f1')
  await finish('member')
  await finish('alice')
  await finish('f2')
  assert.deepEqual(started, ['f1', 'member', 'alice', 'f2'])
  assert.deepEqual(gate.stats, { ran: 4, refused: 1, evicted: 1 })

  // Full of fresh addresses: a newcomer that is no better than the worst waiting is refused.
  void run(anon('x'), 'x')
  void run(anon('a'), 'a')
  void run(anon('b'), 'b')
  void run(anon('c'), 'c')
  await assert.rejects(run(anon('d'), 'd'), PasswordGateBusy)
  for (const name of ['x', 'a', 'b', 'c']) await finish(name)
})

test('password gate: the usage of an address is forgotten after the window', async () => {
  let now = 0
  const gate = new PasswordGate({ ...options, now: () => now })
  const { started, work, finish } = held()
  for (const name of ['b1', 'b2']) {
    const p = gate.run(anon('b'), work(name))
    await finish(name)
    await p
  }
  void gate.run(anon('b'), work('b3'))
  void gate.run(anon('b'), work('b4'))
  void gate.run(anon('c'), work('c1'))
  await finish('b3')
  // c has hashed less than b in this minute: it goes first, though b4 came before it
  assert.deepEqual(started.slice(2), ['b3', 'c1'])
  await finish('c1')
  await finish('b4')

  now = 60_001 // a new minute: b's four are forgotten, the older one goes first again
  void gate.run(anon('x'), work('x'))
  void gate.run(anon('b'), work('b5'))
  void gate.run(anon('c'), work('c2'))
  await finish('x')
  assert.deepEqual(started.slice(5), ['x', 'b5'])
  await finish('b5')
  await finish('c2')
})

test('password gate: refused attempts count: a flood that retries at once ranks itself last',
  async () => {
    const gate = new PasswordGate({ ...options, maxWaiting: 1 })
    const { started, work, finish } = held()
    void gate.run(anon('x'), work('x'))
    const waiting = gate.run(anon('flood'), work('f1')).catch((e: Error) => e)
    for (let i = 2; i <= 4; i++) {
      await assert.rejects(gate.run(anon('flood'), work(`f${i}`)), PasswordGateBusy)
    }
    // alice has asked once, the flood four times: she takes its place
    void gate.run(anon('alice'), work('alice'))
    assert.ok((await waiting) instanceof PasswordGateBusy)
    await finish('x')
    assert.deepEqual(started, ['x', 'alice'])
    await finish('alice')
  })

test('addresses: an IPv6 /64 is one client; mapped IPv4 is IPv4', () => {
  assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64')
  assert.equal(addressKey('2001:db8:1:2::9'), '2001:db8:1:2::/64')
  assert.equal(addressKey('2001:db8:1:3::9'), '2001:db8:1:3::/64')
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
  assert.equal(addressKey('::ffff:198.51.100.7'), '198.51.100.7')
  assert.equal(addressKey('198.51.100.7'), '198.51.100.7')
  assert.equal(addressKey(undefined), 'unknown')
})

test('login rate limit: addresses of one IPv6 /64 share it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await createUser(ctx.app, 'anna')
  const attempt = (remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress,
      payload: { username: 'anna', password: 'a wrong password, long enough' }
    })
  for (let i = 1; i <= 10; i++) {
    assert.equal((await attempt(`2001:db8:aa:bb::${i.toString(16)}`)).statusCode, 401)
  }
  assert.equal((await attempt('2001:db8:aa:bb:ffff::1')).statusCode, 429)
  assert.equal((await attempt('2001:db8:aa:bc::1')).statusCode, 401)
})

test(
  'logins beyond the password gate: 503 SERVER_BUSY with Retry-After; a member changing the ' +
    'password and a login from an address that has not tried go ahead of the flood',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    await createUser(ctx.app, 'anna')
    const mia = await userClient(ctx.app, 'mia')
    const gate = ctx.app.passwordGate
    const login = (remoteAddress: string, password = 'a wrong password, long enough') =>
      ctx.app.inject({
        method: 'POST',
        url: '/login',
        remoteAddress,
        payload: { username: 'anna', password }
      })
    // 20 addresses that have each tried once, then flood: two at once each (their rate limits
    // allow ten a minute).
    const addresses = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`)
    for (const address of addresses) assert.equal((await login(address)).statusCode, 401)
    let wrongAnswered = 0
    const flood = [...addresses, ...addresses].map((address) =>
      login(address).then((r) => {
        if (r.statusCode === 401) wrongAnswered++
        return r
      })
    )
    // Once the places are taken: a valid login from a new address, a member's password change.
    while (gate.waiting < PASSWORD_WORK.maxWaiting) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    const finished: string[] = []
    const valid = login('203.0.113.9', PASSWORD).then((r) => {
      finished.push(`valid after ${wrongAnswered}`)
      return r
    })
    const change = mia
      .put('/change_password', {
        currentPassword: PASSWORD,
        newPassword: 'a completely new passphrase 2026'
      })
      .then((r) => {
        finished.push(`change after ${wrongAnswered}`)
        return r
      })
    const answers = await Promise.all(flood)
    const [ok, changed] = await Promise.all([valid, change])
    assert.equal(ok.statusCode, 200, ok.body)
    assert.equal(changed.statusCode, 204, changed.body)
    const busy = answers.filter((r) => r.statusCode === 503)
    assert.ok(busy.length >= 20, `${busy.length} of the flood refused`)
    // Both went ahead of those waiting: done while at most a few of the flood had been answered.
    const wrong = answers.filter((r) => r.statusCode === 401).length
    assert.ok(wrong >= PASSWORD_WORK.maxWaiting - 2, `${wrong} wrong logins checked`)
    for (const f of finished) assert.ok(Number(f.split(' after ')[1]) <= 4, finished.join(', '))
    for (const r of busy) {
      assert.equal(json<ErrorResponseBody>(r).code, 'SERVER_BUSY')
      assert.equal(r.headers['retry-after'], '2')
    }
    assert.ok(answers.every((r) => r.statusCode === 401 || r.statusCode === 503))
    assert.ok(gate.stats.evicted >= 2, 'the flood gave up places to the two')
  }
)
