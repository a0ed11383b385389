/**
 * Live mode in a real browser, reported, never asserted: an editor's tap until it
 * shows on two members' phones (50 taps, p50/p95/max; budget p95 ≤ 300 ms on loopback), the first
 * render of the live page with the CPU throttled 4× (budget ≤ 1 s), the server restarted mid-show
 * until every phone shows the current state again (target ≤ 5 s), and the JavaScript the live route
 * adds to the first screen's (budget ≤ 40 KB gzip). Runs the built server (test/server-process.ts)
 * and Debian's Chromium, as the browser tests do.
 */
import { cpus, loadavg } from 'node:os'
import {
  currentEntry,
  editorLogin,
  percentile,
  liveBandOn,
  phoneOf,
  tapAndFollow
} from '#test/browser/live-fixture.js'
import { measureWebBundle } from './web-bundle.js'
import { benchBand, benchBrowser, endBrowserParts, releaseBrowser } from './shared-browser.js'

// BENCH_LIVE_TAPS and BENCH_LIVE_RENDERS shorten it (the CI smoke run).
const TAPS = Number(process.env.BENCH_LIVE_TAPS ?? 50)
const RENDERS = Number(process.env.BENCH_LIVE_RENDERS ?? 5)
const LIVE_ROUTE = '/gigs/[id]/live'

const stats = (values: number[]) =>
  `p50 ${percentile(values, 50)} ms, p95 ${percentile(values, 95)} ms, ` +
  `max ${Math.max(...values)} ms (n = ${values.length})`

export async function runLiveUiBench (): Promise<void> {
  // The bench's shared band, with tonight's gig added (a server start and a band fewer).
  const band = await liveBandOn(await benchBand())
  const browser = await benchBrowser()
  try {
    const url = `${band.base}/app/gigs/${band.liveGig.id}/live`
    const editor = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
    const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
    const tom = await phoneOf(browser, band.base, band.tom.username, band.tom.password)
    for (const phone of [editor, mia, tom]) {
      await phone.page.goto(url)
      await currentEntry(phone.page).waitFor()
    }

    // First render: navigation start until the current song is on screen, recorded by the page
    // itself (a MutationObserver from the first script on); CPU throttled 4×, and unthrottled
    // as the reference of the same run (the machine is shared: see the load average).
    const firstRender = async (rate: number) => {
      const page = await mia.context.newPage()
      const cdp = await mia.context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      await page.addInitScript(`(() => {
        new MutationObserver((records, observer) => {
          if (document.querySelector('.now-card [data-entry-id]')) {
            window.__firstRender = performance.now()
            observer.disconnect()
          }
        }).observe(document, { subtree: true, childList: true })
      })()`)
      await page.goto(url)
      await currentEntry(page).waitFor()
      const ms = Math.round((await page.evaluate('window.__firstRender')) as number)
      await page.close()
      return ms
    }
    const renders: number[] = []
    const unthrottled: number[] = []
    const load = loadavg()[0]!
    for (let n = 0; n < RENDERS; n++) {
      renders.push(await firstRender(4))
      unthrottled.push(await firstRender(1))
    }

    const latencies = await tapAndFollow(editor.page, [mia.page, tom.page], TAPS)

    // Restart: from the stop until every phone shows the change made right after the start.
    const stopped = Date.now()
    await band.restart()
    const back = Date.now()
    const view = await band.editor.get(`/gigs_lm/${band.liveGig.id}`)
    await band.editor.ok('PUT', `/gigs_lm/${band.liveGig.id}/`, {
      entryId: view.current.id,
      status: 'played'
    })
    const { current } = await band.editor.get(`/gigs_lm/${band.liveGig.id}`)
    const caughtUp = await Promise.all(
      [editor, mia, tom].map(async ({ page }) => {
        await page.locator(`.now-card [data-entry-id="${current.id}"]`).waitFor()
        return Date.now() - back
      })
    )

    const route = measureWebBundle().routes.find((r) => r.route === LIVE_ROUTE)
    console.log('\nlive mode in the browser (Chromium, loopback, 3 phones: 1 editor, 2 members)')
    console.log(`  tap → shown on another phone: ${stats(latencies)}; budget p95 ≤ 300 ms`)
    console.log(`  first render, CPU 4× throttled: ${stats(renders)}; budget ≤ 1000 ms`)
    console.log(
      `  first render, not throttled: ${stats(unthrottled)} ` +
        `(machine load average ${load.toFixed(1)} on ${cpus().length} cores)`
    )
    console.log(
      `  server restart: down and up in ${back - stopped} ms; every phone current ` +
        `${Math.max(...caughtUp)} ms after the server was back; target ≤ 5000 ms`
    )
    console.log(
      '  live route JS added to the first screen\'s: ' +
        `${route ? (route.addedGzipBytes / 1024).toFixed(1) : '?'} KB gzip; budget ≤ 40 KB`
    )
  } finally {
    await releaseBrowser(browser)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLiveUiBench().finally(endBrowserParts)
