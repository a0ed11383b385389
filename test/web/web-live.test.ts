import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import type { Page } from 'playwright-core'
import { checkA11y, launchBrowser, screenshot, type AppPage } from '#test/browser/harness.js'
import type { ApiSession } from '#test/browser/api-client.js'
import {
  apiAs,
  currentEntry,
  editorLogin,
  phoneOf,
  startLiveBand,
  tapAndFollow,
  type LiveBand
} from '#test/browser/live-fixture.js'
import { ADMIN_PASSWORD } from '#test/browser/band-fixture.js'

// What a phone logs while the server is away on purpose (offline, restart): nothing else may show.
const OUTAGE = /net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|NETWORK_CHANGED|FAILED)/

function assertCleanBesidesOutages (phone: AppPage) {
  assert.deepEqual(
    phone.problems().filter((problem) => !OUTAGE.test(problem)),
    [],
    'no console errors, no CSP violations, no request to another origin'
  )
}

type Target = { target: string[] }
const liveUrl = (band: LiveBand) => `${band.base}/app/gigs/${band.liveGig.id}/live`
const titleOf = (page: Page) => currentEntry(page).textContent().then((text) => text?.trim())
const nowPlaying = (page: Page, title: string) =>
  page.getByRole('status', { name: 'Now playing' }).getByText(title, { exact: true }).waitFor()

interface LiveEntryJson {
  id: number
  status: string
  rating: number | null
  inserted: boolean
  song: { title: string }
}
// The test runs longer than an access token lives (15 min): the checks log in again when needed.
let checker: ApiSession | undefined
async function liveState (band: LiveBand) {
  checker ??= band.editor
  let answer = await checker.request('GET', `/gigs_lm/${band.liveGig.id}`)
  if (answer.status === 401) {
    checker = await apiAs(band, editorLogin.username, editorLogin.password)
    answer = await checker.request('GET', `/gigs_lm/${band.liveGig.id}`)
  }
  assert.equal(answer.status, 200)
  const view = answer.body
  const entries = view.sets.flatMap((set: { entries: LiveEntryJson[] }) => set.entries)
  return { view, entries: entries as LiveEntryJson[] }
}

