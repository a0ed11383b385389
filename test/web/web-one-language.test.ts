import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { ADMIN_PASSWORD, startBand, type Band } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  openApp,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'
import { foreignWords, screenWords, stringsIn, wordsOf } from '#test/browser/language-words.js'

/** Every string the band itself wrote (titles, names, places, its lists): not the app's labels. */
async function bandData (band: Band): Promise<string[]> {
  const paths = [
    '/songs',
    '/gigs',
    '/gigs?past=true',
    '/rehearsals',
    '/surveys',
    '/users',
    '/public/app_config',
    `/gigs/${band.gig.id}`,
    `/gigs/${band.gig.id}/schedule`,
    `/gigs/${band.gig.id}/setlist`,
    `/gigs/${band.laterGig.id}`
  ]
  const documents = await Promise.all(paths.map((path) => band.admin.ok('GET', path)))
  return documents.flatMap(stringsIn).flatMap(wordsOf)
}

/** The main screens an admin sees, each named by the path it opens. */
const screens = (band: Band) => [
  '/app/',
  '/app/gigs',
  `/app/gigs/${band.gig.id}`,
  `/app/gigs/${band.gig.id}/schedule`,
  '/app/rehearsals',
  '/app/songs',
  '/app/repertoire',
  '/app/surveys',
  '/app/me',
  '/app/admin/users',
  '/app/admin/config',
  '/app/admin/setup'
]

async function settle (page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await page
    .locator('.spinner')
    .first()
    .waitFor({ state: 'detached', timeout: WAIT })
    .catch(() => {})
}

// A screen speaks one language. Every main screen is walked in German and in
// English; a word of the other language's catalogue (one that language alone uses, and not the
// band's own data) fails the walk and names the screen.
test('web app: one language per screen, German and English', { timeout: 600_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const data = await bandData(band)

  for (const [language, viewport, login] of [
    ['de', PHONE, { user: 'Benutzername', password: 'Passwort', button: 'Anmelden' }],
    ['en', DESKTOP, { user: 'Username', password: 'Password', button: 'Log in' }]
  ] as const) {
    await t.test(`${language}: no word of the other language on any main screen`, async () => {
      const foreign = await foreignWords(language === 'de' ? 'en' : 'de', data)
      const app = await openApp(browser, band.base, viewport, {
        locale: language === 'de' ? 'de-DE' : 'en-GB'
      })
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      const { page } = app
      // The band chose German: an English device chooses English from the language menu.
      await page.context().addInitScript((lang) => {
        const key = 'bandstand.locale'
        if (!localStorage.getItem(key)) localStorage.setItem(key, lang)
      }, language)
      await page.goto(`${band.base}/app/login`)
      await page.getByLabel(login.user).fill('admin')
      await page.getByLabel(login.password, { exact: true }).fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: login.button }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))

      const found: string[] = []
      for (const path of screens(band)) {
        await page.goto(`${band.base}${path}`)
        await settle(page)
        const words = [...new Set((await screenWords(page)).filter((w) => foreign.has(w)))]
        if (words.length) found.push(`${path}: ${words.join(', ')}`)
      }
      assert.deepEqual(found, [], `${language} screens show only ${language} words`)

      // The running order names the gig's own times and counts songs in this language.
      await page.goto(`${band.base}/app/gigs/${band.gig.id}`)
      const order = page.getByRole('region', { name: language === 'de' ? 'Ablauf' : /Running/ })
      await order.getByText(language === 'de' ? 'Einlass' : 'Doors', { exact: true }).waitFor()
      await order.getByText(language === 'de' ? 'Beginn' : 'Start', { exact: true }).waitFor()
      await order.getByText(language === 'de' ? /^\d+ Titel$/ : /^\d+ songs?$/).first().waitFor()
      await checkA11y(page, `gig page (${language})`)
      await screenshot(page, `one-language-gig-${language}`)
      app.assertClean()
      await app.context.close()
    })
  }
})
