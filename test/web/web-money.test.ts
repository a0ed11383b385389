import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ApiSession } from '#test/browser/api-client.js'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import { loggedInGerman } from '#test/browser/german.js'
import {
  checkA11y, DESKTOP, launchBrowser, logInAs, PHONE, screenshot, storySteps
} from '#test/browser/harness.js'

// A gig's money as a band keeps it: the editor types the fee, an expense and the band fund's
// percentage on a phone, sees the split before saving, marks the fee paid; the balances page
// suggests who pays whom and records it; the member reads their own share in German. Every
// effect is checked through the API.

test('web app: gig money, the split, balances and the member’s share', { timeout: 600_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const mia = await ApiSession.login(band.base, band.member.username, band.member.password)
    await mia.ok('PUT', `/gigs/${band.gig.id}/availability`, { status: 'yes' })
    await band.editor.ok('PUT', `/gigs/${band.gig.id}/availability`, { status: 'yes' })
    const me = await band.editor.get('/me')

    const app = await openAppInEnglish(browser, band.base, PHONE)
    const { page } = app
    const step = storySteps(t, app, 'web-money')
    await step('the editor opens the gig’s money from the gig page', async () => {
      await logInAs(page, band.base, 'lena', EDITOR_PASSWORD)
      await page.goto(`${band.base}/app/gigs/${band.gig.id}`)
      await page.getByRole('link', { name: 'Money', exact: true }).click()
      await page.getByRole('heading', { name: `Money: ${band.gig.name}` }).waitFor()
    })

    await step('fee, expense and 10 % to the band fund: the split shows before saving',
      async () => {
        await page.getByLabel('Agreed fee').fill('1250.50')
        await page.getByRole('button', { name: 'Add expense' }).click()
        await page.getByLabel('What', { exact: true }).fill('PA hire')
        await page.getByLabel('Amount', { exact: true }).fill('200')
        await page.getByLabel('Paid by').selectOption({ label: 'Mia' })
        await page.getByRole('button', { name: 'Add percentage' }).click()
        await page.getByLabel('Name (band fund, substitute)').fill('Band fund')
        await page.getByLabel('Percent').fill('10')
        const split = page.getByRole('region', { name: 'Distribution' })
        // Net 1,050.50: the fund 105.05, Mia and Lena 472.73 and 472.72.
        await split.getByText('£1,050.50').or(split.getByText('€1,050.50')).waitFor()
        await split.getByText('€105.05').waitFor()
        await split.getByText('€472.73').waitFor()
        await checkA11y(page, 'gig money editor')
        await screenshot(page, 'money-editor-phone-en')
        await page.getByRole('button', { name: 'Save money' }).click()
        await page.getByText('Money saved').waitFor()
        const money = await band.editor.get(`/gigs/${band.gig.id}/money`)
        assert.equal(money.version, 1)
        assert.equal(money.fee.amountCents, 125050)
        assert.deepEqual(money.expenses,
          [{ paidBy: { userId: band.member.id }, title: 'PA hire', amountCents: 20000 }])
        assert.deepEqual(money.rules.percentages, [{ to: { name: 'Band fund' }, percent: 10 }])
        assert.deepEqual(money.distribution.map((s: { amountCents: number }) => s.amountCents),
          [10505, 47273, 47272])
      })

    await step('the fee is paid to Lena: the balances page suggests the transfers', async () => {
      await page.getByLabel('The fee is paid').check()
      await page.getByLabel('Received by').selectOption({ label: 'Lena' })
      // "Money saved" still shows from the first save: wait for this save's answer instead.
      const saved = page.waitForResponse((r) => r.request().method() === 'PUT' &&
        r.url().endsWith(`/gigs/${band.gig.id}/money`))
      await page.getByRole('button', { name: 'Save money' }).click()
      assert.equal((await saved).status(), 200)
      assert.equal((await band.editor.get(`/gigs/${band.gig.id}/money`)).fee.paid, true)
      await page.getByRole('link', { name: 'Who owes whom' }).click()
      // Mia laid out 200.00 and gets 472.73 (the first player by id gets the cent): 672.73.
      const transfer = 'Lena pays Mia €672.73'
      await page.getByText(transfer).first().waitFor()
      await checkA11y(page, 'balances')
      await screenshot(page, 'money-balances-phone-en')
      await page.getByRole('button', { name: `Mark as paid: ${transfer}` }).click()
      await page.getByText('Payment recorded').waitFor()
      const balances = await band.editor.get('/money/balances')
      assert.equal(balances.balances.find((b: { userId?: number }) => b.userId === band.member.id),
        undefined, 'Mia is settled')
      assert.deepEqual(balances.transfers,
        [{ from: { userId: me.id }, to: { name: 'Band fund' }, amountCents: 10505 }])
      const payments = await band.editor.get('/money/payments')
      assert.equal(payments.length, 1)
      app.assertClean()
    })

    await step('desktop: the season figures with their downloads', async () => {
      await page.setViewportSize(DESKTOP)
      const season = page.getByRole('region', { name: /^Season / })
      await season.getByRole('row', { name: /Mia/ }).waitFor()
      await season.getByRole('link', { name: 'Workbook (.xlsx)' }).waitFor()
      await screenshot(page, 'money-balances-desktop-en')
    })

    await step('the member reads her share in German, nothing else', async () => {
      const member = await loggedInGerman(browser, band.base, 'mia', band.member.password)
      const mp = member.page
      await mp.goto(`${band.base}/app/gigs/${band.gig.id}`)
      await mp.getByRole('link', { name: 'Geld', exact: true }).click()
      const share = mp.getByRole('region', { name: 'Dein Anteil' })
      await share.getByText(/472,73\s€/).waitFor()
      assert.equal(await mp.getByRole('button', { name: 'Geld speichern' }).count(), 0)
      await checkA11y(mp, 'member share')
      await screenshot(mp, 'money-share-phone-de')
      member.assertClean()
      await member.context.close()
    })
  })
