import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ApiSession } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import { loggedInGerman } from '#test/browser/german.js'
import {
  checkA11y, DESKTOP, launchBrowser, logInAs, PHONE, screenshot, storySteps
} from '#test/browser/harness.js'
import { smtpSink } from '#test/smtp-sink.js'

// A member asks for the weekly digest in the profile's Mail section, and finds it there again.

test('web app: the weekly digest is turned on in the profile', { timeout: 600_000 }, async (t) => {
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
  const app = await openAppInEnglish(browser, band.base, PHONE)
  const { page } = app
  const step = storySteps(t, app, 'web-mail-digest')
  const mia = await ApiSession.login(band.base, band.member.username, band.member.password)

  await step('Mia turns the digest on', async () => {
    await logInAs(page, band.base, band.member.username, band.member.password)
    await page.goto(`${band.base}/app/me`)
    const mail = page.getByRole('form', { name: 'Mail' })
    const digest = mail.getByRole('checkbox', { name: /weekly digest on Mondays/ })
    assert.equal(await digest.isChecked(), false, 'opt-in')
    await digest.check()
    await mail.getByRole('button', { name: 'Save mail settings' }).click()
    await page.getByText('Mail settings saved').waitFor()
    const stored = await mia.get('/me/notifications')
    assert.equal(stored.digest, true)
    assert.equal(stored.newEvents, true)
    await checkA11y(page, 'mail settings with the digest')
    await screenshot(page, 'mail-digest-phone-en')
    app.assertClean()
  })

  await step('in German on a desktop, the choice is kept', async () => {
    const german = await loggedInGerman(browser, band.base, band.member.username,
      band.member.password, DESKTOP)
    await german.page.goto(`${band.base}/app/me`)
    const digest = german.page.getByRole('form', { name: 'Mail' })
      .getByRole('checkbox', { name: /Wochenüberblick/ })
    await digest.waitFor()
    assert.equal(await digest.isChecked(), true)
    await checkA11y(german.page, 'mail settings in German')
    await screenshot(german.page, 'mail-digest-desktop-de')
    german.assertClean()
    await german.context.close()
  })
})
