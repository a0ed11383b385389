/**
 * Gig night without a network, reported, never asserted: a 40-song gig with a
 * chart for every song and its two PDFs, on a phone (360×740) of the built server in Chromium.
 * - the gig pack downloaded on loopback (budget ≤ 3 s), its size by kind, and a refresh of the
 *   unchanged pack (what ETags save);
 * - the live page opened from the service worker with the phone offline and the server stopped,
 *   navigation start until the current song is on screen, CPU throttled 4× (budget ≤ 500 ms),
 *   beside the unthrottled figure of the same run (the machine is shared: see the load average);
 * - the service worker's share of the first screen's JavaScript (budget: nothing).
 * BENCH_OFFLINE_RENDERS (default 7) sets how many opens are measured at each rate.
 */
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import type { Page } from 'playwright-core'
import { projectPath } from '#src/project-path.js'
import { dayFromNow } from '#test/browser/api-client.js'
import { currentEntry, percentile, phoneOf } from '#test/browser/live-fixture.js'
import { serviceWorkerInFirstScreen } from './web-bundle.js'
import { benchBand, benchBrowser, endBrowserParts, releaseBrowser } from './shared-browser.js'

const RENDERS = Number(process.env.BENCH_OFFLINE_RENDERS ?? 7)
const SONGS = 40

/** A chart of a realistic length (four verses and a chorus, chords over every line). */
const chartOf = (n: number) =>
  [`{title: Song ${n}}`, '{key: A}', '']
    .concat(
      ...Array.from({ length: 5 }, (_, verse) => [
        `{start_of_${verse === 2 ? 'chorus' : 'verse'}}`,
        `[A]Down in the [D]basement, verse ${verse + 1} of [E]song ${n}, [A]tonight`,
        '[F#m]Every phone is [D]dark and the [E]room is full of [A]light',
        '[D]Nobody [A]knows the [E]way back [F#m]home',
        '[D]Sing it a[E]gain and we [A]go on',
        `{end_of_${verse === 2 ? 'chorus' : 'verse'}}`,
        ''
      ])
    )
    .join('\n')

/** What a pack URL is, for the size by kind. */
function kindOf (url: string): string {
  if (url.includes('.pdf')) return url.includes('style=stage') ? 'stage PDF' : 'setlist PDF'
  if (url.endsWith('/charts')) return 'charts'
  return 'gig data (JSON)'
}

const median = (values: number[]) => percentile(values, 50)

