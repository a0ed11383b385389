import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ApiSession } from '#test/browser/api-client.js'
import { MEMBER_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot,
  storySteps
} from '#test/browser/harness.js'
import { phoneKeys } from '#test/push-service.js'

// The profile's push switch. Headless Chromium has no push service to subscribe at, so the page
// gets a stand-in PushManager whose subscription names an https push service and real keys: the
// switch, the permission and the server's list are what is tested (delivery is tested against a
// local push service in test/plugins/notifications/push-delivery.test.ts).

const ENDPOINT = 'https://push.example.net/send/mia-phone'

test('web app: a member turns push notifications on and off for this phone; a browser ' +
  'without push says why', { timeout: 240_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const app = await openApp(browser, band.base, PHONE)
  const { page, context } = app
  await context.grantPermissions(['notifications'], { origin: band.base })
  const { keys } = phoneKeys()
  // A string, not a function: the test's compiler would add helpers the page does not have.
  await page.addInitScript(`
    localStorage.setItem('bandstand.locale', localStorage.getItem('bandstand.locale') || 'en')
    // Kept across reloads, as the browser keeps a subscription.
    const subscription = {
      endpoint: ${JSON.stringify(ENDPOINT)},
      toJSON: () => (${JSON.stringify({ endpoint: ENDPOINT, expirationTime: null, keys })}),
      unsubscribe: async () => { sessionStorage.removeItem('push'); return true }
    }
    PushManager.prototype.getSubscription = async () =>
      sessionStorage.getItem('push') ? subscription : null
    PushManager.prototype.subscribe = async () => {
      sessionStorage.setItem('push', '1')
      return subscription
    }
  `)
  const listed = () => page.evaluate(async () =>
    ((await (await fetch('/me/push-subscriptions')).json()) as {
      subscriptions: Array<{ endpoint: string }>
    }).subscriptions.map((s) => s.endpoint))
  const step = storySteps(t, app, 'push-settings')

  await step('the switch turns push on and off, and the server knows', async () => {
    await logInAs(page, band.base, 'mia', MEMBER_PASSWORD)
    await page.goto(`${band.base}/app/me`)
    const card = page.getByRole('region', { name: 'Push notifications' })
    const toggle = card.getByRole('checkbox', { name: 'Push notifications on this phone' })
    await toggle.waitFor()
    assert.equal(await toggle.isChecked(), false)
    await checkA11y(page, 'push settings')
    await toggle.check()
    await page.getByRole('status').filter({ hasText: 'Push notifications are on' }).waitFor()
    assert.deepEqual(await listed(), [ENDPOINT])
    await screenshot(page, 'push-settings-phone')
    await page.reload()
    await card.getByRole('checkbox', { name: 'Push notifications on this phone', checked: true })
      .waitFor()
    await toggle.uncheck()
    await page.getByRole('status').filter({ hasText: 'Push notifications are off' }).waitFor()
    assert.deepEqual(await listed(), [])

    // On again, then logged out: the phone no longer gets Mia's notifications.
    await toggle.check()
    await page.getByRole('status').filter({ hasText: 'Push notifications are on' }).waitFor()
    assert.deepEqual(await listed(), [ENDPOINT])
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/app/login'))
    const mia = await ApiSession.login(band.base, 'mia', MEMBER_PASSWORD)
    assert.deepEqual((await mia.ok('GET', '/me/push-subscriptions')).subscriptions, [])
    app.assertClean()
  })

  await t.test('German, desktop: a browser without push says why', async () => {
    const german = await openApp(browser, band.base, DESKTOP, { locale: 'de-DE' })
    await german.page.addInitScript('delete globalThis.PushManager')
    // The band's own language, German.
    await german.page.goto(`${band.base}/app/login`)
    await german.page.getByLabel('Benutzername').fill('mia')
    await german.page.getByLabel('Passwort', { exact: true }).fill(MEMBER_PASSWORD)
    await german.page.getByRole('button', { name: 'Anmelden' }).click()
    await german.page.waitForURL((url) => !url.pathname.startsWith('/app/login'))
    await german.page.goto(`${band.base}/app/me`)
    const card = german.page.getByRole('region', { name: 'Push-Mitteilungen' })
    await card.getByText('Dieser Browser bietet keine Push-Mitteilungen.').waitFor()
    assert.equal(await card.getByRole('checkbox').count(), 0)
    await checkA11y(german.page, 'push settings, German')
    await screenshot(german.page, 'push-settings-desktop-de')
    german.assertClean()
  })
})
