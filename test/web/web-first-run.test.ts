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

const PASSWORD = 'first evening admin password 2026'

// A fresh install without BAND_LOCALE/TZ. Until the band chooses, each browser
// gets its own language; the admin's start page shows the setup checklist, which can be hidden
// and brought back from Admin; every empty list offers what fills it.
test('web app: the first evening on a fresh install', { timeout: 600_000 }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-first-'))
  // No TZ from the environment running the tests: the fresh install is to start in UTC.
  const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, TZ: '' })
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const base = server.base
  const api = await ApiSession.login(base, 'admin', PASSWORD)
  const config = await api.ok('GET', '/public/app_config')
  assert.equal(config.locale, 'en-GB')
  assert.equal(config.timezone, 'UTC')
  assert.equal(config.localeChosen, false)
  assert.ok(config.gigKinds.includes('Wedding'))

  for (const [language, viewport] of [
    ['de', PHONE],
    ['en', DESKTOP],
    ['de', DESKTOP],
    ['en', PHONE]
  ] as const) {
    const size = viewport === PHONE ? 'phone' : 'desktop'
    const name = `${language}, ${size}: the browser's language; checklist; empty lists`
    await t.test(name, async () => {
      const de = language === 'de'
      const app = await openApp(browser, base, viewport, { locale: de ? 'de-DE' : 'en-GB' })
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      const { page } = app
      await page.goto(`${base}/app/login`)
      const title = de ? 'Bei Our Band anmelden' : 'Log in to Our Band'
      await page.getByRole('heading', { level: 1, name: title }).waitFor()
      await page.getByLabel(de ? 'Benutzername' : 'Username').fill('admin')
      await page.getByLabel(de ? 'Passwort' : 'Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: de ? 'Anmelden' : 'Log in' }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))

      const checklist = page.getByRole('region', {
        name: de ? 'Eure Band einrichten' : 'Get your band started'
      })
      await checklist.waitFor()
      const steps = de
        ? ['Bandname und Logo', 'Sprache und Zeitzone', 'Dein eigenes Passwort',
            'Mitglieder einladen', 'Songs anlegen', 'Euer erster Gig',
            'HTTPS für Offline-Kopien', 'Automatische Backups']
        : ['Band name and logo', 'Language and timezone', 'Your own password',
            'Invite members', 'Add songs', 'Your first gig', 'HTTPS for offline copies',
            'Automatic backups']
      const links = checklist.getByRole('listitem').getByRole('link')
      assert.deepEqual(await links.allInnerTexts(), steps)
      await checkA11y(page, `checklist (${language}, ${size})`)
      await screenshot(page, `first-run-checklist-${language}-${size}`)

      // Every empty list offers its first entry.
      for (const [path, name, target] of [
        ['/app/songs', de ? 'Ersten Song anlegen' : 'Add your first song', '/app/songs/new'],
        ['/app/gigs', de ? 'Gig anlegen' : 'Add a gig', '/app/gigs/new'],
        [
          '/app/rehearsals',
          de ? 'Erste Probe planen' : 'Plan your first rehearsal',
          '/app/rehearsals/new'
        ],
        ['/app/surveys', de ? 'Umfrage starten' : 'Start a survey', '/app/surveys/new']
      ] as const) {
        await page.goto(`${base}${path}`)
        await page.getByRole('link', { name, exact: true }).click()
        await page.waitForURL((url) => url.pathname === target)
      }
      await page.goto(`${base}/app/songs`)
      await page.getByRole('link', { name: de ? 'Ersten Song anlegen' : 'Add your first song' })
        .waitFor()
      await checkA11y(page, `empty songs (${language}, ${size})`)
      await screenshot(page, `first-run-empty-songs-${language}-${size}`)

      if (language === 'en' && viewport === DESKTOP) {
        // Hidden from the start page, kept on the server, back from Admin → Setup.
        await page.goto(`${base}/app/`)
        await checklist.getByRole('button', { name: 'Hide this checklist' }).click()
        await checklist.waitFor({ state: 'detached' })
        assert.equal((await api.ok('GET', '/admin/setup')).dismissed, true)
        await page.reload()
        await page.getByRole('heading', { level: 1 }).waitFor()
        assert.equal(await checklist.count(), 0, 'still hidden after a reload')
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })
          .click()
        await page.getByRole('link', { name: 'Setup', exact: true }).click()
        await page.getByRole('heading', { level: 1, name: 'Setup' }).waitFor()
        await checklist.getByRole('button', { name: 'Show on the start page again' }).click()
        await checklist.getByText('Shown on the start page until you hide it there.').waitFor()
        assert.equal((await api.ok('GET', '/admin/setup')).dismissed, false)
        await checkA11y(page, 'admin setup')
        await screenshot(page, 'first-run-admin-setup-en-desktop')
      }
      app.assertClean()
      await app.context.close()
    })
  }

  await t.test('the admin chooses German: the app and the untouched lists follow', async () => {
    const app = await openApp(browser, base, DESKTOP, { locale: 'en-GB' })
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    const { page } = app
    await page.goto(`${base}/app/login`)
    await page.getByLabel('Username').fill('admin')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => !url.pathname.startsWith('/app/login'))
    await page.goto(`${base}/app/admin/config`)
    // One click: the band's language is a choice of the supported languages.
    const language = page.getByRole('group', { name: 'Band language' })
    assert.equal(await language.getByRole('radio', { name: 'English' }).isChecked(), true)
    await language.getByRole('radio', { name: 'Deutsch' }).check()
    await page.getByRole('button', { name: 'Save configuration' }).click()
    // The band chose: this English browser now shows the band's language.
    await page.locator('html[lang="de"]').waitFor({ state: 'attached' })
    await page.getByRole('heading', { level: 1, name: 'App-Einstellungen' }).waitFor()
    const kinds = await page.getByLabel('Arten von Auftritten').inputValue()
    assert.match(kinds, /^Hochzeit\n/, 'the form shows the German gig kinds')
    const sprache = page.getByRole('group', { name: 'Sprache der Band' })
    assert.equal(await sprache.getByRole('radio', { name: 'Deutsch' }).isChecked(), true)
    const config = await api.ok('GET', '/public/app_config')
    assert.equal(config.locale, 'de-DE')
    assert.equal(config.localeChosen, true)
    assert.ok(config.gigKinds.includes('Hochzeit'))
    const steps = (await api.ok('GET', '/admin/setup')).steps
    assert.equal(steps.find((s: { id: string }) => s.id === 'language').done, true)
    await checkA11y(page, 'config after choosing German')
    await screenshot(page, 'first-run-chose-german-desktop')
    app.assertClean()
    await app.context.close()
  })

  await t.test('a song added: its step is done', async () => {
    await api.ok('POST', '/songs', { title: 'First song' })
    const steps = (await api.ok('GET', '/admin/setup')).steps
    assert.equal(steps.find((s: { id: string }) => s.id === 'songs').done, true)
    assert.equal(steps.find((s: { id: string }) => s.id === 'gig').done, false)
  })
})
