import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Locator } from 'playwright-core'
import { dayFromNow } from '#test/browser/api-client.js'
import {
  ADMIN_PASSWORD, EDITOR_PASSWORD, startBand
} from '#test/browser/band-fixture.js'
import {
  checkA11y, DESKTOP, launchBrowser, PHONE, screenshot, type AppPage
} from '#test/browser/harness.js'
import { pageOpener } from '#test/browser/logged-in.js'

// An English band's chords stay English through a save of the configuration; the editor gives a
// song its key and capo for tonight in the setlist editor; the gig page and the stage view say the
// key as played, and the chords agree. At 360, 390 and 1280 px, in English and German.

const SWING_LOW =
  '{key: D}\n[D]Swing low, sweet [G]chari[D]ot, [A7]coming for to [D]carry me home'
const DARK = '{key: Bm}\n[Bm]Dark [G]night, [A]long [F#]way [F#m]home'

const SIZES = [
  [PHONE, 'phone-360'],
  [{ width: 390, height: 844 }, 'phone-390'],
  [DESKTOP, 'desktop']
] as const

const WORDS = {
  en: {
    notation: 'Chord notation',
    english: 'English (B, Bb)',
    german: 'German (H, B)',
    saveConfig: 'Save configuration',
    details: 'Details of Swing Low',
    gigKey: 'Key for this gig',
    plusTwo: 'E major (+2)',
    capo: 'Capo',
    save: 'Save setlist',
    saved: 'All changes saved',
    row: 'E · Capo 2',
    next: 'Next',
    keyLine: 'Sounds in E · Capo 2 · D shapes',
    nextKey: 'C♯m',
    setlistKey: 'E',
    capoShapes: 'Capo shapes'
  },
  de: {
    notation: 'Akkordschreibweise',
    english: 'Englisch (B, Bb)',
    german: 'Deutsch (H, B)',
    saveConfig: 'Einstellungen speichern',
    details: 'Details zu Swing Low',
    gigKey: 'Tonart für diesen Auftritt',
    plusTwo: 'E-Dur (+2)',
    capo: 'Kapo',
    save: 'Setlist speichern',
    saved: 'Alles gespeichert',
    row: 'E-Dur · Kapo 2',
    next: 'Als Nächstes',
    keyLine: 'Klingt in E-Dur · Kapo 2 · Griffe D-Dur',
    nextKey: 'cis-Moll',
    setlistKey: 'E-Dur',
    capoShapes: 'Kapo-Griffe'
  }
} as const

const openAs = pageOpener()

/** Nothing wider than the window (no sideways scrolling). */
const fitsWidth = (app: AppPage) =>
  app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)
/** The element within the window's width. */
const within = async (app: AppPage, locator: Locator) =>
  (await locator.evaluate((e) => e.getBoundingClientRect().right)) <=
    app.page.viewportSize()!.width

