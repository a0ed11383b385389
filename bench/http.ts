/**
 * The HTTP part (BENCH_PARTS=http): load against the built server (node dist/server.js, started as
 * npm start does) on a seeded database, cookie-authenticated, each GET compared with a bare Fastify
 * route serving the same bytes (bench/bare-server.ts). BENCH_CRASH_AFTER_START=1 crashes the bench
 * on purpose once the server and the floor server run (test/scripts/bench-cleanup.test.ts).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectPath } from '#src/project-path.js'
import { npmStartCommand } from '#test/server-process.js'
import { seedBenchData } from './seed-bench-data.js'
import { connections, duration, ensureWrk, load } from './wrk.js'
import { print, type Row } from './http-report.js'

const round = (ms: number) => Math.round(ms * 10) / 10
/** Logins in a row (BENCH_LOGINS; the smoke run's 2: each is a scrypt hash on purpose). */
const logins = Number(process.env.BENCH_LOGINS ?? 8)

function rssMb (pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round((kb / 1024) * 10) / 10
}

async function waitForHealth (url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
}

const startCommand = npmStartCommand
const productionNodeFlags = () => startCommand().flags

async function freePort (): Promise<number> {
  const { createServer } = await import('node:net')
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })
}

export async function runHttpBench () {
  ensureWrk()
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-bench-'))
  const data = await seedBenchData(join(dataDir, 'bandstand.db'))
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const started = performance.now()
  const server = spawn(
    process.execPath,
    [...productionNodeFlags(), projectPath('dist', 'server.js')],
    {
      env: {
        ...process.env,
        ...startCommand().env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DOCS_ENABLED: 'true'
      },
      stdio: ['ignore', 'ignore', 'inherit']
    }
  )
  const rows: Row[] = []
  let bare: ChildProcess | undefined
  try {
    await waitForHealth(base, server)
    const startMs = Math.round(performance.now() - started)
    const rssStart = rssMb(server.pid!)

    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: data.username, password: data.password })
    })
    if (!login.ok) throw new Error(`login failed: ${login.status}`)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const headers = { cookie }

    bare = fork(projectPath('bench', 'bare-server.ts'), {
      // With the server's V8 flags and environment: the same young generation, so the same GC.
      // Plain node (it strips the types; `#src/` resolves to the build): tsx's module hooks run
      // in a thread with an isolate of its own, which would add to the floor's RSS.
      execArgv: productionNodeFlags(),
      env: {
        ...process.env,
        ...startCommand().env,
        BENCH_DATABASE: join(dataDir, 'bandstand.db')
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc']
    })
    const bareAddress = await new Promise<string>((resolve, reject) => {
      bare!.once('message', (m) => resolve((m as { address: string }).address))
      // A floor server that fails to start would otherwise leave the bench waiting for ever.
      bare!.once('exit', (code) => reject(new Error(`the bare server exited (${code})`)))
    })
    console.log(`bench processes: server pid ${server.pid} at ${base}, ` +
      `floor pid ${bare.pid} at ${bareAddress}`)
    if (process.env.BENCH_CRASH_AFTER_START === '1') {
      // An exception outside the awaited chain, as a bug in a callback throws one: no finally
      // block runs, only the exit clean-up.
      setImmediate(() => {
        throw new Error('BENCH_CRASH_AFTER_START: crashing on purpose')
      })
      await sleep(60_000)
    }

    const live = await fetch(`${base}/gigs_lm/${data.liveGigId}`, { headers })
    const etag = live.headers.get('etag') ?? '"none"'

    const endpoints: Array<{
      name: string
      path: string
      method?: string
      body?: string
      headers?: Record<string, string>
      expect?: number
    }> = [
      { name: 'GET /songs (500)', path: '/songs' },
      { name: 'GET /songs (500) gzip', path: '/songs', headers: { 'accept-encoding': 'gzip' } },
      { name: 'GET /songs (500) br', path: '/songs', headers: { 'accept-encoding': 'br' } },
      { name: 'GET /gigs (300)', path: '/gigs' },
      { name: 'GET /gigs/{id}/setlist (60)', path: `/gigs/${data.liveGigId}/setlist` },
      { name: 'GET /gigs_lm/{id}', path: `/gigs_lm/${data.liveGigId}` },
      {
        name: 'GET /gigs_lm/{id} gzip',
        path: `/gigs_lm/${data.liveGigId}`,
        headers: { 'accept-encoding': 'gzip' }
      },
      // What a phone's browser sends.
      {
        name: 'GET /gigs_lm/{id} br',
        path: `/gigs_lm/${data.liveGigId}`,
        headers: { 'accept-encoding': 'gzip, deflate, br' }
      },
      {
        name: 'GET /gigs_lm/{id} 304',
        path: `/gigs_lm/${data.liveGigId}`,
        headers: { 'if-none-match': etag },
        expect: 304
      },
      {
        name: 'PUT /gigs_lm/{id}/',
        path: `/gigs_lm/${data.liveGigId}/`,
        method: 'PUT',
        body: JSON.stringify({ entryId: data.liveEntryId, status: 'played', rating: 3 }),
        headers: { 'content-type': 'application/json' }
      },
      { name: 'GET /cal/ical/{token} (500)', path: `/cal/ical/${data.calendarToken}` }
    ]

    for (const endpoint of endpoints) {
      const requestHeaders = { ...headers, ...endpoint.headers }
      // fetch would ask for gzip by default: the sample must see what wrk will send.
      const sample = await fetch(base + endpoint.path, {
        method: endpoint.method ?? 'GET',
        headers: { 'accept-encoding': 'identity', ...requestHeaders },
        body: endpoint.body
      })
      const sampleBody = Buffer.from(await sample.arrayBuffer())
      const wireBytes = Number(sample.headers.get('content-length') ?? sampleBody.length)
      if (sample.status !== (endpoint.expect ?? 200)) {
        rows.push({
          name: endpoint.name,
          rps: 0,
          p50: 0,
          p99: 0,
          errors: 1,
          note: `answered ${sample.status}`
        })
        continue
      }
      const result = await load(
        {
          url: base + endpoint.path,
          method: endpoint.method ?? 'GET',
          headers: requestHeaders,
          body: endpoint.body
        },
        server.pid!
      )
      const row: Row = {
        name: endpoint.name,
        bytes: wireBytes,
        rps: Math.round(result.requests.average),
        p50: round(result.latency.p50),
        p99: round(result.latency.p99),
        errors: result.failed,
        serverCpu: result.serverCpu,
        loadCpu: result.loadCpu,
        steal: result.steal
      }
      if (
        endpoint.expect !== 304 &&
        (endpoint.method ?? 'GET') === 'GET' &&
        !endpoint.headers?.['accept-encoding']
      ) {
        await fetch(`${bareAddress}/body/${rows.length}`, {
          method: 'PUT',
          body: sampleBody,
          headers: { 'x-body-type': sample.headers.get('content-type') ?? 'application/json' }
        })
        const bareResult = await load({ url: `${bareAddress}/bare/${rows.length}` }, bare.pid!)
        row.bareRps = Math.round(bareResult.requests.average)
        row.bareP99 = round(bareResult.latency.p99)
        row.bareCpu = { server: bareResult.serverCpu, load: bareResult.loadCpu }
      }
      if (endpoint.expect === 304) {
        // Its bare route: the same empty 304 from bare Fastify, measured right after (the machine's
        // load changes from minute to minute).
        const bareResult = await load(
          { url: `${bareAddress}/floor/304`, headers: requestHeaders },
          bare.pid!
        )
        row.bareRps = Math.round(bareResult.requests.average)
        row.bareP99 = round(bareResult.latency.p99)
        row.bareCpu = { server: bareResult.serverCpu, load: bareResult.loadCpu }
      }
      rows.push(row)
    }

    // The floors of the 304 row (see bench/bare-server.ts): same headers, same connections.
    for (const [name, path, note] of [
      ['floor: bare Fastify, empty 304', '/floor/304', 'no hooks, no session check'],
      [
        'floor: bare + session lookup, 304',
        '/floor/session-304',
        'cookie + the one indexed lookup only'
      ]
    ] as const) {
      const result = await load(
        { url: bareAddress + path, headers: { ...headers, 'if-none-match': etag } },
        bare.pid!,
        { uncapped: true }
      )
      rows.push({
        name,
        bytes: 0,
        rps: Math.round(result.requests.average),
        p50: round(result.latency.p50),
        p99: round(result.latency.p99),
        errors: result.failed,
        serverCpu: result.serverCpu,
        loadCpu: result.loadCpu,
        steal: result.steal,
        note
      })
    }

    // Logging in is slow on purpose (scrypt) and limited to 10 per minute per IP: measure a few in
    // a row.
    const loginMs: number[] = []
    for (let i = 0; i < logins; i++) {
      const begun = performance.now()
      const answer = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: data.username, password: data.password })
      })
      await answer.arrayBuffer()
      if (answer.ok) loginMs.push(performance.now() - begun)
    }
    loginMs.sort((x, y) => x - y)
    rows.push({
      name: `POST /login (${logins} sequential)`,
      rps: Math.round(loginMs.length / (loginMs.reduce((sum, ms) => sum + ms, 0) / 1000)),
      p50: round(loginMs[Math.floor(loginMs.length / 2)] ?? 0),
      p99: round(loginMs[loginMs.length - 1] ?? 0),
      errors: logins - loginMs.length,
      note: 'scrypt; rate limit 10/min'
    })

    const rssEnd = rssMb(server.pid!)
    // The floor of the RSS bound: bare Fastify on the same node, after the same load.
    const rssBare = rssMb(bare.pid!)
    // Idle as long as a row ran, at most 5 s.
    await sleep(Math.min(5, duration) * 1000)
    const rssIdle = rssMb(server.pid!)
    print(rows, { startMs, rssStart, rssEnd, rssIdle, rssBare })
    mkdirSync(projectPath('bench', 'results'), { recursive: true })
    writeFileSync(
      projectPath('bench', 'results', 'latest.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          duration,
          connections,
          startMs,
          rssStart,
          rssEnd,
          rssIdle,
          rssBare,
          rows
        },
        null,
        2
      )
    )
  } finally {
    server.kill('SIGTERM')
    bare?.kill('SIGTERM')
    await sleep(200)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
