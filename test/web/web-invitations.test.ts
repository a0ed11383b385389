import { test } from 'node:test'
import assert from 'node:assert/strict'
import { encode } from 'uqr'
import { ApiSession } from '#test/browser/api-client.js'
import { ADMIN_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot,
  type AppPage
} from '#test/browser/harness.js'

// The admin's New user form invites: no password field; after creating, the invitation link with
// Copy and a QR code (phone and desktop, English and German); the member redeems it on the
// "Choose your password" screen and logs in. Effects checked through the API.

const LABELS = {
  en: {
    newUser: 'New user',
    username: 'Username',
    displayName: 'Display name',
    create: 'Create user',
    invitation: (name: string) => `Invitation for ${name}`,
    link: (name: string) => `Invitation link for ${name}`,
    qr: (name: string) => `QR code of the invitation link for ${name}`,
    copy: 'Copy link',
    copied: 'Link copied',
    notMailed: 'Not mailed (no mail server is set up)'
  },
  de: {
    newUser: 'Neuer Benutzer',
    username: 'Benutzername',
    displayName: 'Anzeigename',
    create: 'Benutzer anlegen',
    invitation: (name: string) => `Einladung für ${name}`,
    link: (name: string) => `Einladungslink für ${name}`,
    qr: (name: string) => `QR-Code des Einladungslinks für ${name}`,
    copy: 'Link kopieren',
    copied: 'Link kopiert',
    notMailed: 'Nicht verschickt'
  }
}
type Language = keyof typeof LABELS

/** The path the QR component draws for a URL: the same modules uqr encodes here. */
const qrPath = (url: string) =>
  encode(url, { ecc: 'M', border: 4 })
    .data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
    .join('')

test('web app: the admin invites members; they choose their password', { timeout: 600_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const invites: Record<string, string> = {}

    async function adminIn (language: Language, viewport: typeof PHONE): Promise<AppPage> {
      if (language === 'en') {
        const app = await openAppInEnglish(browser, band.base, viewport)
        await logInAs(app.page, band.base, 'admin', ADMIN_PASSWORD)
        return app
      }
      const app = await openApp(browser, band.base, viewport, { locale: 'de-DE' })
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      const { page } = app
      await page.goto(`${band.base}/app/login`)
      await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('de')
      await page.getByLabel('Benutzername').fill('admin')
      await page.getByLabel('Passwort', { exact: true }).fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Anmelden' }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))
      return app
    }

    const cases = [
      ['en', PHONE, 'phone', 'Jonas'],
      ['en', DESKTOP, 'desktop', 'Kira'],
      ['de', PHONE, 'phone', 'Lotte'],
      ['de', DESKTOP, 'desktop', 'Malik']
    ] as const
    for (const [language, viewport, size, name] of cases) {
      await t.test(`${language}, ${size}: New user without a password, then the invitation`,
        async () => {
          const L = LABELS[language]
          const app = await adminIn(language, viewport)
          const { page } = app
          await page.goto(`${band.base}/app/admin/users`)
          await page.getByRole('button', { name: L.newUser }).click()
          const form = page.getByRole('form', { name: L.newUser })
          await form.getByLabel(L.username).fill(name.toLowerCase())
          await form.getByLabel(L.displayName).fill(name)
          assert.equal(await form.locator('input[type="password"]').count(), 0, 'no password')
          await form.getByRole('button', { name: L.create }).click()

          const invite = page.getByRole('region', { name: L.invitation(name) })
          const link = invite.getByRole('textbox', { name: L.link(name) })
          await link.waitFor()
          const url = await link.inputValue()
          assert.match(url, /^http:\/\/[^/]+\/app\/reset-password#token=[A-Za-z0-9_-]{43}$/)
          await invite.getByText(L.notMailed).waitFor()
          // The QR code carries exactly this link (drawn in the page, no request for it).
          const qr = invite.getByRole('img', { name: L.qr(name) })
          assert.equal(await qr.locator('path').getAttribute('d'), qrPath(url))
          const box = await qr.boundingBox()
          assert.ok(box && box.width >= 150 && box.x + box.width <= viewport.width, 'fits')
          await invite.getByRole('button', { name: L.copy }).click()
          await invite.getByRole('button', { name: L.copied }).waitFor()
          assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url)
          await checkA11y(page, `invitation (${language}, ${size})`)
          await screenshot(page, `admin-invitation-${language}-${size}`)

          // The effect, through the API: an active member with no password to change yet.
          const users = (await band.admin.get('/users')) as Array<Record<string, unknown>>
          const created = users.find((u) => u.username === name.toLowerCase())
          assert.ok(created, 'created')
          assert.equal(created.status, 'active')
          assert.equal(created.passwordChangeRequired, false)
          invites[name] = url
          app.assertClean()
          await app.context.close()
        })
    }

    await t.test('de, phone: the member opens the invitation and chooses a password', async () => {
      const app = await openApp(browser, band.base, PHONE, { locale: 'de-DE' })
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      const { page } = app
      await page.goto(invites.Lotte!)
      await page.getByRole('heading', { level: 1, name: 'Wähle dein Passwort' }).waitFor()
      await page.getByText(/Du bist zu Bandstand deiner Band eingeladen/).waitFor()
      await checkA11y(page, 'invitation redeemed (de, phone)')
      await screenshot(page, 'invitation-choose-password-de-phone')
      const password = 'she sings alto on sundays'
      await page.getByLabel('Neues Passwort', { exact: true }).fill(password)
      await page.getByLabel('Neues Passwort wiederholen').fill(password)
      await page.getByRole('button', { name: 'Mein Passwort speichern' }).click()
      await page.waitForURL(/\/app\/login$/)
      await page.getByText('Dein Passwort ist gesetzt.', { exact: false }).waitFor()
      const lotte = await ApiSession.login(band.base, 'lotte', password)
      assert.equal((await lotte.get('/me')).username, 'lotte')
      // Single use: the same link now says so.
      await page.goto(invites.Lotte!)
      app.allowHttpError('/password-reset/verify', 400)
      await page.getByRole('alert').waitFor()
      app.assertClean()
      await app.context.close()
    })
  }
)
