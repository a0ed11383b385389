import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { checkA11y, launchBrowser, screenshot, storySteps } from '#test/browser/harness.js'
import { apiAs, editorLogin, phoneOf, startLiveBand } from '#test/browser/live-fixture.js'

// Editor taps made without network are kept in an outbox (IndexedDB), survive a reload offline
// and are sent once, in order, when the phone is back; a stale one is dropped and said in words.

const OUTAGE = /net::ERR_|Failed to load resource|signal timed out|aborted/i
const nowPlaying = (page: Page, title: string) =>
  page.getByRole('status', { name: 'Now playing' }).getByText(title, { exact: true }).waitFor()
const statusLine = (page: Page) => page.locator('.stage-bar [role="status"]')
/** The outbox's records, read from IndexedDB as the page sees it. */
const outbox = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('bandstand-outbox', 1)
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const count = open.result.transaction('taps').objectStore('taps').count()
          count.onsuccess = () => {
            resolve(count.result)
            open.result.close()
          }
        }
      })
  )
/** Waits until the service worker is active; a page loaded before it took over is reloaded. */
async function controlled (page: Page): Promise<boolean> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true))
  if (await page.evaluate(() => navigator.serviceWorker.controller !== null)) return true
  await page.reload()
  return page.evaluate(() => navigator.serviceWorker.controller !== null)
}

test('taps offline go into the outbox and are applied exactly once', { timeout: 300_000 },
  async (t) => {
    const band = await startLiveBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const editor = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
    const { page } = editor
    const gigId = band.liveGig.id
    const step = storySteps(t, editor, 'web-live-outbox')
    const api = await apiAs(band, editorLogin.username, editorLogin.password)
    const view = async () => (await api.request('GET', `/gigs_lm/${gigId}`)).body
    const entries = async () =>
      (await view()).sets.flatMap((set: { entries: unknown[] }) => set.entries) as {
        id: number
        status: string
        rating: number | null
      }[]
    let before = 0

    await step('the live page, controlled by the service worker', async () => {
      await page.goto(`${band.base}/app/gigs/${gigId}/live`)
      await nowPlaying(page, 'Song 01')
      await statusLine(page).getByText('Live', { exact: true }).waitFor()
      assert.equal(await controlled(page), true)
      await nowPlaying(page, 'Song 01')
      before = (await view()).version
    })

    await step('offline: five taps, shown as pending, kept in IndexedDB', async () => {
      await page.context().setOffline(true)
      await page.getByRole('button', { name: 'Played' }).click()
      await nowPlaying(page, 'Song 02')
      await page.getByRole('button', { name: 'Rate 2' }).click()
      await page.getByRole('button', { name: 'Skip' }).click()
      await nowPlaying(page, 'Song 03')
      await page.getByRole('button', { name: 'Played' }).click()
      await nowPlaying(page, 'Song 04')
      await page.getByRole('button', { name: 'Played' }).click()
      await nowPlaying(page, 'Song 05')
      await statusLine(page).getByText('5 taps not confirmed yet').waitFor({ timeout: 15_000 })
      assert.equal(await outbox(page), 5)
      // Nothing reached the server.
      assert.equal((await view()).version, before)
      await screenshot(page, 'web-live-outbox-pending')
      await statusLine(page).screenshot({ path: 'dist/screenshots/web-live-outbox-pending1.png' })
      await checkA11y(page, 'taps pending offline')
    })

    await step('a reload while offline keeps the outbox', async () => {
      await page.reload()
      await screenshot(page, 'web-live-outbox-reloaded-offline')
      assert.equal(await outbox(page), 5)
      assert.equal((await view()).version, before)
    })

    await step('back online: all five arrive once, in order; the status line clears', async () => {
      await page.context().setOffline(false)
      // Opening the live page offline without its data is the gig pack's job: the
      // page reloaded offline is the app shell, so the live page is opened again, which sends.
      await page.goto(`${band.base}/app/gigs/${gigId}/live`)
      await nowPlaying(page, 'Song 05')
      await statusLine(page)
        .filter({ hasText: /^\s*Live\b/, hasNotText: /not confirmed|Not saved/ })
        .waitFor({ timeout: 30_000 })
      assert.equal(await outbox(page), 0)
      const list = await entries()
      assert.deepEqual(
        list.slice(0, 5).map((e) => `${e.status}${e.rating ?? ''}`),
        ['played2', 'skipped', 'played', 'played', 'planned']
      )
      // Each tap bumps the live version once: five taps, five versions, none applied twice.
      assert.equal((await view()).version, before + 5)
    })

    await step('a stale queued tap: the server state stands, the phone says so', async () => {
      await page.context().setOffline(true)
      await page.getByRole('button', { name: 'Played' }).click()
      await nowPlaying(page, 'Song 06')
      // Another editor, online, skips Song 05 meanwhile.
      const song5 = (await entries())[4]!
      const other = await api.request('PUT', `/gigs_lm/${gigId}`, {
        entryId: song5.id,
        status: 'skipped'
      })
      assert.equal(other.status, 200)
      await page.context().setOffline(false)
      await statusLine(page)
        .getByText(/Not saved — Played: Song 05\. Another editor moved the show on/)
        .waitFor({ timeout: 30_000 })
      assert.equal((await entries())[4]!.status, 'skipped', "the other editor's change stands")
      assert.equal(await outbox(page), 0)
      await nowPlaying(page, 'Song 06')
      await screenshot(page, 'web-live-outbox-stale')
      await statusLine(page).screenshot({ path: 'dist/screenshots/web-live-outbox-stale1.png' })
      await checkA11y(page, 'stale tap reported')
      assert.deepEqual(
        editor.problems().filter((problem) => !OUTAGE.test(problem)),
        [],
        'no console errors besides the outage'
      )
    })
  })
