import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { PASSWORD } from '#test/helpers.js'
import {
  checkA11y,
  chooseEnglish,
  logInAs,
  screenshot,
  storySteps
} from '#test/browser/harness.js'
import {
  OUTAGE,
  controlled,
  startOfflineApp,
  workerRelease
} from '#test/browser/offline-fixture.js'

const cacheNames = (page: Page) => page.evaluate(() => caches.keys())

test('the service worker: offline shell, no API in caches, per-user caches, updates', async (t) => {
  const { base, relay, phone, mia, gigId, publishRelease2 } =
    await startOfflineApp(t, { name: 'Basement Club', startTime: '21:00' })
  const { page } = phone
  const step = storySteps(t, phone, 'web-offline')
  const clean = () =>
    assert.deepEqual(
      phone.problems().filter((problem) => !OUTAGE.test(problem)),
      [],
      'no console errors besides the outage'
    )

  await step('the app links its manifest; the service worker installs and controls', async () => {
    await page.goto(`${base}/app/login`)
    await chooseEnglish(page)
    await logInAs(page, base, 'mia', PASSWORD)
    const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href')
    const manifest = await page.evaluate(
      (url) => fetch(url!).then((answer) => answer.json()),
      manifestUrl
    )
    assert.equal(manifest.start_url, '/app/')
    for (const icon of manifest.icons) {
      const status = await page.evaluate(
        (src: string) => fetch(src).then((answer) => answer.status),
        icon.src
      )
      assert.equal(status, 200, icon.src)
    }
    assert.equal(await controlled(page), true)
    // What Chromium's own "Install app" checks: the parsed manifest and the installability.
    const cdp = await page.context().newCDPSession(page)
    const parsed = (await cdp.send('Page.getAppManifest')) as {
      errors: { message: string }[]
      parsed?: { name?: string }
    }
    assert.deepEqual(parsed.errors, [], 'Chromium parses the manifest without errors')
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[]
    }
    // Playwright's contexts are incognito windows, where Chromium installs nothing at all.
    assert.deepEqual(
      installabilityErrors.filter((error) => error.errorId !== 'in-incognito'),
      [],
      'Chromium would offer to install the app'
    )
    await cdp.detach()
    const names = await cacheNames(page)
    assert.equal(names.filter((name) => name.startsWith('bandstand-shell-')).length, 1)
    // The app's caches hold only the app: no API answer (/me, /gigs, /public/…). API answers
    // live only in the user's gig pack (web-gig-pack.test.ts).
    const stored = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys()) {
        if (!name.startsWith('bandstand-shell-')) continue
        const cache = await caches.open(name)
        for (const request of await cache.keys()) urls.push(new URL(request.url).pathname)
      }
      return urls
    })
    assert.ok(stored.includes('/app/'), 'the shell')
    assert.ok(stored.some((path) => /\/entry\/boot\./.test(path)), 'the boot script')
    assert.deepEqual(
      stored.filter((path) => !path.startsWith('/app/')),
      [],
      'nothing but the app'
    )
  })

  await step('another user\'s offline data is deleted when this one logs in', async () => {
    // The gig pack (a later issue) keeps a user's data in `bandstand-user-<id>`.
    await page.evaluate(async (ids) => {
      for (const id of ids) {
        const cache = await caches.open(`bandstand-user-${id}`)
        await cache.put(`/gigs_lm/${id}`, new Response('{"secret":true}'))
      }
    }, [mia.id, 9999])
    await page.reload()
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await page.waitForFunction(
      async () => !(await caches.keys()).includes('bandstand-user-9999')
    )
    assert.ok((await cacheNames(page)).includes(`bandstand-user-${mia.id}`), 'her own is kept')
  })

  await step('offline, an /app/ page opens from the app shell; nobody is logged out', async () => {
    await relay.stop()
    await page.context().setOffline(true)
    const answer = await page.goto(`${base}/app/gigs`)
    assert.ok(answer?.fromServiceWorker(), 'answered by the service worker')
    // The app itself runs: its header, navigation landmark and the "Try again" of a failed load.
    await page.getByRole('link', { name: 'Skip to content' }).waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'Try again' }).waitFor()
    await screenshot(page, 'web-offline-shell')
    await checkA11y(page, 'offline shell')
    // German is a chunk of its own, loaded when chosen (lib/i18n): this page started in English
    // without it, and offline it comes from the worker's precache.
    const language = page.getByRole('combobox', { name: 'Language' })
    await language.selectOption('de')
    await page.getByRole('button', { name: 'Nochmal versuchen' }).waitFor()
    await page.locator('html[lang="de"]').waitFor({ state: 'attached' })
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en')
    await page.getByRole('button', { name: 'Try again' }).waitFor()
    await page.context().setOffline(false)
    await relay.start()
    await page.getByRole('button', { name: 'Try again' }).click()
    await page.getByRole('heading', { name: 'Gigs', level: 1 }).waitFor()
    assert.match(page.url(), /\/app\/gigs$/, 'still logged in, on the same page')
  })

  await step('a new release: offered off the live page, applied by Reload', async () => {
    // The page runs release 1 when release 2 comes out: it is offered, not swapped under it.
    await page.goto(`${base}/app/gigs/${gigId}/live`)
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    publishRelease2()
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.ready).update()
    })
    await page.waitForFunction(async () => {
      return (await navigator.serviceWorker.getRegistration())?.waiting?.state === 'installed'
    })
    // Mid-song nothing pops up.
    await page.waitForTimeout(300)
    assert.equal(await page.getByRole('button', { name: 'Reload' }).count(), 0)

    await page.getByRole('link', { name: 'Back to the gig' }).click()
    const prompt = page.getByRole('status').filter({ hasText: 'Update available' })
    await prompt.waitFor()
    await screenshot(page, 'web-offline-update')
    await checkA11y(page, 'update prompt')
    await Promise.all([
      page.waitForEvent('load'),
      prompt.getByRole('button', { name: 'Reload' }).click()
    ])
    const answer = await workerRelease(page)
    assert.equal(answer, 'release 2', 'the new release controls the page')
    assert.equal(await page.getByRole('button', { name: 'Reload' }).count(), 0)
  })

  await step('logout deletes the user\'s offline data', async () => {
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL('**/app/login')
    const names = await cacheNames(page)
    assert.deepEqual(
      names.filter((name) => !name.startsWith('bandstand-shell-')),
      [],
      'only the app shell (no user data) is left'
    )
    clean()
  })
})
