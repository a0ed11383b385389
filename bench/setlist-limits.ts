/**
 * The largest answers a member can make the server build, at the limits (docs/security.md →
 * "Limits"): the gig's charts, its CSV and a chart recalling its chorus as often as 64 KiB allow.
 * Each row: the longest the event loop stood still while the request ran (a 1 ms timer's gaps)
 * and how much the resident set grew. In process, on a fresh migrated database. Part of
 * `npm run bench` (BENCH_PARTS=limits); also runs alone:
 * `node --conditions=bandstand-source --import tsx bench/setlist-limits.ts`.
 */
import { execFile } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { inArray } from 'drizzle-orm'
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

/**
 * The longest gap between turns of a 1 ms timer while `run` works: how long a /health probe or a
 * live tap would have waited. (perf_hooks' monitorEventLoopDelay missed a 100 ms block here.)
 */
async function measure<T> (name: string, run: () => Promise<T> | T): Promise<T> {
  let last = performance.now()
  let worst = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last)
    last = now
  }, 1)
  const rss = process.memoryUsage.rss()
  await new Promise((resolve) => setTimeout(resolve, 5))
  last = performance.now()
  const started = performance.now()
  const result = await run()
  const ms = performance.now() - started
  // One more turn: a block at the very end shows when the next tick comes.
  await new Promise((resolve) => setTimeout(resolve, 5))
  clearInterval(ticker)
  const grown = (process.memoryUsage.rss() - rss) / 1024 / 1024
  console.log(
    `${name.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms   event loop blocked at most ` +
      `${worst.toFixed(0).padStart(4)} ms   RSS +${grown.toFixed(0)} MiB`
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
    for (const id of ids) {
      ctx.app.db.update(songs).set({ chart: longChart(MAX_CHART_BYTES, id) })
        .where(inArray(songs.id, [id])).run()
    }
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
    const get = async (path: string, encoding = 'identity') => {
      const { stdout } = await run('curl', [
        '-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}',
        '-H', `cookie: ${cookie}`, '-H', `accept-encoding: ${encoding}`, `${base}${path}`
      ])
      const [status, bytes] = stdout.split(' ').map(Number)
      return { status: status!, bytes: bytes! }
    }
    console.log(`\n## Answers at the limits (${MAX_SETLIST_ENTRIES} entries, ` +
      `${distinct} charts of 64 KiB = 8 MiB; curl as the client)`)
    const charts = await measure('GET /gigs/{id}/charts, first build, br', () =>
      get(`/gigs/${big.id}/charts`, 'br'))
    await measure('GET /gigs/{id}/charts, from the cache, gzip', () =>
      get(`/gigs/${big.id}/charts`, 'gzip'))
    await measure('GET /gigs/{id}/setlist.csv (8 MiB of charts)', () =>
      get(`/gigs/${csvGig.id}/setlist.csv`))
    const over = await measure('GET /gigs/{id}/setlist.csv, over the cap (413)', () =>
      get(`/gigs/${big.id}/setlist.csv`))
    console.log(`  charts: ${charts.bytes} B sent with br; the CSV over the cap: ${over.status}`)
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
