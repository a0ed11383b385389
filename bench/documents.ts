// Document and calendar benchmark: median render times of the pure renderers, the logo check at
// upload, and how GET /health answers while 2,000 document requests arrive at once at the server
// as `npm start` runs it. Run alone with `node --conditions=bandstand-source --import tsx
// bench/documents.ts` (after `npm run build`); bench/run.ts calls runDocumentBench().
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { Agent, get as httpGet } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { renderSetlistPdf } from '#src/documents/setlist-pdf.js'
import { renderSchedulePdf } from '#src/documents/schedule-pdf.js'
import { renderGemaXlsx } from '#src/documents/gema-xlsx.js'
import { renderIcal, type CalendarGig, type CalendarRehearsal } from '#src/documents/ical.js'
import { prepareLogo } from '#src/documents/logo.js'
import { encodePng, twoColourPng } from '#test/image-fixtures.js'
import { bigGig, contextFixture } from '#test/document-fixtures.js'
import { freePort, npmStartCommand, startServer } from '#test/server-process.js'
import {
  cpuSeconds,
  insertGig,
  JWT_SECRET,
  memory,
  memoryOf,
  resetPeakOf,
  seedDatabase
} from '#test/seeded-server.js'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

// BENCH_DOC_RUNS and BENCH_DOC_FLOOD shorten the CI smoke run; docs/performance.md uses the
// defaults.
const RUNS = Number(process.env.BENCH_DOC_RUNS ?? 20)
const FLOOD = Number(process.env.BENCH_DOC_FLOOD ?? 2000)

async function timeIt (
  label: string,
  fn: () => unknown,
  iterations = RUNS,
  // None in a one-run smoke: the row only has to print.
  warmup = RUNS > 1 ? Math.min(5, RUNS) : 0
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < iterations; i++) {
    const start = performance.now()
    await fn()
    samples.push(performance.now() - start)
  }
  const result = median(samples)
  console.log(
    `${label.padEnd(44)} median ${result.toFixed(1).padStart(7)} ms   (min ` +
      `${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)})`
  )
  return result
}

function calendarEvents (count: number): { gigs: CalendarGig[]; rehearsals: CalendarRehearsal[] } {
  const gigList: CalendarGig[] = []
  const rehearsalList: CalendarRehearsal[] = []
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)
    if (i % 2 === 0) {
      gigList.push({
        id: i,
        name: `Hochzeit Müller-Lüdenscheidt Nr. ${i}`,
        date,
        kind: 'Hochzeit',
        status: i % 10 === 0 ? 'cancelled' : 'confirmed',
        venueName: 'Schloss Weißenstein',
        venueAddress: 'Schloßstraße 1',
        venueCity: 'Großheubach',
        getInTime: '16:00',
        soundcheckTime: '17:30',
        doorsTime: '19:00',
        startTime: '20:00',
        endTime: '01:00',
        notes:
          'Parken hinter der Bühne; Strom über die Steckdose links, Catering ab 18 ' +
          'Uhr, bitte Notenständer mitbringen.',
        sequence: 2,
        updatedAt: '2026-01-01T00:00:00.000Z'
      })
    } else {
      rehearsalList.push({
        id: i,
        date,
        startTime: '19:30',
        endTime: '22:00',
        location: 'Proberaum Keller, Hauptstraße 5',
        notes: 'Neue Stücke: Über den Wolken',
        sequence: 0,
        updatedAt: '2026-01-01T00:00:00.000Z'
      })
    }
  }
  return { gigs: gigList, rehearsals: rehearsalList }
}

/** A 256-pixel two-colour logo, prepared as at upload. */
function logo () {
  const prepared = prepareLogo(twoColourPng([200, 40, 90], [250, 250, 250], 256))
  if (!prepared.ok) throw new Error(prepared.message)
  return { accent: prepared.accent, watermark: prepared.watermark }
}

const sourceConditions = process.execArgv.filter((arg) => arg.startsWith('--conditions='))

/** GET /health on one kept-alive connection every 10 ms until `until` settles; ms per probe. */
async function probeHealth (base: string, until: Promise<unknown>): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const probe = () =>
    new Promise<void>((resolve, reject) =>
      httpGet(`${base}/health`, { agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`/health answered ${res.statusCode}`))
        res.resume().on('end', resolve)
      }).on('error', reject))
  await probe()
  let running = true
  void until.finally(() => (running = false))
  const latencies: number[] = []
  // eslint-disable-next-line no-unmodified-loop-condition -- `until` settling clears it
  while (running) {
    const started = performance.now()
    await probe()
    latencies.push(performance.now() - started)
    await sleep(10)
  }
  agent.destroy()
  return latencies
}