// Gig night with an editor's phone and members' phones in one browser (separate contexts, so
// separate sessions), every effect checked through the API. Timing figures are reported by
// `npm run bench` (bench/live-ui.ts); this test asserts that things arrive, never how fast.
const TITLE = 'live mode on stage: editors operate, every phone follows'
test(TITLE, { timeout: 900_000 }, async (t) => {
  const band = await startLiveBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const editor = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
  const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
  const tom = await phoneOf(browser, band.base, band.tom.username, band.tom.password)
  const gigId = band.liveGig.id

  await t.test('the way in: dashboard on the gig day, and the gig page', async () => {
    // One link only: the other upcoming gigs are not today.
    assert.equal(await editor.page.getByRole('link', { name: 'Live mode' }).count(), 1)
    await editor.page.getByRole('link', { name: 'Live mode' }).click()
    await editor.page.waitForURL(`**/app/gigs/${gigId}/live`)
    await mia.page.goto(`${band.base}/app/gigs/${gigId}`)
    await mia.page.getByRole('link', { name: 'Live mode' }).click()
    await mia.page.waitForURL(`**/app/gigs/${gigId}/live`)
    await tom.page.goto(liveUrl(band))
    for (const phone of [editor, mia, tom]) await nowPlaying(phone.page, 'Song 01')
  })

  await t.test('the stage screen: song, next, setlist; members see no controls', async () => {
    const status = mia.page.getByRole('status', { name: 'Now playing' })
    for (const text of ['Song 01', 'A major', 'Lena', '3:01', '20:00', 'not yet']) {
      await status.getByText(text, { exact: true }).waitFor()
    }
    await mia.page.getByRole('heading', { name: 'Now playing' }).waitFor()
    await mia.page.getByRole('region', { name: 'Next', exact: true }).getByText('Song 02').waitFor()
    for (const name of ['Played', 'Skip', 'Rate 1', 'Rate 2', 'Rate 3', 'Insert song']) {
      assert.equal(await mia.page.getByRole('button', { name }).count(), 0, `member: no ${name}`)
      await editor.page.getByRole('button', { name }).waitFor()
    }
    // The whole setlist is one tap away.
    await mia.page.getByText('Whole setlist').click()
    await mia.page.getByRole('listitem').filter({ hasText: 'Song 64' }).waitFor()
    await mia.page.getByText('Whole setlist').click()
  })

  await t.test('accessibility: axe, AAA contrast, 48 px touch targets', async () => {
    for (const [phone, label] of [
      [editor, 'editor'],
      [mia, 'member']
    ] as const) {
      await phone.page.getByText('Whole setlist').click()
      await checkA11y(phone.page, `live mode (${label})`)
      // axe's enhanced contrast rule is WCAG AAA: 7:1 for text (4.5:1 for large text).
      const enhanced = await phone.page.evaluate(async () => {
        const axe = (globalThis as unknown as {
          axe: {
            run: (c: Document, o: object) => Promise<{ violations: { nodes: Target[] }[] }>
          }
        }).axe
        const result = await axe.run(document, { runOnly: ['color-contrast-enhanced'] })
        return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))
      })
      assert.deepEqual(enhanced, [], `${label}: every text at least 7:1 (WCAG AAA)`)
      const small = await phone.page.evaluate(() =>
        Array.from(document.querySelectorAll('main a, main button, main summary, main input'))
          .map((element) => {
            const box = element.getBoundingClientRect()
            const name = element.textContent?.trim() ?? element.tagName
            return { name, w: box.width, h: box.height }
          })
          .filter((box) => box.w > 0 && (box.w < 48 || box.h < 48))
      )
      assert.deepEqual(small, [], `${label}: every touch target at least 48 × 48 px`)
      await phone.page.getByText('Whole setlist').click()
    }
    await screenshot(mia.page, 'live-member-phone')
    await screenshot(editor.page, 'live-editor-phone')
  })

  await t.test('Played, Rate, Skip: shown at once, stored, on the other phones', async () => {
    await editor.page.getByRole('button', { name: 'Played' }).click()
    await nowPlaying(mia.page, 'Song 02')
    await nowPlaying(tom.page, 'Song 02')
    // The actual start is the time of the Played tap.
    assert.doesNotMatch(
      await mia.page.getByRole('status', { name: 'Now playing' }).innerText(),
      /not yet/
    )
    await editor.page.getByText('Rate the last song: Song 01').waitFor()
    await editor.page.getByRole('button', { name: 'Rate 3' }).click()
    await editor.page.getByRole('button', { name: 'Rate 3', pressed: true }).waitFor()
    // Stars read the same in every language; the accessible name stays "Rate 3".
    const rate3 = editor.page.getByRole('button', { name: 'Rate 3' })
    assert.equal((await rate3.textContent())?.trim(), '★★★')
    await mia.page.getByText('Whole setlist').click()
    await mia.page
      .getByRole('listitem')
      .filter({ hasText: 'Song 01' })
      .getByText('rated ★★★')
      .waitFor()
    await mia.page.getByText('Whole setlist').click()
    const { entries } = await liveState(band)
    assert.deepEqual(
      entries.slice(0, 2).map((e) => [e.song.title, e.status, e.rating]),
      [
        ['Song 01', 'played', 3],
        ['Song 02', 'planned', null]
      ]
    )
  })

  await t.test('two editors tapping at once both land', async () => {
    const admin = await phoneOf(browser, band.base, 'admin', ADMIN_PASSWORD)
    t.after(() => admin.context.close())
    await admin.page.goto(liveUrl(band))
    await nowPlaying(admin.page, 'Song 02')
    // Lena rates the last song while the admin marks the current one played, at the same time.
    await Promise.all([
      editor.page.getByRole('button', { name: 'Rate 1' }).click(),
      admin.page.getByRole('button', { name: 'Played' }).click()
    ])
    for (const phone of [editor, admin, mia, tom]) await nowPlaying(phone.page, 'Song 03')
    await editor.page.getByText('Rate the last song: Song 02').waitFor()
    const { entries } = await liveState(band)
    // "Rate" rates the song played last on Lena's screen when she taps: Song 01, or Song 02 when
    // the admin's Played reached her phone first. Either way both taps are stored, none lost.
    const stored = entries.slice(0, 3).map((e) => [e.song.title, e.status, e.rating])
    const ratedFirst = [['Song 01', 'played', 1], ['Song 02', 'played', null]]
    const ratedSecond = [['Song 01', 'played', 3], ['Song 02', 'played', 1]]
    assert.ok(
      [ratedFirst, ratedSecond].some((expected) =>
        isDeepStrictEqual(stored, [...expected, ['Song 03', 'planned', null]])),
      `Lena's rating and the admin's Played are both stored: ${JSON.stringify(stored)}`
    )
    assertCleanBesidesOutages(admin)
  })

  await t.test('Insert song: search, into the current set after the current song', async () => {
    await editor.page.getByRole('button', { name: 'Insert song' }).click()
    await editor.page.getByRole('searchbox', { name: 'Find song' }).fill('Encore')
    await editor.page.getByRole('button', { name: 'Insert Encore Extra' }).click()
    await mia.page
      .getByRole('region', { name: 'Next', exact: true })
      .getByText('Encore Extra')
      .waitFor()
    const { entries } = await liveState(band)
    const at = entries.findIndex((e) => e.song.title === 'Encore Extra')
    assert.equal(entries[at - 1]!.song.title, 'Song 03', 'after the current song')
    assert.equal(entries[at]!.inserted, true)
    const { view } = await liveState(band)
    assert.ok(
      view.sets[0].entries.some((e: LiveEntryJson) => e.song.title === 'Encore Extra'),
      'in the current set'
    )
    // docs/web.md's picture of gig night (docs/screenshots/live-phone.png is copied from it).
    await screenshot(editor.page, 'live-phone')
    await mia.page.getByText('Whole setlist').click()
    await mia.page
      .getByRole('listitem')
      .filter({ hasText: 'Encore Extra' })
      .getByText('inserted')
      .waitFor()
    await screenshot(mia.page, 'live-setlist-phone')
    await mia.page.getByText('Whole setlist').click()
  })

  await t.test('a tap the server refuses is shown and rolled back', async () => {
    const before = await liveState(band)
    editor.allowHttpError(`/gigs_lm/${gigId}/`, 503)
    await editor.page.route(`**/gigs_lm/${gigId}/`, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          error: 'Service Unavailable',
          code: 'UNAVAILABLE',
          message: 'try later'
        })
      })
    )
    await editor.page.getByRole('button', { name: 'Played' }).click()
    // Named in the one line of status (no stack of boxes; it clears itself).
    await editor.page
      .getByRole('status')
      .filter({ hasText: 'Not saved — Played: Song 03' })
      .waitFor()
    await nowPlaying(editor.page, 'Song 03')
    await editor.page.unroute(`**/gigs_lm/${gigId}/`)
    assert.deepEqual((await liveState(band)).entries, before.entries, 'nothing stored')
  })

  await t.test('polling with If-None-Match when the event stream is unavailable', async () => {
    const poller = await tom.context.newPage()
    const answers: { status: number; ifNoneMatch: string | undefined }[] = []
    await poller.route('**/gigs_lm/*/events', (route) => route.fulfill({ status: 503, body: '' }))
    poller.on('response', (response) => {
      if (/\/gigs_lm\/\d+$/.test(new URL(response.url()).pathname)) {
        answers.push({
          status: response.status(),
          ifNoneMatch: response.request().headers()['if-none-match']
        })
      }
    })
    await poller.goto(liveUrl(band))
    await nowPlaying(poller, 'Song 03')
    await poller.getByText('Live (polling)').waitFor()
    await poller.waitForResponse(
      (r) => /\/gigs_lm\/\d+$/.test(new URL(r.url()).pathname) && r.status() === 304
    )
    await editor.page.getByRole('button', { name: 'Played' }).click()
    await nowPlaying(poller, 'Encore Extra')
    assert.ok(answers.some((a) => a.status === 304 && a.ifNoneMatch), 'unchanged polls got 304')
    await poller.close()
  })

  await t.test('offline: banner while the Wi-Fi is gone, then the current state', async () => {
    await mia.context.setOffline(true)
    await mia.page.getByRole('status').filter({ hasText: 'Offline' }).waitFor()
    await editor.page.getByRole('button', { name: 'Played' }).click()
    await nowPlaying(tom.page, 'Song 04')
    await mia.context.setOffline(false)
    await nowPlaying(mia.page, 'Song 04')
    await mia.page.getByRole('status').filter({ hasText: 'Offline' }).waitFor({ state: 'detached' })
  })

  await t.test('every one of 50 taps arrives on the other phones', async () => {
    const latencies = await tapAndFollow(editor.page, [mia.page, tom.page], 50)
    assert.equal(latencies.length, 100, '50 taps, each seen on both member phones')
    const { entries } = await liveState(band)
    const done = entries.filter((e) => e.status !== 'planned').length
    assert.equal(done, 4 + 50, 'every tap stored')
  })

  await t.test('server restarted mid-show: every phone catches up without a reload', async () => {
    const phones = [editor, mia, tom]
    for (const phone of phones) {
      await phone.page.evaluate(() => {
        ;(window as unknown as { __sameDocument: boolean }).__sameDocument = true
      })
    }
    const title = await titleOf(mia.page)
    await band.restart()
    // A change right after the restart (sessions survive it: same data directory).
    const { view } = await liveState(band)
    await checker!.ok('PUT', `/gigs_lm/${gigId}/`, { entryId: view.current.id, status: 'played' })
    const { view: after } = await liveState(band)
    assert.notEqual(after.current.song.title, title)
    for (const phone of phones) {
      await nowPlaying(phone.page, after.current.song.title)
      assert.equal(
        await phone.page.evaluate(
          () => (window as unknown as { __sameDocument?: boolean }).__sameDocument
        ),
        true,
        'no reload'
      )
    }
  })

  await t.test('landscape phone', async () => {
    await mia.page.setViewportSize({ width: 640, height: 360 })
    await mia.page.getByRole('status', { name: 'Now playing' }).waitFor()
    await checkA11y(mia.page, 'live mode (landscape)')
    await screenshot(mia.page, 'live-member-landscape')
    await mia.page.setViewportSize({ width: 360, height: 740 })
    await editor.page.setViewportSize({ width: 640, height: 360 })
    await editor.page.getByRole('button', { name: 'Played' }).waitFor()
    await checkA11y(editor.page, 'live mode (editor, landscape)')
    await screenshot(editor.page, 'live-editor-landscape')
    await editor.page.setViewportSize({ width: 360, height: 740 })
  })

  for (const phone of [editor, mia, tom]) assertCleanBesidesOutages(phone)
})

