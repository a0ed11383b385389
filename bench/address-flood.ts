// Floods from many addresses: wrong logins and cheap requests from 200 source
// addresses (127.0.0.N), against the same load from one address. Measured meanwhile: a logged-in
// member's requests (GET /me every 10 ms on a kept-alive connection: p50, p99, max) and valid
// logins, each from an address of its own (ms each). Run alone with `BENCH_PARTS=addresses` (after
// `npm run build`), or `node --conditions=bandstand-source --import tsx bench/address-flood.ts`.
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { eq } from '#src/db/orm.js'
import { users } from '#src/db/schema.js'
import { hashPassword } from '#src/auth/password.js'
import { startServer } from '#test/server-process.js'
import { JWT_SECRET, seedDatabase } from '#test/seeded-server.js'

const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10)
const ADDRESSES = Number(process.env.BENCH_FLOOD_ADDRESSES ?? 200)
const PASSWORD = 'the bench member passphrase'
// BENCH_FLOOD_ONLY: a regular expression picking scenarios by label (the smoke run makes the
// many-address ones; the others run the same code with other numbers).
const only = new RegExp(process.env.BENCH_FLOOD_ONLY ?? '')

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

/** 127.<block>.x.y for i = 0…count-1: a block of source addresses of its own per scenario. */
const addressBlock = (block: number, count: number) =>
  Array.from({ length: count }, (_, i) => `127.${block}.${Math.floor(i / 250)}.${(i % 250) + 2}`)

function http (
  base: string,
  path: string,
  options: { agent?: Agent; localAddress?: string; cookie?: string; body?: string }
): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      `${base}${path}`,
      {
        method: options.body ? 'POST' : 'GET',
        agent: options.agent ?? false,
        localAddress: options.localAddress,
        headers: {
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.body ? { 'content-type': 'application/json' } : {})
        }
      },
      // A refusal is reported with its code (SERVER_BUSY, RATE_LIMITED).
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        res.on('end', () => {
          const code = res.statusCode! >= 400 ? /"code":"(\w+)"/.exec(text)?.[1] : undefined
          resolve(code ? `${res.statusCode} ${code}` : res.statusCode!)
        })
      }
    )
    req.on('error', () => resolve(0))
    req.end(options.body)
  })
}

/** The member's GET /me every 10 ms until `until` settles: ms per request and the statuses. */
async function probeMember (base: string, cookie: string, until: Promise<unknown>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  await http(base, '/me', { agent, cookie })
  let running = true
  void until.finally(() => (running = false))
  const ms: number[] = []
  const statuses: Record<string, number> = {}
  // eslint-disable-next-line no-unmodified-loop-condition -- `until` settling clears it
  while (running) {
    const started = performance.now()
    const status = await http(base, '/me', { agent, cookie })
    ms.push(performance.now() - started)
    statuses[status] = (statuses[status] ?? 0) + 1
    await sleep(10)
  }
  agent.destroy()
  return { ms, statuses }
}

/**
 * Valid logins, one every ~2 s while `until` runs, each from an address of its own (members on
 * their phones; one address logging in again and again would rank itself as a flood does):
 * ms each and statuses. The first is always made, also after a flood shorter than its wait (the
 * smoke run's): the row proves a member can log in, whatever the flood's length.
 */
async function validLogins (base: string, block: number, until: Promise<unknown>) {
  let running = true
  void until.finally(() => (running = false))
  const body = JSON.stringify({ username: 'member0', password: PASSWORD })
  const results: Array<{ ms: number; status: number | string }> = []
  // Into the flood first (half of a short one), so that the login meets it.
  await sleep(Math.min(1500, SECONDS * 500))
  // eslint-disable-next-line no-unmodified-loop-condition -- `until` settling clears it
  while (results.length === 0 || (running && results.length < 4)) {
    const started = performance.now()
    const address = `127.${block}.9.${results.length + 2}`
    const status = await http(base, '/login', { localAddress: address, body })
    results.push({ ms: performance.now() - started, status })
    // Until the next one or the flood's end, whichever comes first.
    await Promise.race([sleep(2000), until])
  }
  return results
}

