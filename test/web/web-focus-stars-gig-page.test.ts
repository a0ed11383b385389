import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { dayFromNow } from '#test/browser/api-client.js'
import {
  ADMIN_PASSWORD,
  EDITOR_PASSWORD,
  MEMBER_PASSWORD,
  startBand
} from '#test/browser/band-fixture.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  openApp,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'
import { pageOpener } from '#test/browser/logged-in.js'

// In Chromium, at phone and desktop size, in English and German: a
// failed submit puts focus on the error, ratings read as stars, the gig page has a way to jump and
// says what "not yet published" means, PDFs open in the browser with a Download link beside.

const COMBOS = [
  [PHONE, 'en', 'phone'],
  [PHONE, 'de', 'phone'],
  [DESKTOP, 'en', 'desktop'],
  [DESKTOP, 'de', 'desktop']
] as const

const WORDS = {
  en: {
    timezone: 'Timezone',
    saveConfig: 'Save configuration',
    jump: 'On this page',
    documents: 'Documents',
    draft: 'Draft: the setlist may still change until an editor publishes it to the band.',
    stagePdf: 'Stage setlist PDF',
    download: 'Download Stage setlist PDF',
    played: 'Played',
    rate: (n: number) => `Rate ${n}`,
    rated: (stars: string) => `rated ${stars}`,
    wholeSetlist: 'Whole setlist'
  },
  de: {
    timezone: 'Zeitzone',
    saveConfig: 'Einstellungen speichern',
    jump: 'Auf dieser Seite',
    documents: 'Dokumente',
    draft: 'Entwurf: Die Setlist kann sich noch ändern, bis sie an die Band veröffentlicht wird.',
    stagePdf: 'Bühnen-Setlist (PDF)',
    download: 'Bühnen-Setlist (PDF) herunterladen',
    played: 'Gespielt',
    rate: (n: number) => `Mit ${n} von 3 Sternen bewerten`,
    rated: (stars: string) => `bewertet ${stars}`,
    wholeSetlist: 'Ganze Setlist'
  }
} as const

const openAs = pageOpener()

/** The element is inside the viewport (what the eye sees without scrolling). */
async function inView (page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const box = document.querySelector(s)!.getBoundingClientRect()
    return box.top >= 0 && box.bottom <= window.innerHeight
  }, selector)
}

