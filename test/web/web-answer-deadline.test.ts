import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dayFromNow } from '#test/browser/api-client.js'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import { loggedInGerman } from '#test/browser/german.js'
import {
  checkA11y, launchBrowser, logInAs, PHONE, screenshot, storySteps
} from '#test/browser/harness.js'

// The gig page's answer deadline: the editor sets it and closes the answers, "Remind now" says
// plainly when the server sends no mail, and the member then reads that answers are closed. The
// effects are checked through the API.

test('web app: the answer deadline, the lock and Remind now on the gig page',
  { timeout: 600_000 }, async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const gig = band.laterGig
    const deadlineUrl = `/gigs/${gig.id}/answer-deadline`
    const app = await openAppInEnglish(browser, band.base, PHONE)
    // Remind now on a server without SMTP_URL: the 409 is the answer being tested.
    app.allowHttpError(`/gigs/${gig.id}/reminders`, 409)
    const { page } = app
    const step = storySteps(t, app, 'web-answer-deadline')
    const by = dayFromNow(5)

    await step('the editor sets the deadline', async () => {
      await logInAs(page, band.base, 'lena', EDITOR_PASSWORD)
      await page.goto(`${band.base}/app/gigs/${gig.id}`)
      // The band's default (14 days before, past already) only timed reminders: not shown.
      await page.getByLabel('Answer by').waitFor()
      assert.equal(await page.getByText(/^Please answer by /).count(), 0)
      await page.getByLabel('Answer by').fill(by)
      await page.getByRole('button', { name: 'Save deadline' }).click()
      await page.getByText('Deadline saved').waitFor()
      await page.getByText(/^Please answer by /).waitFor()
      const deadline = await band.editor.get(deadlineUrl)
      assert.equal(deadline.own, by)
      assert.equal(deadline.closed, false)
    })

    await step('Remind now says that this server sends no mail', async () => {
      await page.getByRole('button', { name: 'Remind those who have not answered' }).click()
      await page.getByText('This server sends no mail').first().waitFor()
      await checkA11y(page, 'answer deadline, editor')
      await screenshot(page, 'answer-deadline-editor-en')
    })

    await step('closing the answers', async () => {
      await page.getByLabel('Close answers now').check()
      await page.getByRole('button', { name: 'Save deadline' }).click()
      await page.getByText('Answers are closed.').waitFor()
      assert.equal((await band.editor.get(deadlineUrl)).closed, true)
      app.assertClean()
    })

    await step('the member reads that answers are closed, in German', async () => {
      const member = await loggedInGerman(browser, band.base, 'mia', band.member.password)
      const mp = member.page
      await mp.goto(`${band.base}/app/gigs/${gig.id}`)
      await mp.getByText('Die Antworten sind geschlossen.').waitFor()
      assert.equal(await mp.getByRole('button', { name: 'Frist speichern' }).count(), 0)
      await checkA11y(mp, 'answers closed, member')
      await screenshot(mp, 'answer-deadline-member-de')
      member.assertClean()
      await member.context.close()
    })
  })
