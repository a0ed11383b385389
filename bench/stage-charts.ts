// The songbook on stage (docs/performance.md): what the chart code weighs, how long showing
// a 300-line chart, transposing it and a page turn take on a phone with the CPU throttled 4× (and
// unthrottled in the same run: the ratio tells the code's cost from a busy machine's), and GET
// /gigs/{id}/charts for 40 songs beside a bare Fastify route serving the same bytes. Each figure
// carries the load average it was measured under. Reported, never asserted. Needs the built app and
// Debian's Chromium. Alone:
// `node --conditions=bandstand-source --import tsx bench/stage-charts.ts`.
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { projectPath } from '#src/project-path.js'
import { dayFromNow } from '#test/browser/api-client.js'
import { phoneOf } from '#test/browser/live-fixture.js'
import { measureWebBundle } from './web-bundle.js'
import { benchBand, benchBrowser, endBrowserParts, releaseBrowser } from './shared-browser.js'

const SONGS = 40
const LINES = 300
// Each timed song change and transposition shows a chart not shown before (nothing cached): four
// series of ROUNDS songs, at 1× and 4×, must fit into the setlist.
const ROUNDS = Math.min(Number(process.env.BENCH_STAGE_ROUNDS ?? 9), Math.floor((SONGS - 1) / 4))
const TURNS = Number(process.env.BENCH_STAGE_TURNS ?? 15)
const REQUESTS = Number(process.env.BENCH_STAGE_REQUESTS ?? 50)
/** Reads after a write (each builds the 684 KB document again), and the bare route's warm-up. */
const REBUILDS = Math.min(20, REQUESTS)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!
const ms = (value: number) => `${value.toFixed(2)} ms`
/** The 1-minute load average: 2 cores shared by many; a figure over budget may be the load. */
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!

/** A chart as bands write them: sections, choruses, chords on most lines; `n` makes it unique. */
export function chartOf (lines: number, n: number): string {
  const out = [`{title: Bench ${n}}`, '{key: G}']
  for (let i = 0; out.length < lines; i++) {
    if (i % 12 === 0) out.push(i % 24 === 0 ? '{soc}' : '{sov}')
    out.push(`[G]Line ${i} of song ${n}, [C]the [D7/F#]song goes [Em]on and [H7]on`)
    if (i % 12 === 11) out.push(i % 24 === 11 ? '{eoc}' : '{eov}')
  }
  return out.join('\n')
}