test('one chord notation kept; key and capo for tonight, shown as played', {
  timeout: 900_000
}, async (t) => {
  // An English band (its first start in English): English chord names.
  const band = await startBand({ BAND_LOCALE: 'en-GB' })
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const notation = async () => (await band.admin.get('/public/app_config')).chordNotation
  assert.equal(await notation(), 'english')
  const swing = await band.editor.ok('POST', '/songs', {
    title: 'Swing Low', key: 'D', chart: SWING_LOW
  })
  const dark = await band.editor.ok('POST', '/songs', {
    title: 'Dark Night', key: 'Bm', chart: DARK
  })
  const gig = await band.editor.ok('POST', '/gigs', {
    name: 'Key Night', date: dayFromNow(0), status: 'confirmed', startTime: '20:00'
  })
  await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: swing.id }, { songId: dark.id, transpose: 2 }] }]
  })

  await t.test('the configuration shows the notation; saving keeps it', async () => {
    for (const lang of ['en', 'de'] as const) {
      for (const [viewport, size] of SIZES) {
        const words = WORDS[lang]
        const app = await openAs(browser, band, viewport, lang, 'admin', ADMIN_PASSWORD)
        const { page } = app
        await page.goto(`${band.base}/app/admin/config`)
        const group = page.getByRole('group', { name: words.notation })
        const english = group.getByRole('radio', { name: words.english })
        assert.ok(await english.isChecked(), `${lang} ${size}: English chosen`)
        const put = page.waitForResponse(
          (r) => r.url().endsWith('/admin/app_config') && r.request().method() === 'PUT')
        await page.getByRole('button', { name: words.saveConfig }).click()
        assert.equal((await put).status(), 200)
        assert.equal(await notation(), 'english', `${lang} ${size}: a save keeps it`)
        // (The German admin tabs are wider than 360 px: not this form's doing.)
        assert.ok(await within(app, group), `${lang} ${size}: fits`)
        await group.scrollIntoViewIfNeeded()
        await checkA11y(page, `configuration ${lang} ${size}`)
        await screenshot(page, `chord-notation-${lang}-${size}`)
        if (lang === 'de' && size === 'desktop') {
          // Chosen, it changes; and back.
          for (const [label, value] of [[words.german, 'german'], [words.english, 'english']]) {
            await group.getByRole('radio', { name: label }).check()
            const saved = page.waitForResponse(
              (r) => r.url().endsWith('/admin/app_config') && r.request().method() === 'PUT')
            await page.getByRole('button', { name: words.saveConfig }).click()
            assert.equal((await saved).status(), 200)
            assert.equal(await notation(), value)
          }
        }
        app.assertClean()
        await app.context.close()
      }
    }
  })

  await t.test('the entry menu: Key for this gig and Capo', async () => {
    let first = true
    for (const lang of ['en', 'de'] as const) {
      for (const [viewport, size] of SIZES) {
        const words = WORDS[lang]
        const app = await openAs(browser, band, viewport, lang, 'lena', EDITOR_PASSWORD)
        const { page } = app
        await page.goto(`${band.base}/app/gigs/${gig.id}/setlist`)
        await page.getByRole('button', { name: words.details }).click()
        const key = page.getByLabel(words.gigKey)
        const capo = page.getByLabel(words.capo, { exact: true })
        if (first) {
          // Each choice names the key it will sound in.
          const options = await key.locator('option').allTextContents()
          assert.equal(options.length, 23)
          assert.ok(options.includes('D major') && options.includes('C major (−2)'), `${options}`)
          await key.selectOption({ label: words.plusTwo })
          await capo.selectOption('2')
          await page.getByRole('button', { name: words.save }).click()
          await page.getByText(words.saved).waitFor()
          const stored = await band.editor.get(`/gigs/${gig.id}/setlist`)
          const entry = stored.sets[0].entries[0]
          assert.deepEqual([entry.transpose, entry.capo], [2, 2])
          first = false
        }
        assert.equal(await key.locator('option:checked').textContent(), words.plusTwo)
        assert.equal(await capo.inputValue(), '2')
        // The row says it too.
        await page.locator('.entry', { hasText: 'Swing Low' }).getByText(words.row).waitFor()
        assert.ok(await fitsWidth(app), `${lang} ${size}: fits`)
        await checkA11y(page, `entry menu ${lang} ${size}`)
        await screenshot(page, `entry-key-capo-${lang}-${size}`)
        app.assertClean()
        await app.context.close()
      }
    }
  })

  await t.test('gig page and stage: the key as played, the chords agreeing', async () => {
    for (const lang of ['en', 'de'] as const) {
      for (const [viewport, size] of SIZES) {
        const words = WORDS[lang]
        const app = await openAs(browser, band, viewport, lang, 'lena', EDITOR_PASSWORD)
        const { page } = app
        await page.goto(`${band.base}/app/gigs/${gig.id}`)
        await page.getByRole('row', { name: /Swing Low/ }).getByText(words.row).waitFor()
        await screenshot(page, `gig-key-as-played-${lang}-${size}`)

        await page.goto(`${band.base}/app/gigs/${gig.id}/live`)
        const chart = page.getByRole('region', { name: 'Chart' })
        await chart.getByText(words.keyLine).waitFor()
        // D + 2 = E: E A E B7 E, in the band's (English) notation; never a German H.
        const chords = async () => (await chart.locator('.chord').allTextContents())
          .filter((c) => c.trim() !== '')
        await chart.locator('.chord', { hasText: /^B7$/ }).waitFor()
        assert.deepEqual(await chords(), ['E', 'A', 'E', 'B7', 'E'])
        if (size === 'desktop') {
          // Capo shapes (Display): the chords as the guitarist fingers them, E less 2 = D shapes;
          // the key line still says what the song sounds in.
          const shapes = page.getByRole('button', { name: words.capoShapes, exact: true })
          await shapes.click()
          await chart.locator('.chord', { hasText: /^A7$/ }).waitFor()
          assert.deepEqual(await chords(), ['D', 'G', 'D', 'A7', 'D'])
          await chart.getByText(words.keyLine).waitFor()
          await shapes.click()
          await chart.locator('.chord', { hasText: /^B7$/ }).waitFor()
        }
        const next = page.getByRole('region', { name: words.next, exact: true })
        await next.getByText('Dark Night').waitFor()
        await next.getByText(new RegExp(`^${words.nextKey}`)).waitFor()
        // The live page's setlist says the key as played too.
        await page.locator('details.setlist')
          .evaluate((d) => { (d as HTMLDetailsElement).open = true })
        await page.locator('details.setlist li', { hasText: 'Swing Low' }).locator('.key')
          .getByText(words.setlistKey, { exact: true }).waitFor()
        await checkA11y(page, `stage key ${lang} ${size}`)
        await screenshot(page, `stage-key-capo-${lang}-${size}`)
        app.assertClean()
        await app.context.close()
      }
    }
  })

  await t.test('a guitarist reads the capo shapes by default', async () => {
    const gus = await band.admin.ok('POST', '/users', {
      username: 'gus',
      displayName: 'Gus',
      role: 'member',
      password: 'the guitar player of the band',
      isMusician: true,
      instruments: ['Gitarre']
    })
    await band.admin.ok('PATCH', `/users/${gus.id}`, { passwordChangeRequired: false })
    const app = await openAs(browser, band, PHONE, 'en', 'gus', 'the guitar player of the band')
    const { page } = app
    await page.goto(`${band.base}/app/gigs/${gig.id}/live`)
    const chart = page.getByRole('region', { name: 'Chart' })
    await chart.getByText(WORDS.en.keyLine).waitFor()
    await chart.locator('.chord', { hasText: /^A7$/ }).waitFor()
    const chords = (await chart.locator('.chord').allTextContents()).filter((c) => c.trim())
    assert.deepEqual(chords, ['D', 'G', 'D', 'A7', 'D'])
    await screenshot(page, 'stage-capo-shapes-guitarist-en')
    app.assertClean()
    await app.context.close()
  })
})
