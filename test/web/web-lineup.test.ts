import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ApiSession } from '#test/browser/api-client.js'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import {
  checkA11y, DESKTOP, launchBrowser, logInAs, PHONE, screenshot, storySteps
} from '#test/browser/harness.js'

// "We have no drummer for Saturday": the editor states what the gig needs by instrument, and the
// gig page says which need is open and who plays the others. Checked through the API.

test('web app: the gig lineup by instrument, open needs named', { timeout: 600_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const mia = await ApiSession.login(band.base, band.member.username, band.member.password)
    await mia.ok('PUT', `/gigs/${band.gig.id}/availability`, { status: 'yes' })
    const app = await openAppInEnglish(browser, band.base, PHONE)
    const { page } = app
    const step = storySteps(t, app, 'web-lineup')

    await step('the editor says the gig needs bass and drums', async () => {
      await logInAs(page, band.base, 'lena', EDITOR_PASSWORD)
      await page.goto(`${band.base}/app/gigs/${band.gig.id}`)
      const lineup = page.getByRole('region', { name: 'Lineup' })
      await lineup.getByText(/No needs stated/).waitFor()
      await lineup.getByRole('button', { name: 'Edit lineup' }).click()
      for (const [i, instrument] of ['Bass', 'Drums'].entries()) {
        await lineup.getByRole('button', { name: 'Add instrument' }).click()
        await lineup.getByLabel('Instrument').nth(i).fill(instrument)
      }
      await lineup.getByRole('button', { name: 'Save lineup' }).click()
      await page.getByText('Lineup saved').waitFor()
      const stored = await band.editor.get(`/gigs/${band.gig.id}/lineup`)
      assert.deepEqual(stored.needs.map((n: { instrument: string, missing: number }) =>
        [n.instrument, n.missing]), [['Bass', 0], ['Drums', 1]])
    })

    await step('the page names the open need and who plays the others', async () => {
      const lineup = page.getByRole('region', { name: 'Lineup' })
      await lineup.getByText('No Drums confirmed').waitFor()
      await lineup.getByRole('listitem').filter({ hasText: 'Bass' }).getByText('Mia').waitFor()
      await checkA11y(page, 'lineup')
      await screenshot(page, 'lineup-phone-en')
      await page.setViewportSize(DESKTOP)
      await screenshot(page, 'lineup-desktop-en')
      app.assertClean()
    })
  })
