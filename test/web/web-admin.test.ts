import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import type { Request } from 'playwright-core'
import { twoColourPng } from '#test/image-fixtures.js'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  logInAs,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'

const JONAS_PASSWORD = 'drums on every second sunday at noon'
const JONAS_NEW_PASSWORD = 'a new password the admin chose for him'
const JONAS_OWN_PASSWORD = 'he picked this one himself at home'

// A logo with a clear blue: the documents' accent colour becomes #1e5ac8
// (src/documents/palette.ts).
function blueLogo (): Buffer {
  return twoColourPng([30, 90, 200], [255, 255, 255], 24)
}

// The admin's screens in a real browser, every effect checked through the API: users (invite
// without a password, the new member accepts elsewhere, role, new password,
// deactivate and reactivate, a reset link the member redeems), the app configuration with a
// server validation message next to its field, the logo with its colours, the band export; and
// the "not allowed" page for a member and an editor.
test('web app: the admin runs the installation', { timeout: 900_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const { base } = band

  await t.test('a member and an editor opening admin screens see "not allowed"', async () => {
    const mia = await openAppInEnglish(browser, base, PHONE)
    await logInAs(mia.page, base, band.member.username, band.member.password)
    const nav = mia.page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Me', exact: true }).waitFor()
    assert.equal(await nav.getByRole('link', { name: 'Admin' }).count(), 0)
    await mia.page.goto(`${base}/app/admin/users`)
    await mia.page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
    await mia.page.getByText('This screen is for the band’s admin').waitFor()
    await mia.page.getByText('You are logged in as member.').waitFor()
    assert.equal(await mia.page.getByRole('button', { name: 'New user' }).count(), 0)
    await checkA11y(mia.page, 'not allowed')
    await screenshot(mia.page, 'not-allowed-phone')
    mia.assertClean()
    await mia.context.close()

    const lena = await openAppInEnglish(browser, base, DESKTOP)
    await logInAs(lena.page, base, 'lena', EDITOR_PASSWORD)
    await lena.page.goto(`${base}/app/admin/config`)
    await lena.page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
    await lena.page.getByText('You are logged in as editor.').waitFor()
    assert.equal(await lena.page.getByLabel('Band name').count(), 0, 'no config form rendered')
    lena.assertClean()
    await lena.context.close()
  })

  const admin = await openAppInEnglish(browser, base, DESKTOP)
  const { page } = admin
  await logInAs(page, base, 'admin', 'browser test admin password 2026')
  let jonasId = 0

  let inviteUrl = ''
  await t.test('users: invite a member (no password): the link with Copy and QR code', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Admin' })
      .click()
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor()
    await page.getByRole('region', { name: /Active/ }).getByRole('link', { name: /Mia/ }).waitFor()
    // Mia has no address: she hears of new gigs only in the app, and the list says so.
    await page.getByRole('region', { name: /Active/ }).getByRole('link', { name: /Mia/ })
      .getByText('no e-mail', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'New user' }).click()
    const form = page.getByRole('form', { name: 'New user' })
    await form.getByLabel('Username').fill('jonas')
    await form.getByLabel('Display name').fill('Jonas')
    await form.getByLabel('Role').selectOption('member')
    await form.getByLabel('Instruments').fill('Drums, Percussion')
    assert.equal(await form.getByLabel('Password', { exact: true }).count(), 0, 'no password')
    await checkA11y(page, 'users with the create form')
    await screenshot(page, 'admin-users-desktop')
    await form.getByRole('button', { name: 'Create user' }).click()
    const invite = page.getByRole('region', { name: 'Invitation for Jonas' })
    const link = invite.getByRole('textbox', { name: 'Invitation link for Jonas' })
    await link.waitFor()
    inviteUrl = await link.inputValue()
    assert.match(inviteUrl, /\/app\/reset-password#token=[A-Za-z0-9_-]{20,}$/)
    await invite.getByRole('img', { name: 'QR code of the invitation link for Jonas' }).waitFor()
    const users = await band.admin.get('/users')
    const jonas = users.find((u: { username: string }) => u.username === 'jonas')
    assert.ok(jonas, 'created')
    assert.equal(jonas.role, 'member')
    assert.deepEqual(jonas.instruments, ['Drums', 'Percussion'])
    jonasId = jonas.id
    await invite.getByRole('link', { name: 'Open Jonas' }).click()
    await page.getByRole('heading', { level: 1, name: 'Jonas' }).waitFor()
  })

  const jonas = await openAppInEnglish(browser, base, PHONE)
  await t.test('the new member accepts the invitation in another browser', async () => {
    await jonas.page.goto(inviteUrl)
    await jonas.page.getByRole('heading', { level: 1, name: 'Choose your password' }).waitFor()
    await jonas.page.getByLabel('New password', { exact: true }).fill(JONAS_PASSWORD)
    await jonas.page.getByLabel('Repeat new password').fill(JONAS_PASSWORD)
    await jonas.page.getByRole('button', { name: 'Save my password' }).click()
    await jonas.page.waitForURL(/\/app\/login$/)
    await logInAs(jonas.page, base, 'jonas', JONAS_PASSWORD)
    await jonas.page.getByRole('heading', { level: 1, name: 'Hello, Jonas' }).waitFor()
    jonas.assertClean()
  })

  await t.test('a user: role, new password, deactivate and reactivate', async () => {
    await checkA11y(page, 'user page')
    await screenshot(page, 'admin-user-desktop')
    await page.getByLabel('Role', { exact: true }).selectOption('editor')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('status').filter({ hasText: 'Changes saved' }).waitFor()
    assert.equal((await band.admin.get(`/users/${jonasId}`)).role, 'editor')

    // A new password ends the member's sessions. Jonas's app saves the packs of his next gigs
    // 3 s after he logged in (lib/offline/gig-pack.ts): when that overlaps this, its reads meet
    // the ended session (401; the app stops saving, as it should).
    jonas.allowHttpError(/^\/(me|gigs|gigs_lm)(\/|$)/, 401)
    const passwordForm = page.getByRole('form', { name: 'Set a new password' })
    await passwordForm.getByLabel('Password', { exact: true }).fill(JONAS_NEW_PASSWORD)
    await passwordForm.getByRole('button', { name: 'Set password' }).click()
    await page.getByRole('status').filter({ hasText: 'New password set' }).waitFor()
    assert.equal((await jonas.context.request.get(`${base}/me`)).status(), 401)

    const access = page.getByRole('region', { name: 'Access' })
    await access.getByRole('button', { name: 'Deactivate' }).click()
    await access.getByRole('button', { name: 'Yes, deactivate' }).click()
    await access.getByRole('button', { name: 'Reactivate' }).waitFor()
    assert.equal((await band.admin.get(`/users/${jonasId}`)).status, 'inactive')
    await page.getByRole('link', { name: 'All users' }).click()
    await page.getByRole('region', { name: /Deactivated/ }).getByRole('link', { name: /Jonas/ }).click()
    await page
      .getByRole('region', { name: 'Access' })
      .getByRole('button', { name: 'Reactivate' })
      .click()
    await page
      .getByRole('region', { name: 'Access' })
      .getByRole('button', { name: 'Deactivate' })
      .waitFor()
    assert.equal((await band.admin.get(`/users/${jonasId}`)).status, 'active')
    admin.assertClean()
  })

  await t.test('a reset link: shown to copy, redeemed by the member', async () => {
    const reset = page.getByRole('region', { name: 'Password reset link' })
    await reset.getByRole('button', { name: 'Create reset link' }).click()
    const link = reset.getByLabel('Reset link for Jonas')
    await link.waitFor()
    const url = await link.inputValue()
    assert.match(url, /\/app\/reset-password#token=[A-Za-z0-9_-]{20,}$/)
    await reset.getByText('Not mailed (no mail server is set up)').waitFor()
    await reset.getByRole('button', { name: 'Copy link' }).click()
    await reset.getByRole('button', { name: 'Link copied' }).waitFor()
    await screenshot(page, 'admin-reset-link-desktop')

    const { page: member } = jonas
    await member.goto(url)
    await member.getByText('Hello Jonas! Choose a new password for your account “jonas”.').waitFor()
    assert.equal(new URL(member.url()).hash, '', 'the token left the address bar')
    jonas.allowHttpError('/password-reset', 400)
    await member.getByLabel('New password', { exact: true }).fill('short one')
    await member.getByLabel('Repeat new password').fill('short one')
    await member.getByRole('button', { name: 'Set new password' }).click()
    await member.locator('.field-error').filter({ hasText: 'at least 15 characters' }).waitFor()
    await checkA11y(member, 'reset password')
    await screenshot(member, 'reset-password-phone')
    await member.getByLabel('New password', { exact: true }).fill(JONAS_OWN_PASSWORD)
    await member.getByLabel('Repeat new password').fill(JONAS_OWN_PASSWORD)
    await member.getByRole('button', { name: 'Set new password' }).click()
    await member.waitForURL(/\/app\/login$/)
    await member.getByText('Your new password is set. Log in with it.').waitFor()
    await logInAs(member, base, 'jonas', JONAS_OWN_PASSWORD)
    await member.getByRole('heading', { level: 1, name: 'Hello, Jonas' }).waitFor()
    // He is an editor now; the admin screens are still not his.
    assert.equal(
      await member
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Admin' })
        .count(),
      0
    )
    jonas.assertClean()
  })

  await t.test('app configuration: every field, the server’s message by its field', async () => {
    const link = page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Configuration' })
    // Hovering the link runs the screen's load (routes/admin/config/+page.ts): the logo's colours
    // are asked before the click, and not again after it.
    const palette = (request: Request) => new URL(request.url()).pathname === '/admin/logo/palette'
    const preloaded = page.waitForRequest(palette, { timeout: WAIT })
    await link.hover()
    await preloaded
    let again = 0
    const count = (request: Request) => {
      if (palette(request)) again += 1
    }
    page.on('request', count)
    await link.click()
    await page.getByRole('heading', { level: 1, name: 'App configuration' }).waitFor()
    await page.getByRole('heading', { name: 'Colours of the documents' }).waitFor()
    page.off('request', count)
    assert.equal(again, 0, 'the palette is read once, while the link was hovered')
    assert.equal(await page.getByLabel('Timezone').inputValue(), 'Europe/Berlin')
    await page.getByLabel('Band name').fill('The Late Night Horns')
    await page.getByLabel('Timezone').fill('Mars/Olympus_Mons')
    const genres = page.getByLabel('Genres')
    await genres.fill(`${await genres.inputValue()}\nNeo Soul`)
    await page.getByLabel('Song length without a duration').fill('3:30')
    await page.getByLabel('Gap between songs (seconds)').fill('20')
    await page.getByLabel('Break between sets').fill('15:00')
    await page.getByLabel('Default start time').fill('19:30')
    await page.getByLabel(/subscribe to the band’s dates/).uncheck()
    admin.allowHttpError('/admin/app_config', 400)
    await page.getByRole('button', { name: 'Save configuration' }).click()
    const timezone = page.getByLabel('Timezone')
    await page
      .locator('.field', { has: timezone })
      .locator('.field-error')
      .filter({ hasText: 'This is not a timezone name' })
      .waitFor()
    assert.equal(await timezone.getAttribute('aria-invalid'), 'true')
    await checkA11y(page, 'config with an error')
    await timezone.fill('Europe/Vienna')
    await page.getByRole('button', { name: 'Save configuration' }).click()
    await page.getByRole('status').filter({ hasText: 'Configuration saved' }).waitFor()
    const config = await band.admin.get('/public/app_config')
    assert.equal(config.bandName, 'The Late Night Horns')
    assert.equal(config.timezone, 'Europe/Vienna')
    assert.equal(config.genres.at(-1), 'Neo Soul')
    assert.deepEqual(config.timing, {
      defaultSongSeconds: 210,
      songGapSeconds: 20,
      setBreakSeconds: 900,
      defaultStartTime: '19:30'
    })
    assert.equal(config.features.calendar, false)
    // The app follows at once: the band name in the top bar.
    await page.locator('.brand').filter({ hasText: 'The Late Night Horns' }).waitFor()
  })

  await t.test('logo: upload, preview, colours; a wrong file explained', async () => {
    const file = page.getByLabel('Logo image')
    admin.allowHttpError('/admin/logo', 400)
    await file.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image')
    })
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page
      .locator('.field', { has: file })
      .locator('.field-error')
      .filter({ hasText: 'neither a PNG nor a JPEG' })
      .waitFor()
    await page.getByText('No logo yet.').waitFor()
    await page.getByText('Neutral colours').waitFor()

    await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: blueLogo() })
    await page.getByRole('button', { name: 'Upload logo' }).click()
    await page.getByRole('status').filter({ hasText: 'Logo uploaded' }).waitFor()
    const preview = page.getByRole('img', { name: 'Logo of The Late Night Horns' })
    await preview.waitFor()
    await page.waitForFunction(
      () => (document.querySelector('img.logo') as HTMLImageElement | null)?.naturalWidth === 24,
      undefined,
      { timeout: WAIT }
    )
    await page.getByText('Taken from the logo').waitFor()
    await page.getByRole('listitem').filter({ hasText: /^Aa Accent#1e5ac8/ }).waitFor()
    const palette = await band.admin.get('/admin/logo/palette')
    assert.equal(palette.accent, '#1e5ac8')
    assert.equal(
      await page
        .locator('.sample thead tr')
        .evaluate((row) => getComputedStyle(row).backgroundColor),
      'rgb(30, 90, 200)',
      'the preview uses the accent'
    )
    assert.equal((await band.admin.get('/public/app_config')).hasLogo, true)
    await checkA11y(page, 'config with logo')
    await screenshot(page, 'admin-config-desktop')
    await page.setViewportSize(PHONE)
    await screenshot(page, 'admin-config-phone')
    await page.setViewportSize(DESKTOP)
  })

  await t.test('the band export downloads as one zip archive', async () => {
    const download = page.waitForEvent('download', { timeout: WAIT })
    await page.getByRole('link', { name: 'Download band export' }).click()
    const file = await download
    assert.match(file.suggestedFilename(), /^Bandstand-Export-.*\.zip$/)
    const archive = unzipSync(readFileSync((await file.path())!))
    const data = JSON.parse(Buffer.from(archive['bandstand-export.json']!).toString('utf8'))
    assert.equal(data.format, 'bandstand-band-export')
    const users = data.tables.find((table: { name: string }) => table.name === 'users')
    assert.ok(users.rows.length >= 4)
    admin.assertClean()
  })
})
