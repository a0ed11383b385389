/**
 * npm run bench — HTTP load against the built server (node dist/server.js) on a seeded database,
 * cookie-authenticated, compared with a bare Fastify route serving the same bytes. Then the
 * document renderers. BENCH_DURATION (seconds, default 10), BENCH_WARMUP (seconds before each row,
 * default 2) and BENCH_CONNECTIONS (default 50) tune it; CI runs a one-second smoke run. It
 * reports, it asserts nothing. BENCH_PARTS picks parts (see below). Its processes end with it,
 * also on a crash, SIGINT or SIGTERM (children.ts); BENCH_CRASH_AFTER_START=1 crashes it on purpose
 * once the server and the floor server run (test/scripts/bench-cleanup.test.ts).
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectPath } from '#src/project-path.js'
import { npmStartCommand } from '#test/server-process.js'
import { seedBenchData } from './seed-bench-data.js'
import { runDocumentBench } from './documents.js'
import { runSerializerBench } from './serializer.js'
import { printWebBundle } from './web-bundle.js'
import { runSetlistEditorBench } from './web-setlist-editor.js'
import { runLiveUiBench } from './live-ui.js'
import { runAddressFloodBench } from './address-flood.js'
import { runStageChartsBench } from './stage-charts.js'
import { runOfflineBench } from './offline.js'
import { runSetlistLimitsBench } from './setlist-limits.js'
import { runFilesBench } from './files.js'
import { stopChildren, stopChildrenOnExit, stoppingOnSignal } from './children.js'

interface WrkResult {
  requests: { average: number; total: number }
  /** Milliseconds. */
  latency: { p50: number; p99: number }
  /** Socket errors and error answers (status >= 400). */
  failed: number
}
const threads = Number(process.env.BENCH_THREADS ?? 1)

/**
 * BENCH_PARTS (comma-separated: http, serializer, documents, addresses, web, offline, limits,
 * files) runs only those parts; all by default.
 */
const ALL_PARTS = 'http,serializer,documents,addresses,web,offline,limits,files'
const parts = (process.env.BENCH_PARTS ?? ALL_PARTS).split(',')
const part = (name: string) => parts.includes(name)

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
// Every row is measured in steady state: the same load runs first for this long, uncounted, so the
// JIT has compiled the route's code (a cold route's first second of compiling lands in its p99).
// Gig night is hours of polling; the cold start has its own figure (start to first answer).
const warmup = Number(process.env.BENCH_WARMUP ?? 2)

/**
 * The load generator: wrk (C, one event loop per thread, never decodes a body), so a row measures
 * the server and not the client (whole seconds only). Debian's package is installed when missing.
 */
function ensureWrk (): void {
  if (spawnSync('wrk', ['--version']).error === undefined) return
  console.log('wrk is missing: installing Debian\'s package (apt-get install wrk)')
  const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || sudo apt-get install -y wrk'], {
    stdio: 'inherit'
  })
  if (install.status !== 0 || spawnSync('wrk', ['--version']).error !== undefined) {
    throw new Error('npm run bench needs wrk: apt-get install wrk')
  }
}

/** A Lua string literal (wrk scripts are Lua; the bench only sends ASCII). */
function lua (text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`not printable ASCII: ${text}`)
  return JSON.stringify(text)
}

/**
 * A wrk script: the request, and a summary (requests, latency percentiles in µs, socket errors,
 * answers with a status of 400 or more) printed as one JSON line after the run. No `response`
 * callback: with one, wrk would copy every body into Lua.
 */
function wrkScript (request: { method: string; headers: Record<string, string>; body?: string }) {
  return [
    `wrk.method = ${lua(request.method)}`,
    ...Object.entries(request.headers).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`),
    request.body === undefined ? '' : `wrk.body = ${lua(request.body)}`,
    'function done (summary, latency)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nBENCH {"requests":%d,"micros":%d,"p50":%d,"p99":%d,' +
      '"errors":%d}\\n\', summary.requests, summary.duration,' +
      ' latency:percentile(50), latency:percentile(99),' +
      ' e.connect + e.read + e.write + e.timeout + e.status))',
    'end'
  ].join('\n')
}

const scriptDir = mkdtempSync(join(tmpdir(), 'bandstand-wrk-'))

async function runWrk (url: string, script: string, seconds: number): Promise<WrkResult> {
  const file = join(scriptDir, 'request.lua')
  writeFileSync(file, script)
  const whole = `${Math.max(1, Math.round(seconds))}s`
  const wrk = spawn(
    'wrk',
    [`-t${threads}`, `-c${connections}`, `-d${whole}`, '--timeout', '10s', '-s', file, url],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  )
  let output = ''
  wrk.stdout!.on('data', (chunk) => (output += chunk))
  const [code] = (await once(wrk, 'exit')) as [number | null]
  const line = /^BENCH (.*)$/m.exec(output)?.[1]
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}):\n${output}`)
  const r = JSON.parse(line) as {
    requests: number
    micros: number
    p50: number
    p99: number
    errors: number
  }
  return {
    requests: { total: r.requests, average: r.requests / (r.micros / 1e6) },
    latency: { p50: r.p50 / 1000, p99: r.p99 / 1000 },
    failed: r.errors
  }
}