/** bench/document-flood.ts in its own process: `count` requests at once. */
function flood (base: string, count: number, paths: string[], cookies: string[]) {
  return new Promise<{ statuses: Record<string, number>; seconds: number; cpuSeconds: number }>(
    (resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          ...sourceConditions,
          '--import',
          'tsx',
          new URL('./document-flood.ts', import.meta.url).pathname,
          JSON.stringify({ base, count, paths, cookies })
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] }
      )
      let output = ''
      child.stdout.on('data', (chunk) => (output += chunk))
      child.on('error', reject)
      child.on('exit', (code) =>
        code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`flood exited ${code}`)))
    }
  )
}

export interface FloodFigures {
  label: string
  statuses: Record<string, number>
  seconds: number
  /** CPU of the server process (all threads) per request, and of the load generator. */
  serverCpuMsPerRequest: number
  floodCpuSeconds: number
  healthP50: number
  healthP99: number
  healthMax: number
  probes: number
  rssBefore: number
  rssPeak: number
  rssAfter: number
}

/** One flood against a running server, /health probed meanwhile; prints and returns the figures. */
async function measureFlood (
  label: string,
  target: { base: string; pid: number },
  requests: number,
  paths: string[],
  cookies: string[]
): Promise<FloodFigures> {
  const status = () => memoryOf(target.pid)
  const rssBefore = status().rss
  resetPeakOf(target.pid)
  const cpuBefore = cpuSeconds(target.pid)
  const run = flood(target.base, requests, paths, cookies)
  const latencies = await probeHealth(target.base, run)
  const result = await run
  const serverCpu = cpuSeconds(target.pid) - cpuBefore
  // The RSS a second after the flood (a smoke run's few requests: a tenth of it).
  await sleep(requests >= 100 ? 1000 : 100)
  const figure: FloodFigures = {
    label,
    statuses: result.statuses,
    seconds: result.seconds,
    serverCpuMsPerRequest: (serverCpu * 1000) / requests,
    floodCpuSeconds: result.cpuSeconds,
    healthP50: percentile(latencies, 50),
    healthP99: percentile(latencies, 99),
    healthMax: Math.max(...latencies),
    probes: latencies.length,
    rssBefore,
    rssPeak: status().peak,
    rssAfter: status().rss
  }
  console.log(
    `GET /health while ${requests} requests arrive at once (${label}): ` +
      `p50 ${figure.healthP50.toFixed(1)} ms, p99 ${figure.healthP99.toFixed(1)} ms, max ` +
      `${figure.healthMax.toFixed(0)} ms (${figure.probes} probes); answers ` +
      `${JSON.stringify(figure.statuses)} within ${figure.seconds.toFixed(1)} s; server CPU ` +
      `${figure.serverCpuMsPerRequest.toFixed(2)} ms per request (load generator ` +
      `${figure.floodCpuSeconds.toFixed(1)} s); RSS ${figure.rssBefore.toFixed(0)} → peak ` +
      `${figure.rssPeak.toFixed(0)} → ${figure.rssAfter.toFixed(0)} MB`
  )
  return figure
}

/**
 * The target: GET /health while 2,000 document requests arrive at once, on the server as
 * `npm start` runs it (128 MB heap), 20 gigs of 60 songs, 50 members. The flood comes from another
 * process, each request on its own connection; /health is probed every 10 ms on a kept-alive
 * connection. Then the same flood against bare Fastify refusing everything at once: the floor of
 * what 2,000 connections cost on this machine. Both servers meet a first flood after their start
 * (cold code), measured apart from the following ones.
 */
export async function documentFlood (requests = FLOOD): Promise<FloodFigures[]> {
  const gigIds: number[] = []
  const seeded = await seedDatabase(50, (app) => {
    for (let i = 0; i < 20; i++) gigIds.push(insertGig(app, `Gig${i}`, 4, 15))
  })
  const server = await startServer({ DATA_DIR: seeded.dir, JWT_SECRET })
  const target = { base: server.base, pid: server.child.pid! }
  const setlists = gigIds.flatMap((id) => [
    `/gigs/${id}/setlist.pdf`,
    `/gigs/${id}/setlist.pdf?style=stage`
  ])
  const mixed = gigIds.flatMap((id) => [
    `/gigs/${id}/setlist.pdf`,
    `/gigs/${id}/schedule.pdf`,
    `/gigs/${id}/gema`
  ])
  const figures: FloodFigures[] = []
  try {
    // A second idle (a tenth in the smoke run's few requests, as after each flood below).
    const idle = await probeHealth(server.base, sleep(requests >= 100 ? 1000 : 100))
    console.log(
      `GET /health without load: p50 ${percentile(idle, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(idle, 99).toFixed(1)} ms`
    )
    // Measured in steady state like the HTTP rows: the first flood meets code the JIT has not
    // compiled yet (a fresh start; attack replay row 2 is about that case), printed on its own.
    const scenarios: Array<[string, string[], string[]]> = [
      ['first flood after the start (setlist PDFs, 50 members)', setlists, seeded.cookies],
      ['setlist PDFs, 40 documents, 50 members', setlists, seeded.cookies],
      ['setlist PDFs, 40 documents, one member', setlists, seeded.cookies.slice(0, 1)],
      ['setlist, schedule, GEMA: 60 documents, 50 members', mixed, seeded.cookies]
    ]
    for (const [label, paths, cookies] of scenarios) {
      figures.push(await measureFlood(label, target, requests, paths, cookies))
    }
    if (server.child.exitCode !== null) throw new Error(`the server died:\n${server.output()}`)
    if (requests >= 1000) {
      // Idle worker threads leave after a minute, and their memory with them.
      await sleep(65_000)
      console.log(`RSS a minute after the last document: ${memory(server).rss.toFixed(0)} MB`)
    }
  } finally {
    await server.stop()
    rmSync(seeded.dir, { recursive: true, force: true })
  }
  const bare = await startBareRefuser()
  try {
    for (const label of [
      'bare Fastify refusing all, first flood after the start',
      'floor: bare Fastify refusing all'
    ]) {
      figures.push(await measureFlood(label, bare, requests, setlists, seeded.cookies))
    }
  } finally {
    bare.child.kill('SIGTERM')
  }
  return figures
}

