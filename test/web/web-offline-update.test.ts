import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { PASSWORD } from '#test/helpers.js'
import {
  checkA11y,
  chooseEnglish,
  logInAs,
  screenshot,
  storySteps,
  WAIT
} from '#test/browser/harness.js'
import {
  OUTAGE,
  controlled,
  startOfflineApp,
  workerRelease
} from '#test/browser/offline-fixture.js'

// Gig night without a network: a release made while the phone is offline.
// Offline the phone keeps the app it has; at the next online start the new release runs and its
// service worker takes over without a prompt, so the next offline start has it too.

/** Polls an async condition in the page (waitForFunction takes a promise for "true"). */
async function until<A> (page: Page, check: (arg: A) => Promise<boolean>, arg: A) {
  const deadline = Date.now() + WAIT
  // Playwright types the argument as it arrives in the page (Unboxed<A>); a number or a string
  // array arrives as it is.
  const inPage = check as (arg: unknown) => Promise<boolean>
  while (!(await page.evaluate(inPage, arg))) {
    if (Date.now() > deadline) throw new Error(`not met in time: ${String(check)}`)
    await page.waitForTimeout(100)
  }
}

/** The shell caches the page's origin holds (one per release of the service worker). */
const shellCaches = (page: Page) =>
  page.evaluate(async () =>
    (await caches.keys()).filter((name) => name.startsWith('bandstand-shell-')))

const release = (page: Page) =>
  page.evaluate(() => document.documentElement.dataset.release ?? 'first')

test('an app update made while offline is applied on the next online start', async (t) => {
  // Today: saved for offline at login (the next 7 days).
  const { base, relay, phone, mia, editor, gigId, publishRelease2 } =
    await startOfflineApp(t, { name: 'Festival Field', startTime: '21:00' })
  const song = await editor.post('/songs', {
    title: 'Field Song',
    status: 'ready',
    chart: '[A]Twenty thousand [D]phones in a [E]field'
  })
  assert.equal(song.statusCode, 201, song.body)
  const setlist = await editor.put(`/gigs/${gigId}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: song.json().id }] }]
  })
  assert.equal(setlist.statusCode, 200, setlist.body)
  const live = `${base}/app/gigs/${gigId}/live`

  let page = phone.page
  let firstShells: string[] = []
  const step = storySteps(t, phone, 'web-offline-update')
  const nowPlaying = (on: Page) =>
    on.getByRole('region', { name: 'Now playing' }).getByText('Field Song').waitFor()

  await step('online: the first release installs and saves tonight\'s gig', async () => {
    await page.goto(`${base}/app/login`)
    await chooseEnglish(page)
    await logInAs(page, base, 'mia', PASSWORD)
    assert.equal(await controlled(page), true)
    await until(page, async (id) => {
      const cache = await caches.open(`bandstand-user-${id}`)
      return (await cache.keys()).some((r) => r.url.includes('/__bandstand/pack/'))
    }, mia.id)
    await page.goto(live)
    await nowPlaying(page)
    assert.equal(await release(page), 'first')
    firstShells = await shellCaches(page)
    assert.equal(firstShells.length, 1, 'the first release\'s shell cache')
  })

  await step('offline, a release comes out: the phone keeps the app it has', async () => {
    await relay.stop()
    await page.context().setOffline(true)
    publishRelease2()
    await page.reload()
    await nowPlaying(page)
    await page.getByRole('status').filter({ hasText: /^Offline · last update/ }).waitFor()
    assert.equal(await release(page), 'first', 'the first release, from the phone')
  })

  await step('the next online start runs the new release, which takes over quietly', async () => {
    await page.context().setOffline(false)
    await relay.start()
    // The app closed and opened again (from the home screen).
    await page.close()
    page = await phone.context.newPage()
    await page.goto(live)
    await nowPlaying(page)
    assert.equal(await release(page), '2', 'the new release runs')
    // The new worker active, nothing waiting, the first release's cache deleted (the app's
    // update check at start runs after the page is up: until then the first release is all
    // there is, so its cache is named, not just counted).
    await until(page, async (first) => {
      const registration = await navigator.serviceWorker.getRegistration()
      const shells = (await caches.keys()).filter((name) => name.startsWith('bandstand-shell-'))
      return !!registration?.active && !registration.waiting && !registration.installing &&
        shells.length === 1 && !first.includes(shells[0]!)
    }, firstShells)
    assert.equal(await workerRelease(page), 'release 2', 'the new service worker controls')
    // Applied, not offered: no prompt, nothing covers the live page.
    assert.equal(await page.getByRole('button', { name: 'Reload' }).count(), 0)
    await checkA11y(page, 'live page after a quiet update')
    await screenshot(page, 'web-offline-update-applied')
  })

  await step('the next offline start has the new release', async () => {
    await relay.stop()
    await page.context().setOffline(true)
    await page.reload()
    await nowPlaying(page)
    assert.equal(await release(page), '2')
    await page.context().setOffline(false)
    await relay.start()
    assert.deepEqual(phone.problems().filter((problem) => !OUTAGE.test(problem)), [])
  })
})
