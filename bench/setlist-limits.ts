/**
 * The largest answers a member can make the server build, at the limits (docs/security.md):
 * the gig's charts, its CSV, its charts.zip and setlist PDF, a songbook over its bound, and a
 * chart recalling its chorus as often as 64 KiB allow. Each row: the longest the event loop stood
 * still while the request ran (a 1 ms timer's gaps; monitorEventLoopDelay's p99 beside it), the
 * same for an idle span as long right after it (the baseline: a shared machine's noise), the most
 * CPU time the main thread itself spent in one gap (the longest synchronous slice, whatever the
 * other processes take), and how much the resident set grew. In process, on a fresh migrated
 * database, each route answered once before on a small gig. Part of
 * `npm run bench` (BENCH_PARTS=limits); also runs alone:
 * `node --conditions=bandstand-source --import tsx bench/setlist-limits.ts`.
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { inArray } from '#src/db/orm.js'
import { songs } from '#src/db/schema.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { MAX_GIG_CHART_BYTES } from '#schemas/charts.js'
import { MAX_ENTRIES_PER_SET, MAX_SETLIST_ENTRIES } from '#schemas/setlists.js'
import { parseChordPro } from '#shared/chords/chordpro.js'
import { createTestApp, userClient } from '#test/helpers.js'
import { createGig, insertSongs } from '#test/gig-fixtures.js'
import { recallBomb } from '#test/chart-bombs.js'

const run = promisify(execFile)

const WORDS = ['Stille', 'Nacht', 'heilige', 'alles', 'schläft', 'einsam', 'wacht', 'holder',
  'Knabe', 'im', 'lockigen', 'Haar', 'schlaf', 'in', 'himmlischer', 'Ruh', 'love', 'me', 'do']
const CHORDS = ['C', 'G/B', 'Am7', 'F', 'Dm', 'E7', 'Bb', 'Gsus4', 'Cmaj7', 'F#m7b5']

/**
 * A chart of about `bytes` UTF-8 bytes: chords over words, drawn by a fixed pseudo-random
 * sequence (`seed`), so that charts compress about as well as real ones, not to nothing.
 */
export function longChart (bytes: number, seed = 1): string {
  let state = seed
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % n
  }
  const lines: string[] = []
  let size = 0
  for (;;) {
    const line = Array.from({ length: 6 }, () =>
      `${next(3) ? '' : `[${CHORDS[next(CHORDS.length)]}]`}${WORDS[next(WORDS.length)]}`
    ).join(' ')
    if (size + Buffer.byteLength(line) + 1 > bytes) break
    lines.push(line)
    size += Buffer.byteLength(line) + 1
  }
  return lines.join('\n') + '\n'
}

interface LoopDelay {
  /** The longest gap between turns of a 1 ms timer (what a /health probe would have waited). */
  maxGap: number
  /**
   * The most CPU time the main thread spent in one such gap: the longest synchronous work on it,
   * without the time the machine's other processes took the core away (2 cores, many jobs).
   */
  maxGapCpu: number
  /** monitorEventLoopDelay's 99th percentile (ms). */
  p99: number
}

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage()
  return (user + system) / 1000
}

/** The event loop's delays while `run` works (and one more tick: a block at the end shows then). */
async function loopDelay<T> (run: () => Promise<T> | T): Promise<{ result: T; delay: LoopDelay }> {
  let last = performance.now()
  let lastCpu = threadCpuMs()
  let maxGap = 0
  let maxGapCpu = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    const cpu = threadCpuMs()
    maxGap = Math.max(maxGap, now - last)
    maxGapCpu = Math.max(maxGapCpu, cpu - lastCpu)
    last = now
    lastCpu = cpu
  }, 1)
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  await sleep(5)
  histogram.enable()
  last = performance.now()
  lastCpu = threadCpuMs()
  maxGap = 0
  maxGapCpu = 0
  const result = await run()
  await sleep(5)
  histogram.disable()
  clearInterval(ticker)
  return { result, delay: { maxGap, maxGapCpu, p99: histogram.percentile(99) / 1e6 } }
}

/**
 * One row: how long `run` took; the longest the event loop stood still meanwhile and the most CPU
 * time the main thread spent in one gap; the same for an idle span as long right after it (the
 * baseline: the machine's own noise at its current load); how much the resident set grew.
 */
async function measure<T> (name: string, run: () => Promise<T> | T): Promise<T> {
  const rss = process.memoryUsage.rss()
  const started = performance.now()
  const { result, delay } = await loopDelay(run)
  const ms = performance.now() - started
  const grown = (process.memoryUsage.rss() - rss) / 1024 / 1024
  const idle = (await loopDelay(() => sleep(Math.max(50, ms)))).delay
  const f = (n: number) => n.toFixed(0).padStart(4)
  const sign = (n: number) => `${n < 0 ? '−' : '+'}${f(Math.abs(n))}`
  console.log(
    `${name.padEnd(48)} ${f(ms)} ms | blocked ${f(delay.maxGap)} ms (idle ${f(idle.maxGap)}, ` +
      `${sign(delay.maxGap - idle.maxGap)}) | CPU slice ${f(delay.maxGapCpu)} ms ` +
      `(idle ${f(idle.maxGapCpu)}) | p99 ${f(delay.p99)} (idle ${f(idle.p99)}) | ` +
      `RSS +${grown.toFixed(0)} MiB`
  )
  return result
}