/** bench/bare-refuser.ts with the node options of `npm start`. */
async function startBareRefuser () {
  const port = await freePort()
  const start = npmStartCommand()
  const child = spawn(
    process.execPath,
    [
      ...start.args.slice(0, -1),
      // Plain node: it strips the types, and the refuser imports only Fastify.
      new URL('./bare-refuser.ts', import.meta.url).pathname
    ],
    { env: { ...process.env, ...start.env, PORT: String(port) }, stdio: 'inherit' }
  )
  const base = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {
      if (attempt > 300) throw new Error('bare-refuser did not start')
      await sleep(50)
    }
  }
  return { base, pid: child.pid!, child }
}

export async function runDocumentBench (): Promise<Record<string, number>> {
  console.log(
    '\n## Documents and calendar (render functions called directly; 20 runs after 5 warm-up runs)'
  )
  const gig = bigGig(4, 15)
  const live = bigGig(4, 15)
  live.liveUsed = true
  live.sets
    .flatMap((s) => s.entries)
    .forEach((e, i) => {
      e.status = i % 9 === 0 ? 'skipped' : 'played'
      e.rating = (i % 3) + 1
    })
  gig.schedule.push({
    id: 1,
    at: '2026-06-13T18:00',
    title: 'Abendessen',
    who: 'Band',
    where: 'Küche',
    notes: null
  })
  const ctx = contextFixture({ logo: logo() })
  const events = calendarEvents(500)
  const results: Record<string, number> = {}
  results.setlistPdf = await timeIt('setlist PDF, 60 songs in 4 sets (print)', () =>
    renderSetlistPdf(gig, ctx)
  )
  results.setlistPdfStage = await timeIt('setlist PDF, 60 songs, stage + live record', () =>
    renderSetlistPdf(live, ctx, 'stage')
  )
  results.schedulePdf = await timeIt('schedule PDF with logo watermark', () =>
    renderSchedulePdf(gig, ctx)
  )
  results.gema = await timeIt('GEMA xlsx, 60 works', () => renderGemaXlsx(live, ctx))
  // The largest logo accepted (16 MiB decoded, within the 2 MB upload), checked at upload (a
  // small one in the CI smoke run).
  const side = RUNS >= 10 ? 2048 : 256
  const pixels = new Uint8Array(side * side * 4)
  for (let i = 0; i < side * side; i++) {
    const [x, y] = [i % side >> 5, Math.floor(i / side) >> 5]
    pixels.set([(x * 37) % 256, (y * 59) % 256, ((x ^ y) * 23) % 256, x < 32 ? 255 : 128], i * 4)
  }
  const largest = encodePng({ width: side, height: side, pixels })
  if (!prepareLogo(largest).ok) throw new Error('the largest logo must be accepted')
  results.logoLargest = await timeIt(
    `logo check at upload, ${side}×${side} PNG (${(largest.length / 1e6).toFixed(2)} MB)`,
    () => prepareLogo(largest),
    Math.min(RUNS, 5),
    1
  )
  results.calendar = await timeIt('iCal feed, 500 events', () =>
    renderIcal({
      calendarName: 'Bench',
      language: 'de',
      timezone: 'Europe/Berlin',
      uidDomain: 'bench',
      now: new Date(),
      ...events
    })
  )
  for (const figure of await documentFlood()) {
    const key = figure.label.split(',')[0]!
    results[`health p99 (${key})`] = figure.healthP99
  }
  return results
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDocumentBench()
}