const TITLE = 'errors where the eye is, stars, the gig page on a phone'
test(TITLE, { timeout: 900_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const songIds: number[] = []
  for (const title of ['Intro Tonight', 'Second Tonight', 'Third Tonight', 'Fourth Tonight']) {
    songIds.push((await band.editor.ok('POST', '/songs', { title, status: 'ready' })).id)
  }
  const gig = await band.editor.ok('POST', '/gigs', {
    name: 'Hoffest Heute',
    date: dayFromNow(0),
    status: 'confirmed',
    startTime: '20:00'
  })
  await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      { name: 'Set 1', entries: songIds.slice(0, 2).map((songId) => ({ songId })) },
      { name: 'Set 2', entries: songIds.slice(2).map((songId) => ({ songId })) }
    ]
  })
  const before = (await band.admin.get('/public/app_config')).timezone

  const step = 'admin settings: a bad timezone puts focus on it; the list is searchable'
  await t.test(step, async () => {
    for (const [viewport, lang, size] of COMBOS) {
      const words = WORDS[lang]
      const app = await openAs(browser, band, viewport, lang, 'admin', ADMIN_PASSWORD)
      const { page } = app
      await page.goto(`${band.base}/app/admin/config`)
      const zone = page.getByLabel(words.timezone, { exact: true })
      await zone.fill('Mars/Olympus')
      app.allowHttpError('/admin/app_config', 400)
      await page.getByRole('button', { name: words.saveConfig }).click()
      await page.locator('#timezone[aria-invalid="true"]').waitFor()
      await page.waitForFunction(() => document.activeElement?.id === 'timezone')
      assert.ok(await inView(page, '#timezone'), `${lang} ${size}: the field is in sight`)
      assert.ok(await inView(page, '#timezone-error'), `${lang} ${size}: its message too`)
      assert.equal((await band.admin.get('/public/app_config')).timezone, before, 'not saved')
      await checkA11y(page, `settings error ${lang} ${size}`)
      await screenshot(page, `focus-settings-error-${lang}-${size}`)

      // The list: every IANA zone of the browser and UTC, each labelled with its city.
      const options = await page.$$eval('#timezones option', (all) =>
        all.map((o) => [(o as HTMLOptionElement).value, o.textContent]))
      assert.ok(options.length > 300, `${options.length} zones`)
      assert.deepEqual(options[0], ['UTC', 'UTC'])
      assert.ok(options.some(([v, l]) => v === 'America/New_York' && l === 'New York'))
      for (const value of ['America/New_York', before]) {
        await zone.fill(value)
        const put = page.waitForResponse(
          (r) => r.url().endsWith('/admin/app_config') && r.request().method() === 'PUT'
        )
        await page.getByRole('button', { name: words.saveConfig }).click()
        assert.equal((await put).status(), 200)
        assert.equal((await band.admin.get('/public/app_config')).timezone, value, 'saved')
      }
      app.assertClean()
      await app.context.close()
    }
    assert.equal((await band.admin.get('/public/app_config')).timezone, before)
  })

  await t.test('a form error that names no field gets the focus (login)', async () => {
    const app = await openApp(browser, band.base, PHONE)
    await app.context.addInitScript(() => localStorage.setItem('bandstand.locale', 'en'))
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    app.allowHttpError('/login', 401)
    await app.page.goto(`${band.base}/app/login`)
    await app.page.getByLabel('Username').fill('mia')
    await app.page.getByLabel('Password', { exact: true }).fill('not the right password at all')
    await app.page.getByRole('button', { name: 'Log in' }).click()
    await app.page.waitForFunction(() => document.activeElement?.hasAttribute('data-form-error'))
    assert.match(
      await app.page.evaluate(() => document.activeElement!.textContent ?? ''),
      /wrong/
    )
    app.assertClean()
    await app.context.close()
  })

  await t.test('gig page: jump links, "not yet published" explained, PDFs open', async () => {
    for (const [viewport, lang, size] of COMBOS) {
      const words = WORDS[lang]
      const app = await openAs(browser, band, viewport, lang, 'mia', MEMBER_PASSWORD)
      const { page } = app
      await page.goto(`${band.base}/app/gigs/${gig.id}`)
      await page.getByText(words.draft).waitFor()
      const jump = page.getByRole('navigation', { name: words.jump })
      assert.equal(await jump.getByRole('link').count(), 5)
      await checkA11y(page, `gig page ${lang} ${size}`)
      await screenshot(page, `gig-jump-links-${lang}-${size}`)
      await jump.getByRole('link', { name: words.documents }).click()
      await page.waitForFunction(() => location.hash === '#documents')
      await page.waitForFunction(() => {
        const box = document.querySelector('#docs-heading')!.getBoundingClientRect()
        return box.top >= 0 && box.bottom <= window.innerHeight
      })
      if (size === 'phone') {
        const opened = app.context.waitForEvent('page', { timeout: WAIT })
        await page.getByRole('link', { name: words.stagePdf, exact: true }).click()
        const tab = await opened
        assert.match(tab.url(), /^blob:/, 'the PDF opens in the browser')
        await tab.close()
        const download = page.waitForEvent('download', { timeout: WAIT })
        await page.getByRole('link', { name: words.download, exact: true }).click()
        const file = await download
        assert.match(file.suggestedFilename(), /^Setlist-Buehne-.*\.pdf$/)
        const bytes = readFileSync((await file.path())!)
        assert.equal(bytes.subarray(0, 4).toString('latin1'), '%PDF')
      }
      app.assertClean()
      await app.context.close()
    }
  })

  await t.test('live mode: ratings read as stars, their names stay words', async () => {
    for (const [viewport, lang, size] of [COMBOS[1], COMBOS[2]]) {
      const words = WORDS[lang]
      const app = await openAs(browser, band, viewport, lang, 'lena', EDITOR_PASSWORD)
      const { page } = app
      await page.goto(`${band.base}/app/gigs/${gig.id}/live`)
      await page.getByRole('button', { name: words.played }).click()
      for (const n of [1, 2, 3]) {
        const button = page.getByRole('button', { name: words.rate(n), exact: true })
        await button.and(page.locator(':not([disabled])')).waitFor()
        assert.equal((await button.textContent())?.trim(), '★'.repeat(n))
      }
      await page.getByRole('button', { name: words.rate(2), exact: true }).click()
      await page.getByRole('button', { name: words.rate(2), pressed: true }).waitFor()
      await page.getByText(words.wholeSetlist).click()
      await page.getByText(words.rated('★★'), { exact: true }).first().waitFor()
      const live = await band.editor.ok('GET', `/gigs_lm/${gig.id}`)
      const rated = live.sets.flatMap((s: { entries: { rating: number | null }[] }) => s.entries)
        .filter((e: { rating: number | null }) => e.rating === 2)
      assert.ok(rated.length >= 1, 'the rating is stored')
      await checkA11y(page, `live ${lang} ${size}`)
      await screenshot(page, `live-stars-${lang}-${size}`)
      await app.context.close()
    }
  })
})
