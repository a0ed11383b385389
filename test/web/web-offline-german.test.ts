import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { checkA11y, launchBrowser, screenshot, storySteps } from '#test/browser/harness.js'
import {
  apiAs, assertBackLinkOneLine, editorLogin, phoneOf, startLiveBand
} from '#test/browser/live-fixture.js'

// Gig night without a network in German: every offline state an editor's
// phone shows — saved for offline, taps pending in the outbox and sent, the offline banner of a
// reload without network, a frozen server, Undo and Make current — with the German words and
// axe clean in each.

const OUTAGE = /net::ERR_|Failed to load resource|signal timed out|aborted/i
const nowPlaying = (page: Page, title: string) =>
  page.getByRole('status', { name: 'Jetzt', exact: true }).getByText(title, { exact: true })
    .waitFor()
/** The live page's one line of status. */
const statusLine = (page: Page) => page.locator('.stage-bar [role="status"]')

test('every offline state in German', { timeout: 600_000 }, async (t) => {
  const band = await startLiveBand()
  const browser = await launchBrowser()
  t.after(async () => {
    band.server.child.kill('SIGCONT')
    await browser.close()
    await band.stop()
  })
  const editor = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
  const { page } = editor
  const gigId = band.liveGig.id
  const live = `${band.base}/app/gigs/${gigId}/live`
  const step = storySteps(t, editor, 'web-offline-german')
  const api = await apiAs(band, editorLogin.username, editorLogin.password)
  const entries = async () => {
    const view = (await api.request('GET', `/gigs_lm/${gigId}`)).body
    return view.sets.flatMap((set: { entries: unknown[] }) => set.entries) as {
      id: number
      status: string
    }[]
  }
  const statuses = async (count: number) => (await entries()).slice(0, count).map((e) => e.status)

  await step('the gig page in German: Offline speichern', async () => {
    await page.goto(`${band.base}/app/gigs/${gigId}`)
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
    await page.locator('html[lang="de"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'Offline speichern' }).click()
    const saved = page.getByRole('status').filter({ hasText: 'Offline gespeichert' })
    await saved.waitFor()
    assert.match(await saved.innerText(), /^Offline gespeichert .+ · [1-9]\d* kB$/)
    await checkA11y(page, 'gig page saved for offline, German')
    await screenshot(page, 'web-offline-de-saved')
  })

  await step('offline taps: pending in German, then sent once back online', async () => {
    await page.goto(live)
    await nowPlaying(page, 'Song 01')
    await statusLine(page).getByText('Live', { exact: true }).waitFor()
    // 360 px wide: the way back stays one line (it wrapped as "Zurück zum Auftritt").
    await assertBackLinkOneLine(page, 'Zum Auftritt')
    await page.evaluate(() => scrollTo(0, 0))
    await screenshot(page, 'web-offline-de-live-top')
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.context().setOffline(true)
    await page.getByRole('button', { name: 'Gespielt' }).click()
    await nowPlaying(page, 'Song 02')
    await page.getByRole('button', { name: 'Gespielt' }).click()
    await nowPlaying(page, 'Song 03')
    await statusLine(page).getByText('2 Eingaben noch nicht bestätigt').waitFor({ timeout: 15_000 })
    // The longest status line of the night beside it: the way back still one line.
    await assertBackLinkOneLine(page, 'Zum Auftritt')
    await page.evaluate(() => scrollTo(0, 0))
    await screenshot(page, 'web-offline-de-pending-top')
    assert.deepEqual(await statuses(2), ['planned', 'planned'], 'nothing reached the server')
    await checkA11y(page, 'taps pending offline, German')
    await screenshot(page, 'web-offline-de-pending')
  })

  await step('a reload without network: Offline · Stand, from the gig pack', async () => {
    await page.reload()
    await statusLine(page).getByText(/Offline · Stand \d/).waitFor()
    // The song as last known (the pack's, or with the queued taps shown).
    await page.getByRole('status', { name: 'Jetzt', exact: true }).getByText(/^Song 0[13]$/)
      .waitFor()
    assert.equal(await page.getByRole('dialog').count(), 0, 'no dialog covers the chart')
    await checkA11y(page, 'live page offline, German')
    await screenshot(page, 'web-offline-de-banner')
  })

  await step('back online: the outbox is sent, the line says Live again', async () => {
    await page.context().setOffline(false)
    await page.goto(live)
    // Song 03 first: the page shows the server's view (Song 01, "Live") before it has read the
    // taps left in its outbox (IndexedDB); only then are they shown, pending, and sent. So the
    // line's "Live" counts once they are (as in web-live-outbox.test.ts).
    await nowPlaying(page, 'Song 03')
    await statusLine(page)
      .filter({ hasText: /^\s*Live\b/, hasNotText: /nicht bestätigt|Offline/ })
      .waitFor({ timeout: 30_000 })
    assert.deepEqual(await statuses(3), ['played', 'played', 'planned'], 'both taps, once')
    await checkA11y(page, 'outbox sent, German')
  })

  await step('a frozen server: Verbinde neu / Offline, the tap Ausstehend', async () => {
    band.server.child.kill('SIGSTOP')
    await statusLine(page).filter({ hasText: /Verbinde neu…|Offline/ }).waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'Gespielt' }).click()
    await statusLine(page).getByText('1 Eingabe noch nicht bestätigt').waitFor()
    await page.getByText('Ausstehend: Der Server hat das noch nicht bestätigt.').waitFor()
    // Song 04 is current (pending): Song 05 comes next, named once. It was shown twice, as
    // "Als Nächstes" (the stage chart's bar) and "Danach" (the page), read as next and after next.
    await nowPlaying(page, 'Song 04')
    await page.getByRole('region', { name: 'Als Nächstes', exact: true })
      .getByText('Song 05', { exact: true }).waitFor()
    assert.equal(await page.getByText('Danach').count(), 0)
    assert.equal(await page.getByRole('region', { name: 'Nächstes Chart' }).count(), 0)
    await checkA11y(page, 'stalled, German')
    await screenshot(page, 'web-offline-de-stalled')
    band.server.child.kill('SIGCONT')
    await statusLine(page)
      .filter({ hasText: /^\s*Live\b/, hasNotText: /Verbinde|Offline|nicht bestätigt/ })
      .waitFor({ timeout: 30_000 })
    await nowPlaying(page, 'Song 04')
    assert.equal(await page.getByText('Ausstehend:').count(), 0, 'the note clears itself')
    assert.deepEqual(await statuses(4), ['played', 'played', 'played', 'planned'])
  })

  await step('Rückgängig and Jetzt spielen', async () => {
    await page.getByRole('button', { name: 'Rückgängig' }).click()
    await nowPlaying(page, 'Song 03')
    assert.deepEqual(await statuses(3), ['played', 'played', 'planned'])
    await page.getByText('Ganze Setlist').click()
    await page.getByRole('button', { name: 'Song 06', exact: true }).click()
    await checkA11y(page, 'Jetzt spielen offered, German')
    await screenshot(page, 'web-offline-de-make-current')
    await page.getByRole('button', { name: 'Jetzt spielen' }).click()
    await nowPlaying(page, 'Song 06')
    assert.deepEqual(
      await statuses(6),
      ['played', 'played', 'skipped', 'skipped', 'skipped', 'planned']
    )
    assert.deepEqual(
      editor.problems().filter((problem) => !OUTAGE.test(problem)),
      [],
      'no console errors besides the outage'
    )
  })
})