/** CPU seconds a process has used (utime + stime; Linux counts them in 1/100 s). */
function cpuSeconds (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** CPU seconds all wrk processes (the load generator) used so far: their children's times. */
function loadGeneratorSeconds (): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[13]) + Number(fields[14])) / 100
}

/**
 * Machine-wide CPU ticks, and those the hypervisor took for other guests (steal), from /proc/stat.
 */
function machineTicks (): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number)
  return { total: fields.reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 }
}

/**
 * wrk at the bench's load, after an uncounted warm-up. It also reports how busy the server and the
 * load generator were: a row whose server is well below 100 % of a core was limited by something
 * else than the server; a row with CPU stolen by the hypervisor (a shared VM) was slowed by other
 * guests.
 */
async function load (
  request: { url: string; method?: string; headers?: Record<string, string>; body?: string },
  serverPid: number
): Promise<WrkResult & { serverCpu: number; loadCpu: number; steal: number }> {
  const script = wrkScript({
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    body: request.body
  })
  let failed = 0
  if (warmup > 0) failed += (await runWrk(request.url, script, warmup)).failed
  const started = performance.now()
  const machineBefore = machineTicks()
  const serverBefore = cpuSeconds(serverPid)
  const loadBefore = loadGeneratorSeconds()
  const result = await runWrk(request.url, script, duration)
  const seconds = (performance.now() - started) / 1000
  const machineAfter = machineTicks()
  return {
    ...result,
    failed: failed + result.failed,
    serverCpu: Math.round(((cpuSeconds(serverPid) - serverBefore) / seconds) * 100),
    loadCpu: Math.round(((loadGeneratorSeconds() - loadBefore) / seconds) * 100),
    steal: Math.round(
      ((machineAfter.steal - machineBefore.steal) /
        Math.max(1, machineAfter.total - machineBefore.total)) *
        100
    )
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10

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

interface Row {
  name: string
  /** Bytes on the wire per answer (compressed where the row asks for it). */
  bytes?: number
  rps: number
  p50: number
  p99: number
  errors: number
  bareRps?: number
  /** Share of one core used by the server and by the load generator during the row. */
  serverCpu?: number
  loadCpu?: number
  /** Share of the machine's CPU the hypervisor gave to other guests during the row. */
  steal?: number
  /**
   * The bare route's p99 and CPU shares: what the same bytes cost without any of Bandstand's work.
   */
  bareP99?: number
  bareCpu?: { server: number; load: number }
  note?: string
}

async function main () {
  if (!part('http')) {
    try {
      return await runRest()
    } finally {
      rmSync(scriptDir, { recursive: true, force: true })
    }
  }
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
        bare.pid!
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
    for (let i = 0; i < 8; i++) {
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
      name: 'POST /login (8 sequential)',
      rps: Math.round(loginMs.length / (loginMs.reduce((sum, ms) => sum + ms, 0) / 1000)),
      p50: round(loginMs[Math.floor(loginMs.length / 2)] ?? 0),
      p99: round(loginMs[loginMs.length - 1] ?? 0),
      errors: 8 - loginMs.length,
      note: 'scrypt; rate limit 10/min'
    })

    const rssEnd = rssMb(server.pid!)
    // The floor of the RSS bound: bare Fastify on the same node, after the same load.
    const rssBare = rssMb(bare.pid!)
    await sleep(5000)
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

  // The wrk scripts' folder stays until the last part: the files part loads with wrk too.
  try {
    await runRest()
  } finally {
    rmSync(scriptDir, { recursive: true, force: true })
  }
}

/** Everything after the HTTP rows. */
async function runRest () {
  if (part('serializer')) await runSerializerBench()
  if (part('documents')) await runDocumentBench()
  if (part('addresses')) await runAddressFloodBench()
  if (part('web')) {
    printWebBundle()
    await runSetlistEditorBench()
    await runLiveUiBench()
    await runStageChartsBench()
  }
  if (part('offline')) await runOfflineBench()
  if (part('limits')) await runSetlistLimitsBench()
  if (part('files')) {
    ensureWrk()
    await runFilesBench(load)
  }
}

function print (
  rows: Row[],
  process: {
    startMs: number
    rssStart: number
    rssEnd: number
    rssIdle: number
    rssBare: number
  }
) {
  const cpu = cpus()[0]?.model ?? 'unknown cpu'
  console.log(
    `\nBandstand HTTP benchmark — ${cpus().length} cores (${cpu}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${processVersion()}, ` +
      `${connections} connections, ${duration} s each after a ${warmup} s warm-up\n`
  )
  const header = [
    'endpoint',
    'bytes',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'server CPU',
    'load CPU',
    'VM steal',
    'bare req/s',
    'bare p99',
    'bare CPU srv/load',
    'ratio'
  ]
  const lines = rows.map((r) =>
    [
      r.name,
      r.bytes === undefined ? '-' : String(r.bytes),
      String(r.rps),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      r.serverCpu === undefined ? '-' : `${r.serverCpu} %`,
      r.loadCpu === undefined ? '-' : `${r.loadCpu} %`,
      r.steal === undefined ? '-' : `${r.steal} %`,
      r.bareRps ? String(r.bareRps) : '-',
      r.bareP99 === undefined ? '-' : String(r.bareP99),
      r.bareCpu ? `${r.bareCpu.server}/${r.bareCpu.load} %` : '-',
      r.bareRps ? `${Math.round((r.rps / r.bareRps) * 100)} %` : '-'
    ].concat(r.note ? [r.note] : [])
  )
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)))
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]!) : c)).join('  ')
  console.log(format(header))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const line of lines) console.log(format(line))
  console.log(
    `\nstart to first answer: ${process.startMs} ms; RSS after start: ${process.rssStart} ` +
      `MB; RSS after run: ${process.rssEnd} MB; 5 s later: ${process.rssIdle} ` +
      `MB; bare Fastify's after its rows: ${process.rssBare} MB`
  )
  console.log(targets(rows, process.rssEnd))
  const { env, flags } = startCommand()
  console.log(
    `server started as npm start does: ${Object.entries(env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}node ${flags.join(' ')} dist/server.js\n`
  )
}
const processVersion = () => globalThis.process.version

