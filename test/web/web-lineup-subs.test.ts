import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { ApiSession } from '#test/browser/api-client.js'
import { ADMIN_PASSWORD, EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import { loggedInGerman } from '#test/browser/german.js'
import {
  checkA11y, DESKTOP, launchBrowser, logInAs, PHONE, screenshot, storySteps
} from '#test/browser/harness.js'
import { simpleParser } from 'mailparser'
import { smtpSink } from '#test/smtp-sink.js'

// "No drums confirmed": the editor sees the open need on the dashboard and in the gigs list, asks
// the band's occasional drummer, reminds the drummers only, and names a substitute who plays.

const mailsTo = async (sink: { messages: string[] }, address: string, count: number) => {
  for (let i = 0; i < 100; i++) {
    const mine = sink.messages.filter((raw) => raw.includes(`To: ${address}`))
    if (mine.length >= count) return mine
    await sleep(100)
  }
  throw new Error(`${address} got fewer than ${count} mails`)
}

test('web app: lineup warnings, subs asked, drummers reminded, a substitute named',
  { timeout: 600_000 }, async (t) => {
    const sink = await smtpSink()
    const band = await startBand({
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      PUBLIC_URL: 'https://band.example.org'
    })
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
      await sink.close()
    })
    const sam = await band.admin.ok('POST', '/users', {
      username: 'sam',
      displayName: 'Sam',
      email: 'sam@example.org',
      role: 'member',
      password: 'keeps the beat on sundays 77',
      instruments: ['Drums'],
      occasional: true
    })
    const gig = band.gig
    await band.editor.ok('PUT', `/gigs/${gig.id}/lineup`, {
      needs: [{ instrument: 'Bass', count: 1 }, { instrument: 'Drums', count: 1 }]
    })
    const mia = await ApiSession.login(band.base, band.member.username, band.member.password)
    await mia.ok('PUT', `/gigs/${gig.id}/availability`, { status: 'yes' })
    const app = await openAppInEnglish(browser, band.base, PHONE)
    const { page } = app
    const step = storySteps(t, app, 'web-lineup-subs')

    await step('the dashboard and the gigs list warn the editor', async () => {
      await logInAs(page, band.base, 'lena', EDITOR_PASSWORD)
      const next = page.getByRole('region', { name: 'Coming up' })
      await next.getByRole('listitem').filter({ hasText: gig.name })
        .getByText('No Drums confirmed').waitFor()
      await screenshot(page, 'lineup-dashboard-phone-en')
      await page.goto(`${band.base}/app/gigs`)
      await page.getByRole('listitem').filter({ hasText: gig.name })
        .getByText('No Drums confirmed').waitFor()
      await checkA11y(page, 'gigs list with lineup warnings')
      await screenshot(page, 'lineup-gigs-phone-en')
    })

    await step('the editor asks the sub and reminds the drummers only', async () => {
      await page.goto(`${band.base}/app/gigs/${gig.id}`)
      const lineup = page.getByRole('region', { name: 'Lineup' })
      await lineup.getByText('No Drums confirmed').waitFor()
      // An occasional member not asked owes no answer: nobody to remind yet.
      const remind = lineup.getByRole('button', { name: 'Remind the Drums players' })
      assert.equal(await remind.count(), 0)
      await lineup.getByLabel('Ask an occasional member').selectOption({ label: 'Sam' })
      await lineup.getByRole('button', { name: 'Ask', exact: true }).click()
      await lineup.getByText('Sam · asked').waitFor()
      await mailsTo(sink, 'sam@example.org', 1)
      await remind.click()
      await lineup.getByText('Reminder mailed to 1 member.').waitFor()
      const mails = await Promise.all((await mailsTo(sink, 'sam@example.org', 2))
        .map((raw) => simpleParser(raw)))
      assert.deepEqual(mails.map((m) => m.subject?.split(':')[0]), ['Neu', 'Bitte antworten'],
        'in the band\'s language')
      const reminders = await Promise.all(sink.messages.map((raw) => simpleParser(raw)))
      assert.equal(reminders.filter((m) => m.subject?.startsWith('Bitte antworten')).length, 1,
        'the drummers only: Mia (bass) has answered, nobody else plays drums')
    })

    await step('a substitute without a login covers the drums', async () => {
      const lineup = page.getByRole('region', { name: 'Lineup' })
      await lineup.getByLabel('Name', { exact: true }).fill('Kim')
      await lineup.getByLabel('Instrument').last().fill('Drums')
      await lineup.getByLabel(/^Contact/).fill('+49 170 1234567')
      await lineup.getByRole('button', { name: 'Add substitute' }).click()
      await lineup.getByText('Kim (substitute)').waitFor()
      assert.equal(await lineup.getByText('No Drums confirmed').count(), 0)
      const stored = await band.editor.get(`/gigs/${gig.id}/lineup`)
      assert.deepEqual(stored.needs.map((n: { missing: number }) => n.missing), [0, 0])
      await checkA11y(page, 'lineup with subs')
      await screenshot(page, 'lineup-subs-phone-en')
      await page.setViewportSize(DESKTOP)
      await screenshot(page, 'lineup-subs-desktop-en')
      app.assertClean()
    })

    await step('in German: the admin sees the sub marked, the editor the gig\'s subs', async () => {
      const admin = await loggedInGerman(browser, band.base, 'admin', ADMIN_PASSWORD, DESKTOP)
      await admin.page.goto(`${band.base}/app/admin/users/${sam.id}`)
      const occasional = admin.page.getByRole('checkbox', { name: /Aushilfe/ })
      await occasional.waitFor()
      assert.equal(await occasional.isChecked(), true)
      await checkA11y(admin.page, 'user page with the occasional flag')
      await screenshot(admin.page, 'user-occasional-desktop-de')
      await admin.page.goto(`${band.base}/app/gigs/${gig.id}`)
      const lineup = admin.page.getByRole('region', { name: 'Besetzung' })
      await lineup.getByText('Kim (Ersatz)').waitFor()
      await lineup.getByRole('heading', { name: 'Aushilfen und Ersatz' }).waitFor()
      await checkA11y(admin.page, 'gig lineup in German')
      await screenshot(admin.page, 'lineup-subs-desktop-de')
      await admin.page.setViewportSize(PHONE)
      await screenshot(admin.page, 'lineup-subs-phone-de')
      admin.assertClean()
      await admin.context.close()
    })
  })