export async function runOfflineBench (): Promise<void> {
  const band = await benchBand()
  const browser = await benchBrowser()
  try {
    const songIds: number[] = []
    for (let n = 1; n <= SONGS; n++) {
      const song = await band.editor.ok('POST', '/songs', {
        title: `Field Song ${String(n).padStart(2, '0')}`,
        artist: 'The Band',
        durationSeconds: 180 + n,
        key: 'A',
        status: 'ready',
        chart: chartOf(n)
      })
      songIds.push(song.id)
    }
    const gig = await band.editor.ok('POST', '/gigs', {
      name: 'Festival Field',
      date: dayFromNow(0),
      status: 'confirmed',
      startTime: '20:00'
    })
    await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [
        { name: 'Set 1', entries: songIds.slice(0, 20).map((songId) => ({ songId })) },
        { name: 'Set 2', entries: songIds.slice(20).map((songId) => ({ songId })) }
      ]
    })
    const live = `${band.base}/app/gigs/${gig.id}/live`
    const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
    const { page, context } = mia
    await page.goto(live)
    await currentEntry(page).waitFor()
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

    // The pack, saved by the app's own module (the chunk the gig page loads), from an empty cache.
    const vite = (
      JSON.parse(readFileSync(projectPath('dist', 'web-manifest.json'), 'utf8')) as {
        vite: Record<string, { file: string }>
      }
    ).vite
    const packModule = `/app/${vite['src/lib/offline/gig-pack.ts']!.file}`
    const save = async (fresh: boolean) => {
      const result = await page.evaluate(
        async ({ module, userId, gigId, fresh }) => {
          if (fresh) await caches.delete(`bandstand-user-${userId}`)
          const pack = await import(module)
          const start = performance.now()
          const info = await pack.savePack(userId, gigId)
          const ms = performance.now() - start
          const cache = await caches.open(`bandstand-user-${userId}`)
          const sizes: [string, number][] = []
          for (const url of info.urls as string[]) {
            const kept = await cache.match(url)
            sizes.push([url, kept ? (await kept.arrayBuffer()).byteLength : 0])
          }
          return { ms: Math.round(ms), bytes: info.bytes as number, sizes }
        },
        { module: packModule, userId: band.member.id, gigId: gig.id, fresh }
      )
      return result
    }
    // What a refresh of the kept pack costs: each URL asked with its kept ETag, as savePack does;
    // the bodies the server sends again (a 304 sends none).
    const refreshCost = () =>
      page.evaluate(async (userId) => {
        const cache = await caches.open(`bandstand-user-${userId}`)
        let resent = 0
        let notModified = 0
        let urls = 0
        const full: string[] = []
        for (const request of await cache.keys()) {
          const url = new URL(request.url)
          if (url.pathname.startsWith('/__bandstand/')) continue
          urls++
          const etag = (await cache.match(request))?.headers.get('etag')
          const answer = await fetch(url.pathname + url.search, {
            cache: 'no-store',
            headers: etag ? { 'if-none-match': etag } : {}
          })
          if (answer.status === 304) notModified++
          else full.push(url.pathname + url.search)
          resent += (await answer.arrayBuffer()).byteLength
        }
        return { urls, notModified, resent, full }
      }, band.member.id)
    const loadAtPack = loadavg()[0]!
    const cold = await save(true)
    const refresh = await save(false)
    const cost = await refreshCost()
    const byKind = new Map<string, number>()
    for (const [url, bytes] of cold.sizes) {
      byKind.set(kindOf(url), (byKind.get(kindOf(url)) ?? 0) + bytes)
    }

    // Offline: no network on the phone and no server behind it.
    await band.server.stop()
    await context.setOffline(true)
    // Until the frame that shows the current song is painted, by rate.
    const paintedAt: Record<number, number[]> = { 1: [], 4: [] }
    const open = async (rate: number) => {
      const tab = await context.newPage()
      const cdp = await context.newCDPSession(tab)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      // The page is left alone until it says it has painted the song (a console message, which
      // needs nothing in the page): Playwright's locators and waits inject and run a script of
      // their own in the page, which took main-thread time from the page's start (measured: ~8 ms
      // unthrottled, before the song's first render).
      await tab.addInitScript(`(() => {
        new MutationObserver((records, observer) => {
          if (document.querySelector('.now-card [data-entry-id]')) {
            window.__firstRender = performance.now()
            observer.disconnect()
            // The frame that shows it: after its paint (rendering steps, then this task).
            requestAnimationFrame(() => setTimeout(() => {
              window.__painted = performance.now()
              console.debug('bench: painted')
            }))
          }
        }).observe(document, { subtree: true, childList: true })
      })()`)
      const painted = tab.waitForEvent('console', {
        predicate: (message) => message.text() === 'bench: painted'
      })
      const answer = await tab.goto(live, { waitUntil: 'commit' })
      if (!answer?.fromServiceWorker()) throw new Error('the live page is not the worker\'s')
      await painted
      await currentEntry(tab).waitFor()
      await offlineBanner(tab)
      const [ms, paint] = (
        (await tab.evaluate('[window.__firstRender, window.__painted]')) as number[]
      ).map(Math.round) as [number, number]
      await tab.close()
      paintedAt[rate]!.push(paint)
      return ms
    }
    const loadAtOpen = loadavg()[0]!
    const throttled: number[] = []
    const unthrottled: number[] = []
    for (let n = 0; n < RENDERS; n++) {
      throttled.push(await open(4))
      unthrottled.push(await open(1))
    }
    const firstScreen = serviceWorkerInFirstScreen()

    const load = (value: number) =>
      `load average ${value.toFixed(1)} on ${cpus().length} cores`
    console.log('\ngig night without a network (Chromium, phone 360×740, built server, loopback)')
    console.log(
      `  gig pack of a ${SONGS}-song gig with charts and 2 PDFs: ${cold.ms} ms from an empty ` +
        `cache, ${cold.bytes} B kept (${cold.sizes.length} answers); budget ≤ 3000 ms ` +
        `(${load(loadAtPack)})`
    )
    for (const [kind, bytes] of byKind) console.log(`    ${kind.padEnd(16)} ${bytes} B`)
    console.log(
      `  refresh of the unchanged pack: ${refresh.ms} ms; ${cost.notModified} of ${cost.urls} ` +
        `answers 304 (ETag), ${cost.resent} B of bodies sent again (${cost.full.join(', ')})`
    )
    console.log('  the pack, answer by answer (bytes kept):')
    for (const [url, bytes] of cold.sizes) console.log(`    ${url.padEnd(34)} ${bytes} B`)
    const ratio = median(throttled) / Math.max(1, median(unthrottled))
    console.log(
      '  live page offline from the service worker, CPU 4× throttled: median ' +
        `${median(throttled)} ms (max ${Math.max(...throttled)}, n = ${RENDERS}); ` +
        `budget ≤ 500 ms; painted ${median(paintedAt[4]!)} ms`
    )
    console.log(
      `  the same, not throttled: median ${median(unthrottled)} ms ` +
        `(painted ${median(paintedAt[1]!)} ms) ` +
        `(max ${Math.max(...unthrottled)}); throttled/unthrottled ${ratio.toFixed(1)}× ` +
        `(${load(loadAtOpen)})`
    )
    console.log(
      `  service worker code in the first screen's JavaScript: ${firstScreen.bytes} B ` +
        `(${firstScreen.files.length ? firstScreen.files.join(', ') : 'no file of it'}); ` +
        'budget 0 B'
    )
  } finally {
    await releaseBrowser(browser)
  }
}

/** The live page says it is offline (from the pack), in its one status line. */
async function offlineBanner (page: Page): Promise<void> {
  await page.locator('[data-channel="offline"]').filter({ hasText: /^Offline/ }).waitFor()
}

if (import.meta.url === `file://${process.argv[1]}`) await runOfflineBench().finally(endBrowserParts)
