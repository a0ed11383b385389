import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { DESKTOP, checkA11y, launchBrowser, screenshot, storySteps } from '#test/browser/harness.js'
import {
  apiAs,
  assertBackLinkOneLine,
  currentEntry,
  editorLogin,
  phoneOf,
  startLiveBand
} from '#test/browser/live-fixture.js'

// Gig night at the edge of the Wi-Fi: the server stops answering without closing anything (a
// frozen process, SIGSTOP), and the editor corrects a mis-tap with Undo and Make current.

const OUTAGE = /net::ERR_|Failed to load resource|signal timed out|aborted/i
const nowPlaying = (page: Page, title: string) =>
  page.getByRole('status', { name: 'Now playing' }).getByText(title, { exact: true }).waitFor()
/** The live page's one line of status (the connection, pending taps, the latest refusal). */
const statusLine = (page: Page) => page.locator('.stage-bar [role="status"]')

test('a stalled server is seen; Undo and Make current', { timeout: 600_000 }, async (t) => {
  const band = await startLiveBand()
  const browser = await launchBrowser()
  t.after(async () => {
    band.server.child.kill('SIGCONT')
    await browser.close()
    await band.stop()
  })
  const editor = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
  const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
  const gigId = band.liveGig.id
  const step = storySteps(t, editor, 'web-live-stall')
  const api = await apiAs(band, editorLogin.username, editorLogin.password)
  const entries = async () => {
    const view = (await api.request('GET', `/gigs_lm/${gigId}`)).body
    return view.sets.flatMap((set: { entries: unknown[] }) => set.entries) as {
      id: number
      status: string
      song: { title: string }
    }[]
  }

  await step('both phones follow the show: Live', async () => {
    for (const phone of [editor, mia]) {
      await phone.page.goto(`${band.base}/app/gigs/${gigId}/live`)
      await nowPlaying(phone.page, 'Song 01')
      await statusLine(phone.page).getByText('Live', { exact: true }).waitFor()
    }
    await assertBackLinkOneLine(editor.page, 'Back to the gig')
  })

  await step('frozen server: Reconnecting/Offline within ~20 s, the tap pending', async () => {
    const frozen = Date.now()
    band.server.child.kill('SIGSTOP')
    const seen = await Promise.all(
      [editor, mia].map(async (phone) => {
        await statusLine(phone.page)
          .filter({ hasText: /Reconnecting|Offline/ })
          .waitFor({ timeout: 60_000 })
        return Date.now() - frozen
      })
    )
    t.diagnostic(`stall seen after ${seen.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`)
    // The last byte was a heartbeat at most 15 s before the freeze; 20 s of silence then.
    for (const ms of seen) assert.ok(ms <= 26_000, `seen after ${ms} ms (≤ 20 s of silence + 5)`)
    // Still readable: the song stays.
    await nowPlaying(mia.page, 'Song 01')
    // A tap the server cannot answer is pending, not done.
    await editor.page.getByRole('button', { name: 'Played' }).click()
    await statusLine(editor.page).getByText('1 tap not confirmed yet').waitFor()
    await editor.page.getByText('Pending: the server has not confirmed this yet.').waitFor()
    // The pending tap made Song 02 current; Song 03 is next, named once (not also as Up next).
    await nowPlaying(editor.page, 'Song 02')
    await editor.page.getByRole('region', { name: 'Next', exact: true })
      .getByText('Song 03', { exact: true }).waitFor()
    assert.equal(await editor.page.getByRole('region', { name: /Up next|Next chart/ }).count(), 0)
    await statusLine(editor.page).getByText(/Offline · last update \d/).waitFor({ timeout: 30_000 })
    await assertBackLinkOneLine(editor.page, 'Back to the gig')
    await editor.page.evaluate(() => scrollTo(0, 0))
    await screenshot(editor.page, 'web-live-stalled-editor-top')
    await screenshot(editor.page, 'web-live-stalled-editor')
    await checkA11y(editor.page, 'stalled (editor)')
    await checkA11y(mia.page, 'stalled (member)')
  })

  await step('the server resumes: one line clears itself, every phone catches up', async () => {
    band.server.child.kill('SIGCONT')
    for (const phone of [editor, mia]) {
      await statusLine(phone.page)
        .filter({ hasText: /^\s*Live\b/, hasNotText: /Reconnecting|Offline|not confirmed/ })
        .waitFor({ timeout: 30_000 })
      await nowPlaying(phone.page, 'Song 02')
    }
    assert.equal(await editor.page.getByText('Pending: the server').count(), 0)
    const [first] = await entries()
    assert.equal(first!.status, 'played', 'the tap was stored once it arrived')
  })

  await step('Undo reverts the last tap on every phone', async () => {
    await editor.page.getByRole('button', { name: 'Played' }).click()
    await nowPlaying(mia.page, 'Song 03')
    await editor.page.getByRole('button', { name: 'Undo' }).click()
    for (const phone of [editor, mia]) await nowPlaying(phone.page, 'Song 02')
    const list = await entries()
    assert.deepEqual(
      list.slice(0, 3).map((e) => e.status),
      ['played', 'planned', 'planned']
    )
  })

  await step('Make current on a setlist entry: the band skipped ahead', async () => {
    await editor.page.getByText('Whole setlist').click()
    await editor.page.getByRole('button', { name: 'Song 05', exact: true }).click()
    await screenshot(editor.page, 'web-live-make-current')
    await checkA11y(editor.page, 'make current offered')
    await editor.page.getByRole('button', { name: 'Make current' }).click()
    for (const phone of [editor, mia]) await nowPlaying(phone.page, 'Song 05')
    const list = await entries()
    assert.deepEqual(
      list.slice(0, 5).map((e) => e.status),
      ['played', 'skipped', 'skipped', 'skipped', 'planned']
    )
    assert.equal(await currentEntry(mia.page).getAttribute('data-entry-id'), String(list[4]!.id))
    // And back: Undo restores the three songs.
    await editor.page.getByRole('button', { name: 'Undo' }).click()
    await nowPlaying(mia.page, 'Song 02')
  })

  await step('German, desktop: the same controls and one line of status', async () => {
    const { page } = editor
    await page.setViewportSize(DESKTOP)
    // The stage hides the app's bar (and its language menu): the device's choice, as the menu sets.
    await page.evaluate(() => localStorage.setItem('bandstand.locale', 'de'))
    await page.reload()
    await page.getByRole('status', { name: 'Jetzt', exact: true }).getByText('Song 02').waitFor()
    await statusLine(page).getByText('Live', { exact: true }).waitFor()
    await page.getByText('Ganze Setlist').click()
    await page.getByRole('button', { name: 'Song 04', exact: true }).click()
    await page.getByRole('button', { name: 'Jetzt spielen' }).waitFor()
    await page.getByRole('button', { name: 'Rückgängig' }).waitFor()
    await checkA11y(page, 'live mode, German, desktop')
    await screenshot(page, 'web-live-corrections-de-desktop')
    for (const phone of [editor, mia]) {
      assert.deepEqual(
        phone.problems().filter((problem) => !OUTAGE.test(problem)),
        [],
        'no console errors besides the outage'
      )
    }
  })
})
