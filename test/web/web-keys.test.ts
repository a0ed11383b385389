import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '#test/server-process.js'
import { ApiSession } from '#test/browser/api-client.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  openApp,
  PHONE,
  screenshot
} from '#test/browser/harness.js'

const PASSWORD = 'keys as music admin password 2026'

// A key is picked as tonic + major/minor and shown in the reader's language
// (B♭ minor / b-Moll); the API stores the canonical key. The band is German; each browser reads
// its own language (the language menu's choice, kept on the device).
test('web app: keys as music in the song form, the song page and live mode',
  { timeout: 600_000 }, async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-keys-'))
    const server = await startServer({
      DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, BAND_LOCALE: 'de-DE', TZ: 'Europe/Berlin'
    })
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const base = server.base
    const api = await ApiSession.login(base, 'admin', PASSWORD)

    for (const [language, viewport] of [
      ['en', DESKTOP],
      ['de', PHONE],
      ['de', DESKTOP],
      ['en', PHONE]
    ] as const) {
      const size = viewport === PHONE ? 'phone' : 'desktop'
      await t.test(`${language}, ${size}: the key picker; the key shown per language`, async () => {
        const de = language === 'de'
        const app = await openApp(browser, base, viewport, { locale: de ? 'de-DE' : 'en-GB' })
        app.allowHttpError('/me', 401)
        app.allowHttpError('/refresh', 401)
        const { page } = app
        await page.goto(`${base}/app/login`)
        await page.evaluate((l) => localStorage.setItem('bandstand.locale', l), language)
        await page.reload()
        await page.getByLabel(de ? 'Benutzername' : 'Username').fill('admin')
        await page.getByLabel(de ? 'Passwort' : 'Password', { exact: true }).fill(PASSWORD)
        await page.getByRole('button', { name: de ? 'Anmelden' : 'Log in' }).click()
        await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))

        const title = `Tonart ${language} ${size}`
        await page.goto(`${base}/app/songs/new`)
        await page.getByLabel(de ? 'Titel' : 'Title', { exact: true }).fill(title)
        const picker = page.getByRole('group', { name: de ? 'Tonart' : 'Key', exact: true })
        const tonic = picker.getByLabel(de ? 'Grundton' : 'Key note')
        // German B is B flat, H is B natural; English names them B♭ and B.
        const names = await tonic.locator('option').allInnerTexts()
        assert.deepEqual(names.slice(-3), de ? ['Ais', 'B', 'H'] : ['A♯', 'B♭', 'B'])
        const mode = picker.getByRole('group', { name: de ? 'Dur oder Moll' : 'Major or minor' })
        assert.equal(await mode.getByRole('radio').first().isDisabled(), true, 'no tonic yet')
        await tonic.selectOption({ label: de ? 'B' : 'B♭' })
        await mode.getByRole('radio', { name: de ? 'Moll' : 'Minor' }).check()
        await picker.getByText(de ? 'b-Moll' : 'B♭ minor', { exact: true }).waitFor()
        await checkA11y(page, `song form key picker (${language}, ${size})`)
        await screenshot(page, `keys-song-form-${language}-${size}`)
        await page.getByRole('button', { name: de ? 'Song anlegen' : 'Add song' }).click()
        await page.waitForURL((url) => /\/app\/songs\/\d+$/.test(url.pathname))

        // The effect through the API: the canonical key.
        const id = Number(page.url().split('/').at(-1))
        const song = await api.ok('GET', `/songs/${id}`)
        assert.deepEqual([song.title, song.key, song.keyText], [title, 'Bbm', null])
        await page.getByText(de ? 'b-Moll' : 'B♭ minor', { exact: true }).waitFor()

        // Live mode: the key of the song playing, in the reader's language.
        const gig = await api.ok('POST', '/gigs', {
          name: `Keys ${language} ${size}`, date: '2026-12-24', startTime: '20:00'
        })
        await api.ok('PUT', `/gigs/${gig.id}/setlist`, {
          version: 0, sets: [{ name: 'Set 1', entries: [{ songId: id }] }]
        })
        await page.goto(`${base}/app/gigs/${gig.id}/live`)
        const playing = page
          .getByRole('status', { name: de ? 'Jetzt' : 'Now playing', exact: true })
        await playing.getByText(title).waitFor()
        await playing.getByText(de ? 'b-Moll' : 'B♭ minor', { exact: true }).waitFor()
        await checkA11y(page, `live mode key (${language}, ${size})`)
        await screenshot(page, `keys-live-${language}-${size}`)
        app.assertClean()
        await app.context.close()
      })
    }
  })