/** The parser and transposer alone, minified and gzipped as the app ships them. */
async function chartCodeBytes (): Promise<number> {
  const result = await build({
    entryPoints: [projectPath('src', 'shared', 'chords', 'index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false
  })
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length
}

/** The same bytes from a bare Fastify route (bench/bare-server.ts), its own process. */
async function bareRoute (bytes: ArrayBuffer): Promise<{ url: string; stop: () => void }> {
  // Plain node (it strips the types; `#src/` resolves to the build), without tsx's loader.
  const bare = fork(projectPath('bench', 'bare-server.ts'), { execArgv: [], stdio: 'inherit' })
  const [message] = (await once(bare, 'message')) as [{ address: string }]
  await fetch(`${message.address}/body/charts`, { method: 'PUT', body: bytes })
  return { url: `${message.address}/bare/charts`, stop: () => bare.kill('SIGTERM') }
}

// A macrotask without timer clamping: Svelte's update (a microtask) has run, then layout: the
// first screen, checked to fill the pager (the third value). The chart view adds the rest of a
// long chart after the first paint, one piece a task, and is aria-busy until then: the second
// figure is until the whole chart is in the page.
const measure = (action: string) => `(async () => {
  const next = () => new Promise((r) => {
    const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0)
  })
  const pager = document.querySelector('.pager')
  const t0 = performance.now();
  ${action};
  await next()
  // The first screen is full when the chart's first piece reaches past the pager's bottom: the
  // bottom of the shown chart's last element (the song before may still lie under it, covered,
  // and fill the pager by itself; the covering chart is at least the pager's height).
  const shown = document.querySelector('.chart > div:not([aria-hidden])')
  const last = shown && shown.lastElementChild
  const full = last !== null &&
    last.getBoundingClientRect().bottom > pager.getBoundingClientRect().bottom
  const t1 = performance.now()
  const busy = () => document.querySelector('.chart[aria-busy]')
  if (busy()) {
    await new Promise((r) => {
      const o = new MutationObserver(() => { if (!busy()) { o.disconnect(); r() } })
      o.observe(busy(), { attributes: true })
    })
  }
  const t2 = performance.now()
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
  return [t1 - t0, t2 - t0, full ? 1 : 0]
})()`
const click = (name: string) => '[...document.querySelectorAll("button")]' +
  `.find((b) => b.textContent.trim() === ${JSON.stringify(name)}).click()`
const press = (key: string) => 'window.dispatchEvent(new KeyboardEvent("keydown", ' +
  `{ key: ${JSON.stringify(key)}, bubbles: true }))`

interface Series {
  median: number;
  max: number;
  whole: number;
  load: string
  /** Of the actions, how many had the screen full of chart at the first figure's end. */
  full: number;
  count: number
}

async function series (rounds: number, action: (i: number) => Promise<number[]>):
Promise<Series> {
  const values: number[] = []
  const whole: number[] = []
  let full = 0
  for (let i = 0; i < rounds; i++) {
    const [first = 0, all = 0, filled = 0] = await action(i)
    values.push(first)
    whole.push(all)
    full += filled
  }
  return {
    median: median(values),
    max: Math.max(...values),
    whole: median(whole),
    load: load(),
    full,
    count: rounds
  }
}

export async function runStageChartsBench (): Promise<void> {
  const codeGz = await chartCodeBytes()
  const bundle = measureWebBundle()
  const live = bundle.routes.find((r) => r.route === '/gigs/[id]/live')
  // A string only the ChordPro parser holds: in a first-screen file, the chart code would be there.
  const onFirstScreen = bundle.firstScreen.names.filter((file) =>
    readFileSync(projectPath('dist', 'web', file), 'utf8').includes('start_of_chorus'))
  console.log('\n## Stage view (charts)')
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB gzip`
  console.log(`chart parser + transposer (src/shared/chords): ${kb(codeGz)}`)
  if (live) {
    // The budget is the chart code's: the files the live route adds that hold it (the
    // parser's directive names; its chunk holds the transposer and the chart view too).
    const chartFiles = live.addedNames.filter((file) =>
      readFileSync(projectPath('dist', 'web', file), 'utf8').includes('start_of_chorus'))
    const chartGz = chartFiles.reduce((sum, file) =>
      sum + gzipSync(readFileSync(projectPath('dist', 'web', file)), { level: 9 }).length, 0)
    console.log(`live route adds after the dashboard: ${kb(live.addedGzipBytes)} (the live ` +
      `page with its setlist and chart); of it the chart code's files (${chartFiles.length}): ` +
      `${kb(chartGz)} (target ≤ 25 KB)`)
  }
  console.log(`chart code on the first screen: ${onFirstScreen.length === 0
    ? 'none (target: none)'
    : onFirstScreen.join(', ')}`)

  const band = await benchBand()
  const browser = await benchBrowser()
  let bare: { url: string; stop: () => void } | undefined
  try {
    const ids: number[] = []
    for (let n = 1; n <= SONGS; n++) {
      const song = await band.editor.ok('POST', '/songs', {
        title: `Chart ${n}`, key: 'G', tempoBpm: 100, chart: chartOf(LINES, n)
      })
      ids.push(song.id)
    }
    const gig = await band.editor.ok('POST', '/gigs', {
      name: 'Bench Night', date: dayFromNow(0), status: 'confirmed', startTime: '20:00'
    })
    await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'Set 1', entries: ids.map((songId, i) => ({ songId, transpose: i % 5 })) }]
    })

    // GET /gigs/{id}/charts over loopback: built once after a write, then from the cache.
    const url = `${band.base}/gigs/${gig.id}/charts`
    const headers = { cookie: band.editor.cookie }
    const timed = async (target = url) => {
      const start = performance.now()
      const response = await fetch(target, { headers })
      await response.arrayBuffer()
      return performance.now() - start
    }
    const cold = await timed()
    const warm: number[] = []
    for (let i = 0; i < REQUESTS; i++) warm.push(await timed())
    const warmLoad = load()
    const body = await (await fetch(url, { headers })).arrayBuffer()
    bare = await bareRoute(body)
    const bareTimes: number[] = []
    for (let i = 0; i < Math.min(5, REQUESTS); i++) await timed(bare.url)
    for (let i = 0; i < REQUESTS; i++) bareTimes.push(await timed(bare.url))
    const rebuilt: number[] = []
    for (let i = 0; i < REBUILDS; i++) {
      // Any write changes the database revision: the next read builds the document again.
      await band.editor.ok('PATCH', `/songs/${ids[0]}`, { tempoBpm: 100 + (i % 2) })
      rebuilt.push(await timed())
    }
    console.log(
      `GET /gigs/{id}/charts, ${SONGS} songs × ${LINES} lines (${(body.byteLength / 1024)
        .toFixed(0)} KB): first ${ms(cold)}, warm median of ${REQUESTS} ${ms(median(warm))} ` +
        `p95 ${ms(p95(warm))} (target ≤ 20 ms), bare route with the same bytes ` +
        `${ms(median(bareTimes))} (× ${(median(warm) / median(bareTimes)).toFixed(1)}); ` +
        `rebuilt after a write median ${ms(median(rebuilt))}; load ${warmLoad}`
    )

    // The stage view on a phone: unthrottled, then the CPU throttled 4×.
    const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
    const page = mia.page
    await page.goto(`${band.base}/app/gigs/${gig.id}/live`)
    await page.getByRole('region', { name: 'Chart' }).locator('.chord').first().waitFor()
    const cdp = await mia.context.newCDPSession(page)
    const run = (action: string) => page.evaluate(measure(action)) as Promise<number[]>
    const results: Record<number, { open: Series; transpose: Series; turn: Series; idle: Series }> =
      {}
    for (const rate of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      // A song not shown before: its chart parsed, transposed and laid out.
      const open = await series(ROUNDS, () => run(click('Next song')))
      // A personal transposition of a song not transposed before (moved to untimed).
      const transpose = await series(ROUNDS, async (i) => {
        await run(click('Next song'))
        return run(click(i % 2 ? 'Transpose down' : 'Transpose up'))
      })
      await page.evaluate('document.querySelector(".pager").scrollTo(0, 0)')
      await page.locator('h1').click()
      const turn = await series(TURNS, (i) => run(press(i % 4 === 3 ? 'PageUp' : 'PageDown')))
      // The baseline of the same run: the same measurement around no action at all (a task,
      // a layout with nothing changed): what the harness and the busy machine cost by themselves.
      const idle = await series(TURNS, () => run('void 0'))
      results[rate] = { open, transpose, turn, idle }
    }
    const row = (name: string, pick: (r: typeof results[number]) => Series, target: string,
      whole = false) => {
      const slow = pick(results[4]!)
      const fast = pick(results[1]!)
      console.log(
        `${name} (phone, CPU 4×): median ${ms(slow.median)}, max ${ms(slow.max)} (${target}); ` +
          `unthrottled ${ms(fast.median)}, ratio × ${(slow.median / fast.median).toFixed(1)}; ` +
          (whole
            ? `screen full of chart at the first figure in ${slow.full + fast.full} of ` +
              `${slow.count + fast.count}; whole chart in the page after ${ms(slow.whole)} ` +
              `(1×: ${ms(fast.whole)}); `
            : '') +
          `load ${slow.load}`
      )
    }
    row(`show a ${LINES}-line chart not shown before (parse + transpose + first screen)`,
      (r) => r.open, 'target ≤ 16 ms', true)
    row(`transpose the ${LINES}-line chart on screen`, (r) => r.transpose, 'target ≤ 16 ms')
    row('page turn (pedal key → scrolled and laid out)', (r) => r.turn,
      'target ≤ one frame, 16.7 ms')
    row('baseline: the same measurement around no action', (r) => r.idle, 'no target')
    await mia.context.close()
  } finally {
    bare?.stop()
    await releaseBrowser(browser)
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runStageChartsBench().finally(endBrowserParts)
}
