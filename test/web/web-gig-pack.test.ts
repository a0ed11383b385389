import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'
import { PASSWORD } from '#test/helpers.js'
import type { Route } from 'playwright-core'
import { checkA11y, logInAs, screenshot, storySteps } from '#test/browser/harness.js'
import { OUTAGE, startOfflineApp } from '#test/browser/offline-fixture.js'

// Gig night without a network: the gig pack saved from the gig page, the
// live page reloaded with the phone offline and the server gone.

test('the gig pack: saved on the gig page, the live page reloads offline from it', async (t) => {
  // Ten days ahead: not saved on its own (next 7 days), only by "Save for offline".
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
  const { base, relay, browser, phone, editor, gigId } = await startOfflineApp(
    t, { name: 'Wedding Barn', date, startTime: '20:00' }, { release: false })
  const songIds: number[] = []
  for (const [title, chart] of [
    ['Basement Blues', '{title: Basement Blues}\n[A]Down in the [D]basement [E]tonight'],
    // `</script>` in a title: the worker's shell carries it in a JSON block (first answers).
    ['Barn Dance </script><p>', '[G]Swing your [C]partner']
  ]) {
    const song = await editor.post('/songs', { title, chart, status: 'ready' })
    assert.equal(song.statusCode, 201, song.body)
    songIds.push(song.json().id)
  }
  const setlist = await editor.put(`/gigs/${gigId}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: songIds.map((songId) => ({ songId })) }]
  })
  assert.equal(setlist.statusCode, 200, setlist.body)

  const { page } = phone
  const step = storySteps(t, phone, 'web-gig-pack')

  await step('the gig page saves the gig for offline and says when and how much', async () => {
    await page.goto(`${base}/app/login`)
    await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('en')
    await logInAs(page, base, 'mia', PASSWORD)
    await page.goto(`${base}/app/gigs/${gigId}`)
    await page.getByRole('heading', { name: 'Wedding Barn', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Save for offline' }).click()
    const saved = page.getByRole('status').filter({ hasText: 'Saved for offline' })
    await saved.waitFor()
    assert.match(await saved.innerText(), /Saved for offline .+ · [1-9]\d* kB/)
    await checkA11y(page, 'gig page, saved for offline')
    await screenshot(page, 'web-gig-pack-saved')
    const kept = await page.evaluate(async () => {
      const paths: string[] = []
      for (const name of await caches.keys()) {
        if (!name.startsWith('bandstand-user-')) continue
        for (const request of await (await caches.open(name)).keys()) {
          const url = new URL(request.url)
          paths.push(url.pathname + url.search)
        }
      }
      return paths
    })
    for (const part of [`/gigs_lm/${gigId}`, `/gigs/${gigId}/charts`,
      `/gigs/${gigId}/setlist.pdf`, `/gigs/${gigId}/setlist.pdf?style=stage`, '/me']) {
      assert.ok(kept.includes(part), `${part} is in the pack`)
    }
    // The live page once online (the service worker controls the page from here on).
    await page.goto(`${base}/app/gigs/${gigId}/live`)
    await page.getByRole('region', { name: 'Chart' }).getByText('basement').first().waitFor()
  })

  await step('no network and no server: the live page reloads from the pack', async () => {
    await relay.stop()
    await page.context().setOffline(true)
    await page.reload()
    const status = page.getByRole('status').filter({ hasText: /^Offline · last update/ })
    await status.waitFor()
    const now = page.getByRole('region', { name: 'Now playing' })
    await now.getByText('Basement Blues').waitFor()
    await page.getByRole('region', { name: 'Chart' }).getByText('basement').first().waitFor()
    // The worker's shell named the live page's own code as a preload (fetched while the app boots;
    // scripts/finish-web-build.mjs, docs/offline.md).
    const built = JSON.parse(readFileSync(projectPath('dist', 'web-manifest.json'), 'utf8')) as {
      routes: Record<string, number[]>
      vite: Record<string, { file: string }>
    }
    const node = built.routes['/gigs/[id]/live']![0]
    const file = built.vite[`.svelte-kit/generated/client-optimized/nodes/${node}.js`]!.file
    assert.equal(await page.locator(`link[rel="modulepreload"][href="/app/${file}"]`).count(), 1)
    // …and carried the pack's first answers: the app took the band's configuration, /me and the
    // live view from it, not from the worker (resource timing lists every request the page made).
    const first = await page.evaluate(() => ({
      kept: Object.keys(JSON.parse(
        document.getElementById('bandstand-first-answers')?.textContent ?? '{}') as object),
      asked: performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
    }))
    assert.deepEqual(first.kept.sort(), ['/gigs_lm/' + gigId, '/me', '/public/app_config'].sort())
    for (const path of ['/me', '/public/app_config']) {
      assert.ok(!first.asked.includes(path), `${path} was not asked: ${first.asked.join(' ')}`)
    }
    // What the phone shows at once (the helper's picture is of the whole page).
    await page.screenshot({ path: 'dist/screenshots/web-gig-pack-offline-phone.png' })
    await page.getByText('Whole setlist').click()
    await page.locator('li', { hasText: 'Barn Dance </script><p>' }).waitFor()
    assert.equal(await page.getByRole('dialog').count(), 0, 'no dialog covers the chart')
    assert.equal(await page.getByRole('alert').count(), 0, 'no alert, nobody is logged out')
    assert.match(page.url(), new RegExp(`/app/gigs/${gigId}/live$`))
    await checkA11y(page, 'live page offline from the gig pack')
    await screenshot(page, 'web-gig-pack-offline-live')
    // Still offline a while later: the page stays, the banner stays one line.
    await page.waitForTimeout(3000)
    assert.match(await status.innerText(), /^Offline · last update \d/)
    assert.match(page.url(), /\/live$/)
  })

  await step('back online: live again, still logged in, no console errors', async () => {
    await page.context().setOffline(false)
    await relay.start()
    await page.getByRole('status').filter({ hasText: /^Live/ }).waitFor()
    assert.match(page.url(), /\/live$/)
    assert.deepEqual(phone.problems().filter((problem) => !OUTAGE.test(problem)), [])
  })

  await step('a 401 while /refresh answers 503 or fails does not log out', async () => {
    // Without the service worker, so that the routes below see every request of the page.
    const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-GB' })
    t.after(() => context.close())
    const other = await context.newPage()
    await other.goto(`${base}/app/login`)
    await other.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('en')
    await logInAs(other, base, 'mia', PASSWORD)
    const expired = { status: 401, contentType: 'application/json', body: '{"code":"x"}' }
    // The API's gig (not the app's page of it, /app/gigs/<id>).
    const apiGig = (url: URL) => url.pathname === `/gigs/${gigId}`
    await context.route(apiGig, (route) => route.fulfill(expired))
    for (const refresh of [
      (route: Route) => route.fulfill({ status: 503, body: '' }),
      (route: Route) => route.abort('internetdisconnected')
    ]) {
      await context.route('**/refresh', refresh)
      await other.goto(`${base}/app/gigs/${gigId}`)
      await other.getByRole('button', { name: 'Try again' }).waitFor()
      assert.match(other.url(), new RegExp(`/app/gigs/${gigId}$`), 'not sent to the login page')
      await context.unroute('**/refresh')
    }
    // A refresh the reachable server refuses still ends the session.
    await context.route('**/refresh', (route) => route.fulfill(expired))
    await other.getByRole('button', { name: 'Try again' }).click()
    await other.waitForURL('**/app/login?next=*')
  })
})
