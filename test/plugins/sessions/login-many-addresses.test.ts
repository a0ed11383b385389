// The review's flood of wrong logins from many addresses, replayed: sixteen band members log in
// from sixteen addresses of their own, four at a time, while the flood keeps the password gate
// full. Outcomes only (status codes, what was checked before whom, the gate's bounds), no clock.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes, scryptSync } from 'node:crypto'
import { createTestApp, createUser, PASSWORD } from '#test/helpers.js'
import { PASSWORD_WORK } from '#src/auth/password-gate.js'

const WAVES = 4
const PER_WAVE = 4
/** Fresh flood addresses per wave, each sending three wrong logins at once. */
const FLOOD_ADDRESSES = 12
const FLOOD_PER_ADDRESS = 3

/**
 * The members' passwords hashed at a low scrypt cost (the parameters travel with a hash): the
 * gate's order is under test, not the hash, and sixteen full checks would be most of the run. The
 * flood's target keeps the full cost, so its checks hold the gate while the members arrive.
 */
function cheapHash (password: string): string {
  const salt = randomBytes(16)
  const params = { N: 1024, r: 8, p: 1 }
  const key = scryptSync(password, salt, 32, params)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'),
    key.toString('base64url')].join('$')
}

test('login flood from many addresses: every valid login from another address goes ahead',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const gate = ctx.app.passwordGate
    await createUser(ctx.app, 'anna')
    const band = []
    const passwordHash = cheapHash(PASSWORD)
    for (let i = 0; i < WAVES * PER_WAVE; i++) {
      band.push(await createUser(ctx.app, `member${i}`, 'member', { passwordHash }))
    }
    const login = (remoteAddress: string, username: string, password: string) =>
      ctx.app.inject({
        method: 'POST', url: '/login', remoteAddress, payload: { username, password }
      })

    // The gate's bounds, watched on every turn while the flood runs.
    let mostWaiting = 0
    let mostRunning = 0
    const watching = { on: true }
    const watch = (async () => {
      while (watching.on) {
        mostWaiting = Math.max(mostWaiting, gate.waiting)
        mostRunning = Math.max(mostRunning, gate.running)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()

    /** Wrong logins the server actually checked (401), in the order they were answered. */
    let checked = 0
    const flood: Array<Promise<number>> = []
    const valid: number[] = []
    for (let wave = 0; wave < WAVES; wave++) {
      for (let a = 0; a < FLOOD_ADDRESSES; a++) {
        const address = `198.51.${100 + wave}.${a + 1}`
        for (let i = 0; i < FLOOD_PER_ADDRESS; i++) {
          flood.push(login(address, 'anna', 'a wrong password, long enough').then((r) => {
            if (r.statusCode === 401) checked++
            return r.statusCode
          }))
        }
      }
      // The members arrive once every place in the queue is the flood's.
      while (gate.waiting < PASSWORD_WORK.maxWaiting) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      const before = checked
      const members = band.slice(wave * PER_WAVE, (wave + 1) * PER_WAVE)
      const answers = await Promise.all(members.map((member, i) =>
        login(`203.0.${113 + wave}.${i + 1}`, member.username, PASSWORD)))
      for (const answer of answers) valid.push(answer.statusCode)
      // Only the checks already running when they came were answered before them.
      assert.ok(checked - before <= PASSWORD_WORK.concurrency,
        `wave ${wave}: ${checked - before} wrong logins checked before the members'`)
    }
    const floodAnswers = await Promise.all(flood)
    watching.on = false
    await watch

    assert.deepEqual(valid, Array(WAVES * PER_WAVE).fill(200), 'every member logged in')
    assert.ok(floodAnswers.every((status) => status === 401 || status === 503))
    // Most of the flood was refused at once rather than queued.
    assert.ok(floodAnswers.filter((status) => status === 503).length > flood.length / 2)
    assert.ok(mostWaiting <= PASSWORD_WORK.maxWaiting, `${mostWaiting} waiting at most`)
    assert.ok(mostRunning <= PASSWORD_WORK.concurrency, `${mostRunning} running at most`)
    // Each member's place was taken from the flood, never from another member.
    assert.ok(gate.stats.evicted >= WAVES * PER_WAVE, `${gate.stats.evicted} flood places taken`)
  })