export async function runSetlistLimitsBench (): Promise<void> {
  const ctx = await createTestApp()
  try {
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia')
    // The charts answer at its cap: as many different songs at 64 KiB as fit in 8 MiB, the
    // rest of the longest setlist plays them again.
    const distinct = Math.floor(MAX_GIG_CHART_BYTES / MAX_CHART_BYTES)
    const ids = insertSongs(ctx.app, distinct)
    ctx.app.db.transaction((tx) => {
      for (const id of ids) {
        tx.update(songs).set({ chart: longChart(MAX_CHART_BYTES, id) })
          .where(inArray(songs.id, [id])).run()
      }
    })
    const entries = Array.from({ length: MAX_SETLIST_ENTRIES }, (_, i) =>
      ({ songId: ids[i % distinct]! }))
    const sets = Array.from({ length: MAX_SETLIST_ENTRIES / MAX_ENTRIES_PER_SET }, (_, i) => ({
      name: `Set ${i + 1}`,
      entries: entries.slice(i * MAX_ENTRIES_PER_SET, (i + 1) * MAX_ENTRIES_PER_SET)
    }))
    const big = await createGig(editor, { name: 'Longest' })
    const saved = await editor.put(`/gigs/${big.id}/setlist`, { version: 0, sets })
    if (saved.statusCode !== 200) throw new Error(saved.body)
    // The CSV repeats each entry's chart: its cap is reached by one pass over the songs.
    const csvGig = await createGig(editor, { name: 'CSV' })
    await editor.put(`/gigs/${csvGig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'Set 1', entries: ids.map((songId) => ({ songId })) }]
    })

    // Over real HTTP from another process (curl): app.inject runs a request without ever
    // yielding to timers, and a client in this process would count its own work.
    const base = await ctx.app.listen({ host: '127.0.0.1', port: 0 })
    const cookie = member.jar.header()
    // A failure names the request, curl's own message (-sS) and the status.
    const get = async (path: string, encoding = 'identity', expected = 200) => {
      const request = `GET ${path} (accept-encoding: ${encoding})`
      const { stdout } = await run('curl', [
        '-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}',
        '-H', `cookie: ${cookie}`, '-H', `accept-encoding: ${encoding}`, `${base}${path}`
      ]).catch((error: Error & { code?: number; stderr?: string }) => {
        throw new Error(`${request}: curl exited ${error.code}: ${error.stderr?.trim()}`)
      })
      const [status, bytes] = stdout.split(' ').map(Number)
      if (status !== expected) throw new Error(`${request}: ${status}, expected ${expected}`)
      return { status: status!, bytes: bytes! }
    }
    // Every route once on a small gig first: the rows show a server that has answered each kind
    // of request before (a first request also compiles its code and statements).
    // Short charts: the code is what is warmed, and a songbook of 64 KiB charts took a niced
    // worker 30-50 s on a loaded machine.
    const small = await createGig(editor, { name: 'Warm-up' })
    const shortIds = insertSongs(ctx.app, 3)
    ctx.app.db.update(songs).set({ chart: longChart(2048) })
      .where(inArray(songs.id, shortIds)).run()
    await editor.put(`/gigs/${small.id}/setlist`, {
      version: 0, sets: [{ name: 'Set 1', entries: shortIds.map((songId) => ({ songId })) }]
    })
    for (const path of ['charts', 'setlist.csv', 'charts.zip', 'setlist.pdf', 'songbook.pdf']) {
      await get(`/gigs/${small.id}/${path}`, 'br')
    }
    console.log(`\n## Answers at the limits (${MAX_SETLIST_ENTRIES} entries, ` +
      `${distinct} charts of 64 KiB = 8 MiB; curl as the client). "blocked": the longest gap ` +
      'of a 1 ms timer, against an idle span as long right after; "CPU slice": the most ' +
      "main-thread CPU time in one gap (the machine's other jobs excluded)")
    const charts = await measure('GET /gigs/{id}/charts, br', () =>
      get(`/gigs/${big.id}/charts`, 'br'))
    await measure('GET /gigs/{id}/charts, gzip', () => get(`/gigs/${big.id}/charts`, 'gzip'))
    await measure('GET /gigs/{id}/charts, uncompressed', () => get(`/gigs/${big.id}/charts`))
    await measure('GET /gigs/{id}/setlist.csv (8 MiB of charts)', () =>
      get(`/gigs/${csvGig.id}/setlist.csv`))
    const over = await measure('GET /gigs/{id}/setlist.csv, over the cap (413)', () =>
      get(`/gigs/${big.id}/setlist.csv`, 'identity', 413))
    const zip = await measure('GET /gigs/{id}/charts.zip (8 MiB of charts)', () =>
      get(`/gigs/${csvGig.id}/charts.zip`))
    const pdf = await measure(`GET /gigs/{id}/setlist.pdf (${MAX_SETLIST_ENTRIES} entries)`, () =>
      get(`/gigs/${big.id}/setlist.pdf`))
    const book = await measure('GET /gigs/{id}/songbook.pdf, over its bound (413)', () =>
      get(`/gigs/${csvGig.id}/songbook.pdf`, 'identity', 413))
    console.log(`  charts: ${charts.bytes} B sent with br; the CSV over the cap: ${over.status}; ` +
      `zip ${zip.status} ${zip.bytes} B; setlist PDF ${pdf.status}; songbook ${book.status}`)
    await measure('(calibration: 100 ms of work on the main thread)', () => {
      const until = performance.now() + 100
      while (performance.now() < until);
    })
    // 300 chorus lines recalled ~7,100 times: 2.1 million lines without the recall limits.
    const bomb = recallBomb()
    await measure('parseChordPro, a 64 KiB chart recalling its chorus 7,100×', () =>
      parseChordPro(bomb))
  } finally {
    await ctx.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runSetlistLimitsBench()