test('live mode keeps the screen awake while visible', { timeout: 300_000 }, async (t) => {
  const band = await startLiveBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
  // A recording stand-in for the Wake Lock API (headless Chromium refuses the real one).
  // A string, not a function: tsx would wrap the named arrows in a helper the page lacks.
  await mia.page.addInitScript(`(() => {
    const log = []
    window.__wakeLog = log
    Object.defineProperty(navigator, 'wakeLock', {
      value: {
        request: async () => {
          log.push('request')
          const sentinel = new EventTarget()
          sentinel.released = false
          sentinel.release = async () => {
            sentinel.released = true
            log.push('release')
            sentinel.dispatchEvent(new Event('release'))
          }
          return sentinel
        }
      }
    })
  })()`)
  await mia.page.goto(liveUrl(band))
  await nowPlaying(mia.page, 'Song 01')
  const log = () => mia.page.evaluate('window.__wakeLog.join()')
  const entries = (n: number) =>
    mia.page.waitForFunction(
      (count) => (window as unknown as { __wakeLog: string[] }).__wakeLog.length >= count,
      n
    )
  await entries(1)
  assert.equal(await log(), 'request')
  const setVisibility = (state: string) =>
    mia.page.evaluate(`(() => {
      Object.defineProperty(document, 'visibilityState', { value: '${state}', configurable: true })
      document.dispatchEvent(new Event('visibilitychange'))
    })()`)
  await setVisibility('hidden')
  await entries(2)
  assert.equal(await log(), 'request,release', 'released when hidden')
  await setVisibility('visible')
  await entries(3)
  assert.equal(await log(), 'request,release,request', 'taken again when shown')
  await mia.page.getByRole('link', { name: 'Back to the gig' }).click()
  await entries(4)
  assert.equal(await log(), 'request,release,request,release', 'released when leaving')
  mia.assertClean()
})