function flood (options: {
  base: string
  addresses: string[]
  perAddress: number
  mode: 'login' | 'cheap'
  seconds: number
}): Promise<{ statuses: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    // Plain node (it strips the types; the load imports only node:http): tsx's loader costs each
    // flood process ~0.5 CPU-s.
    const child = spawn(
      process.execPath,
      [new URL('./address-flood-load.ts', import.meta.url).pathname, JSON.stringify(options)],
      { stdio: ['ignore', 'pipe', 'inherit'] }
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`flood exited ${code}`)))
  })
}

export interface AddressFloodFigure {
  label: string
  memberP50: number
  memberP99: number
  memberMax: number
  loginsMs: number[]
  loginStatuses: Array<number | string>
  floodStatuses: Record<string, number>
}

export async function runAddressFloodBench (): Promise<AddressFloodFigure[]> {
  console.log(
    `\n## Floods from many addresses (${SECONDS} s each; a member's GET /me every 10 ms, a ` +
      'valid login from an address of its own every ~2 s)'
  )
  const passwordHash = await hashPassword(PASSWORD)
  const seeded = await seedDatabase(20, (app) => {
    app.db.update(users).set({ passwordHash }).where(eq(users.username, 'member0')).run()
  })
  const server = await startServer({ DATA_DIR: seeded.dir, JWT_SECRET, WEB_ENABLED: 'false' })
  const member = seeded.cookies[1]!
  const figures: AddressFloodFigure[] = []
  const scenarios: Array<[string, 'login' | 'cheap' | null, number, number]> = [
    ['no flood', null, 0, 0],
    ['wrong logins, one address, 50 connections', 'login', 1, 50],
    [`wrong logins, ${ADDRESSES} addresses, 1 connection each`, 'login', ADDRESSES, 1],
    ['GET /health, one address, 200 connections', 'cheap', 1, 200],
    [`GET /health, ${ADDRESSES} addresses, 1 connection each`, 'cheap', ADDRESSES, 1]
  ]
  try {
    let block = 1
    for (const [label, mode, count, perAddress] of scenarios.filter(([l]) => only.test(l))) {
      const addresses = addressBlock(block++, count)
      const run = mode
        ? flood({ base: server.base, addresses, perAddress, mode, seconds: SECONDS })
        : sleep(Math.min(SECONDS, 4) * 1000).then(() => ({ statuses: {} }))
      const [probe, logins, load] = await Promise.all([
        probeMember(server.base, member, run),
        validLogins(server.base, block++, run),
        run
      ])
      const figure: AddressFloodFigure = {
        label,
        memberP50: percentile(probe.ms, 50),
        memberP99: percentile(probe.ms, 99),
        memberMax: Math.max(...probe.ms),
        loginsMs: logins.map((l) => Math.round(l.ms)),
        loginStatuses: logins.map((l) => l.status),
        floodStatuses: load.statuses
      }
      figures.push(figure)
      console.log(
        `${label.padEnd(52)} member GET /me p50 ${figure.memberP50.toFixed(1)} ms, p99 ` +
          `${figure.memberP99.toFixed(1)} ms, max ${figure.memberMax.toFixed(0)} ms ` +
          `(${probe.ms.length} probes, ${JSON.stringify(probe.statuses)}); valid login ` +
          `${figure.loginsMs.join(', ')} ms (${figure.loginStatuses.join(', ')}); flood answers ` +
          JSON.stringify(load.statuses)
      )
      if (server.child.exitCode !== null) throw new Error(`the server died:\n${server.output()}`)
      // The server settles between scenarios (a second, shorter for the smoke run's floods).
      await sleep(Math.min(1000, SECONDS * 200))
    }
  } finally {
    await server.stop()
    rmSync(seeded.dir, { recursive: true, force: true })
  }
  return figures
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAddressFloodBench()
}