/** The targets (2 cores, 50 connections) as ratios to the bare routes of the same run. */
function targets (rows: Row[], rssEnd: number): string {
  const row = (name: string) => rows.find((r) => r.name === name)
  const percent = (part = 0, whole = 0) => (whole > 0 ? Math.round((part / whole) * 100) : 0)
  const live = row('GET /gigs_lm/{id}')
  const notModified = row('GET /gigs_lm/{id} 304')
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met')
  const liveShare = percent(live?.rps, live?.bareRps)
  const p99Times = live?.bareP99 ? Math.round((live.p99 / live.bareP99) * 10) / 10 : 0
  const share304 = percent(notModified?.rps, notModified?.bareRps)
  const lists = ['GET /songs (500)', 'GET /gigs (300)'].map((name) => {
    const r = row(name)
    return { name, share: percent(r?.rps, r?.bareRps) }
  })
  return [
    '\nTargets:',
    `  live GET ${liveShare} % of bare (>= 25 %: ${mark(liveShare >= 25)}), ` +
      `p99 ${p99Times}x bare's (<= 3x: ${mark(p99Times > 0 && p99Times <= 3)})`,
    `  304 ${share304} % of bare Fastify's empty 304 (>= 40 %: ${mark(share304 >= 40)})`,
    ...lists.map((l) => `  ${l.name} ${l.share} % of bare (>= 40 %: ${mark(l.share >= 40)})`),
    `  RSS after the run ${rssEnd} MB (<= 120 MB: ${mark(rssEnd <= 120)})`
  ].join('\n')
}

stopChildrenOnExit()
try {
  await main()
} catch (error) {
  // Ended by SIGINT/SIGTERM: the signal's handler exits with its code (130/143), not 1.
  if (!stoppingOnSignal()) {
    console.error(error)
    // What a part started and did not stop (a server it failed to use) ends with the bench.
    await stopChildren()
    process.exit(1)
  }
}
