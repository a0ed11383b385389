import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot,
  storySteps
} from '#test/browser/harness.js'

// In the browser: free-text entries (a speech, the first dance) added and edited
// in the setlist editor, a warning when a song is in the setlist already, `New song` from the
// search; shown in live mode. Desktop in English, phone in German; the effect read from the API.

interface Entry {
  songId: number | null
  title: string
  notes: string | null
  customDurationSeconds: number | null
}
const entriesOf = (setlist: { sets: { entries: Entry[] }[] }) =>
  setlist.sets.flatMap((set) => set.entries)

/** A free-text entry has no chart: no chart area, none of its buttons. */
async function assertNoChartControls (page: Page, buttons: string[]) {
  // The chart area shows "loading" until the charts document is there; then it must go.
  await page.locator('.stage-chart').waitFor({ state: 'detached', timeout: 15_000 })
  for (const name of buttons) {
    assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `no ${name}`)
  }
}

test('web app: free-text setlist entries, the duplicate warning, New song from the search',
  { timeout: 900_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const { base, editor, laterGig } = band

    const desktop = await openApp(browser, base, DESKTOP)
    const step = storySteps(t, desktop, 'setlist-free-text')
    const page = desktop.page

    await step('desktop, English: a speech, a song twice (warned), a new song', async () => {
      desktop.allowHttpError('/me', 401)
      desktop.allowHttpError('/refresh', 401)
      await page.goto(`${base}/app/login`)
      await chooseEnglish(page)
      await logInAs(page, base, 'lena', EDITOR_PASSWORD)
      await page.goto(`${base}/app/gigs/${laterGig.id}/setlist`)
      await page.getByRole('heading', { level: 1, name: `Setlist: ${laterGig.name}` }).waitFor()

      await page.getByLabel('Title of a free-text entry').fill('Welcome speech')
      await page.getByRole('button', { name: 'Add entry' }).click()
      const speech = page.locator('[data-entry]').filter({ hasText: 'Welcome speech' })
      await speech.getByText('Free text').waitFor()
      await page.getByRole('button', { name: 'Details of Welcome speech' }).click()
      await page.getByLabel('Title', { exact: true }).fill('Speech of the best man')
      await page.getByLabel('Title', { exact: true }).press('Tab')
      await page.getByLabel('Notes').fill('Microphone 2')
      await page.getByLabel('Length').fill('3:00')
      await page.getByLabel('Length').press('Tab')
      await page.getByRole('button', { name: 'Details of Speech of the best man' }).click()

      const find = page.getByRole('searchbox', { name: 'Find song' })
      await find.fill('proud')
      await page.locator('.results li').filter({ hasText: 'Proud Mary' })
        .getByRole('button', { name: 'Add' }).click()
      await assert.rejects(
        page.getByText('is already in', { exact: false }).waitFor({ timeout: 500 }),
        'no warning for the first time'
      )
      await page.locator('.results li').filter({ hasText: 'Proud Mary' })
        .getByRole('button', { name: 'Add' }).click()
      await page.getByText('“Proud Mary” is already in Set 1; added once more.').waitFor()
      // A warning, not a block: both are there; the second goes again.
      assert.equal(await page.locator('[data-entry]').filter({ hasText: 'Proud Mary' }).count(), 2)
      await page.getByRole('button', { name: 'Details of Proud Mary' }).nth(1).click()
      await page.getByRole('button', { name: 'Remove Proud Mary' }).click()

      await find.fill('Zebra Crossing Blues')
      await page.getByText('No song found.').waitFor()
      await page.getByRole('button', { name: 'New song “Zebra Crossing Blues”' }).click()
      await page.locator('[data-entry]').filter({ hasText: 'Zebra Crossing Blues' }).waitFor()
      await checkA11y(page, 'setlist editor with a free-text entry')
      await screenshot(page, 'setlist-free-text-desktop')
      await page.getByRole('button', { name: 'Save setlist' }).click()
      await page.getByText('All changes saved').waitFor()

      const saved = entriesOf(await editor.get(`/gigs/${laterGig.id}/setlist`))
      assert.deepEqual(
        saved.map((e) => [e.title, e.songId === null]),
        [
          ['Speech of the best man', true],
          ['Proud Mary', false],
          ['Zebra Crossing Blues', false]
        ]
      )
      assert.equal(saved[0]!.notes, 'Microphone 2')
      assert.equal(saved[0]!.customDurationSeconds, 180)
      const songs: { id: number; title: string }[] = await editor.get('/songs')
      const zebra = songs.find((s) => s.title === 'Zebra Crossing Blues')
      assert.ok(zebra, 'the new song was created')
      assert.equal(saved[2]!.songId, zebra.id)
    })

    await step('live mode shows the free-text entry as the current one, without a chart',
      async () => {
        await page.goto(`${base}/app/gigs/${laterGig.id}/live`)
        await page.locator('.title').filter({ hasText: 'Speech of the best man' }).waitFor()
        // Its own length (3:00) is shown; a chart's controls are not: it has none.
        const now = page.getByRole('status', { name: 'Now playing' })
        assert.equal(await now.locator('dt', { hasText: 'Duration' }).count(), 1)
        await now.getByText('3:00', { exact: true }).waitFor()
        await assertNoChartControls(page, ['Transpose up', 'Transpose down', 'Larger text'])
        await checkA11y(page, 'live mode with a free-text entry')
        await screenshot(page, 'setlist-free-text-live-desktop')
      })

    const phone = await openApp(browser, base, PHONE)
    const phoneStep = storySteps(t, phone, 'setlist-free-text-phone')
    await phoneStep('phone, German: the first dance added as a free-text entry', async () => {
      phone.allowHttpError('/me', 401)
      phone.allowHttpError('/refresh', 401)
      const p = phone.page
      await p.goto(`${base}/app/login`)
      await p.getByLabel(/^(Username|Benutzername)$/).fill('lena')
      await p.getByLabel(/^(Password|Passwort)$/).fill(EDITOR_PASSWORD)
      await p.getByRole('button', { name: /^(Log in|Anmelden)$/ }).click()
      await p.waitForURL((url) => !url.pathname.startsWith('/app/login'))
      await p.locator('html[lang="de"]').waitFor({ state: 'attached' })
      await p.goto(`${base}/app/gigs/${laterGig.id}/setlist`)
      await p.getByLabel('Titel eines freien Eintrags').fill('Eröffnungstanz')
      await p.getByRole('button', { name: 'Eintrag hinzufügen' }).click()
      await p.locator('[data-entry]').filter({ hasText: 'Eröffnungstanz' })
        .getByText('Freier Eintrag').waitFor()
      await checkA11y(p, 'setlist editor, phone, German')
      await screenshot(p, 'setlist-free-text-phone-de')
      await p.getByRole('button', { name: 'Setlist speichern' }).click()
      await p.getByText('Alles gespeichert').waitFor()
      const saved = entriesOf(await editor.get(`/gigs/${laterGig.id}/setlist`))
      assert.deepEqual(saved.at(-1), {
        ...saved.at(-1),
        title: 'Eröffnungstanz',
        songId: null,
        customDurationSeconds: null
      })
    })

    await phoneStep('phone, German: live mode on the first dance, no length and no chart',
      async () => {
        const p = phone.page
        // The band is at the first dance (Make current, as an editor taps it in live mode).
        const live = await editor.get(`/gigs_lm/${laterGig.id}`)
        const dance = entriesOf(live).at(-1)! as Entry & { id: number }
        await editor.ok('POST', `/gigs_lm/${laterGig.id}/current`,
          { entryId: dance.id, version: live.version })
        await p.goto(`${base}/app/gigs/${laterGig.id}/live`)
        const now = p.getByRole('status', { name: 'Jetzt', exact: true })
        await now.getByText('Eröffnungstanz', { exact: true }).waitFor()
        await now.getByText('Geplant').waitFor()
        // Before: "Dauer 0:00" and the chart's buttons for an entry that has neither.
        assert.equal(await now.getByText('Dauer').count(), 0, 'no length shown')
        assert.equal(await now.getByText('0:00').count(), 0, 'no 0:00 shown')
        await assertNoChartControls(p, [
          'Höher transponieren', 'Tiefer transponieren', 'Größere Schrift', 'Akkorde'
        ])
        await checkA11y(p, 'live mode on a free-text entry, phone, German')
        await screenshot(p, 'setlist-free-text-live-phone-de')
      })
  })
