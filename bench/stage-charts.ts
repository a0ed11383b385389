// The songbook on stage (docs/performance.md): what the chart code weighs, how long parsing and
// rendering a 300-line chart and a page turn take on a phone with the CPU throttled 4×, and
// GET /gigs/{id}/charts for 40 songs. Reported, never asserted. Needs the built app and Debian's
// Chromium. Alone: `node --conditions=bandstand-source --import tsx bench/stage-charts.ts`.
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { projectPath } from '#src/project-path.js'
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { launchBrowser } from '#test/browser/harness.js'
import { phoneOf } from '#test/browser/live-fixture.js'
import { measureWebBundle } from './web-bundle.js'

const SONGS = 40
const LINES = 300
const ROUNDS = Number(process.env.BENCH_STAGE_ROUNDS ?? 15)
const REQUESTS = Number(process.env.BENCH_STAGE_REQUESTS ?? 300)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!
const ms = (value: number) => `${value.toFixed(2)} ms`

/** A chart as bands write them: sections, choruses, chords on most lines. */
function chartOf (lines: number): string {
  const out = ['{title: Bench}', '{key: G}']
  for (let i = 0; out.length < lines; i++) {
    if (i % 12 === 0) out.push(i % 24 === 0 ? '{soc}' : '{sov}')
    out.push(`[G]Line ${i} of the [C]song, [D7/F#]it goes [Em]on and [H7]on`)
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

export async function runStageChartsBench (): Promise<void> {
  const codeGz = await chartCodeBytes()
  const live = measureWebBundle().routes.find((r) => r.route === '/gigs/[id]/live')
  console.log('\n## Stage view (charts)')
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB gzip`
  console.log(`chart parser + transposer (src/shared/chords): ${kb(codeGz)}`)
  if (live) {
    console.log(`live route adds after the dashboard: ${kb(live.addedGzipBytes)}`)
  }

  const band = await startBand()
  const browser = await launchBrowser()
  try {
    const chart = chartOf(LINES)
    const ids: number[] = []
    for (let n = 1; n <= SONGS; n++) {
      const song = await band.editor.ok('POST', '/songs', {
        title: `Chart ${n}`, key: 'G-Dur', tempoBpm: 100, chart
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
    const timed = async () => {
      const start = performance.now()
      const response = await fetch(url, { headers })
      await response.arrayBuffer()
      return performance.now() - start
    }
    const cold = await timed()
    const warm: number[] = []
    for (let i = 0; i < REQUESTS; i++) warm.push(await timed())
    const rebuilt: number[] = []
    for (let i = 0; i < 20; i++) {
      // Any write changes the database revision: the next read builds the document again.
      await band.editor.ok('PATCH', `/songs/${ids[0]}`, { tempoBpm: 100 + (i % 2) })
      rebuilt.push(await timed())
    }
    const bytes = (await (await fetch(url, { headers })).arrayBuffer()).byteLength
    console.log(
      `GET /gigs/{id}/charts, ${SONGS} songs × ${LINES} lines (${(bytes / 1024).toFixed(0)} KB): ` +
        `first ${ms(cold)}, warm median ${ms(median(warm))} p95 ${ms(p95(warm))}, ` +
        `rebuilt after a write median ${ms(median(rebuilt))}`
    )

    // The stage view on a phone, CPU throttled 4×.
    const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
    await mia.page.goto(`${band.base}/app/gigs/${gig.id}/live`)
    await mia.page.getByRole('region', { name: 'Chart' }).locator('.chord').first().waitFor()
    const cdp = await mia.context.newCDPSession(mia.page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    // A macrotask without timer clamping: Svelte's update (a microtask) has run, then layout.
    const measure = (action: string) => `(async () => {
      const next = () => new Promise((r) => {
        const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0)
      })
      const pager = document.querySelector('.pager')
      const t0 = performance.now();
      ${action};
      await next()
      void pager.scrollHeight
      const t1 = performance.now()
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
      return t1 - t0
    })()`
    const render: number[] = []
    const turns: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const name = i % 2 ? 'Transpose down' : 'Transpose up'
      const click = '[...document.querySelectorAll("button")]' +
        `.find((b) => b.textContent.trim() === ${JSON.stringify(name)}).click()`
      render.push((await mia.page.evaluate(measure(click))) as number)
    }
    await mia.page.locator('h1').click()
    for (let i = 0; i < ROUNDS; i++) {
      const key = i % 4 === 3 ? 'PageUp' : 'PageDown'
      const press = 'window.dispatchEvent(new KeyboardEvent("keydown", ' +
        `{ key: ${JSON.stringify(key)}, bubbles: true }))`
      turns.push((await mia.page.evaluate(measure(press))) as number)
    }
    console.log(
      `parse + transpose + render a ${LINES}-line chart (CPU 4×, phone): median ` +
        `${ms(median(render))}, max ${ms(Math.max(...render))} (target ≤ 16 ms)`
    )
    console.log(
      `page turn (pedal key → scrolled and laid out, CPU 4×): median ${ms(median(turns))}, ` +
        `max ${ms(Math.max(...turns))} (target ≤ one frame, 16 ms)`
    )
    await mia.context.close()
  } finally {
    await browser.close()
    await band.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runStageChartsBench()
