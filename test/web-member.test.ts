import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { ApiSession } from './browser/api-client.js'
import { startBand } from './browser/band-fixture.js'
import { checkA11y, chooseEnglish, DESKTOP, launchBrowser, logInAs, openApp, PHONE, screenshot, WAIT } from './browser/harness.js'

// Every member screen of the web app in a real browser, driven by the accessible names of WEB.md, each
// effect checked through the API; axe-core and screenshots at 360 px and desktop width on every screen.
test('web app: a member logs in, answers everything they owe and manages their account', { timeout: 600_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const { base, member } = band
  const app = await openApp(browser, base, PHONE)
  const { page } = app
  const mia = async () => ApiSession.login(base, member.username, member.password)

  await t.test('login page: band default language, plain-words error, typed name kept', async () => {
    // Not logged in yet: GET /me answers 401, the silent POST /refresh too (Chromium logs both).
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    await page.goto(`${base}/app/`)
    // Not logged in: the app sends the visitor to the login page, in the band's language (de-DE).
    await page.waitForURL(/\/app\/login/)
    await page.getByRole('button', { name: 'Anmelden' }).waitFor()
    assert.equal(await page.locator('html').getAttribute('lang'), 'de')
    await chooseEnglish(page)
    await page.getByLabel('Username').fill(member.username)
    await page.getByLabel('Password', { exact: true }).fill('not the right password at all')
    app.allowHttpError('/login', 401)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('alert').filter({ hasText: 'Username or password is wrong.' }).waitFor()
    assert.equal(await page.getByLabel('Username').inputValue(), member.username, 'what the user typed survives the error')
    await checkA11y(page, 'login')
    await screenshot(page, 'login-phone')
    await page.getByLabel('Password', { exact: true }).fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('heading', { level: 1, name: 'Hello, Mia' }).waitFor()
    const cookies = await app.context.cookies()
    assert.ok(cookies.length >= 2 && cookies.every((cookie) => cookie.httpOnly), 'session cookies are httpOnly')
    assert.equal(await page.evaluate(() => document.cookie), '', 'no token readable by JavaScript')
  })

  await t.test('dashboard: to-dos and the next gigs and rehearsals, availability inline', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const name of ['Dashboard', 'Gigs', 'Songs', 'Rehearsals', 'Surveys', 'Me']) await nav.getByRole('link', { name, exact: true }).waitFor()
    assert.equal(await nav.getByRole('link', { name: 'Admin' }).count(), 0, 'no Admin link for a member')
    const todo = page.getByRole('region', { name: /To do/ })
    await todo.getByRole('link', { name: new RegExp(band.survey.title) }).waitFor()
    await todo.getByRole('link', { name: new RegExp(band.proposal.title) }).waitFor()
    const next = page.getByRole('region', { name: 'Coming up' })
    await next.getByRole('link', { name: band.gig.name }).waitFor()
    await screenshot(page, 'dashboard-phone')
    await checkA11y(page, 'dashboard')

    const group = page.getByRole('group', { name: `My availability: ${band.gig.name}` })
    await group.getByRole('radio', { name: 'Yes' }).check()
    await page.getByRole('status').filter({ hasText: `${band.gig.name}: “Yes” saved` }).waitFor()
    const availability = await band.editor.get(`/gigs/${band.gig.id}/availability`)
    assert.equal(availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status, 'yes')
    await page.setViewportSize(DESKTOP)
    await screenshot(page, 'dashboard-desktop')
    await page.setViewportSize(PHONE)
  })

  await t.test('gigs: upcoming and past, the gig page with setlist, running order, availability, documents', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Gigs', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Gigs' }).waitFor()
    await page.getByRole('link', { name: new RegExp(band.laterGig.name) }).waitFor()
    await checkA11y(page, 'gigs')
    await page.getByRole('link', { name: 'Past' }).click()
    await page.getByRole('link', { name: new RegExp(band.pastGig.name) }).waitFor()
    assert.equal(await page.getByRole('link', { name: new RegExp(band.gig.name) }).count(), 0)
    await page.getByRole('link', { name: 'Upcoming' }).click()
    await page.getByRole('link', { name: new RegExp(band.gig.name) }).click()

    await page.getByRole('heading', { level: 1, name: band.gig.name }).waitFor()
    await page.getByRole('cell', { name: /Superstition/ }).waitFor()
    await page.getByText('Load the van').waitFor()
    await page.getByText('Break 15:00').waitFor()
    const mine = page.getByRole('group', { name: `My availability: ${band.gig.name}` })
    assert.equal(await mine.getByRole('radio', { name: 'Yes' }).isChecked(), true, 'my earlier answer is shown')
    await mine.getByRole('radio', { name: 'Maybe' }).check()
    await page.getByRole('region', { name: 'Everyone’s availability' }).getByText('1 maybe', { exact: false }).waitFor()
    const availability = await band.editor.get(`/gigs/${band.gig.id}/availability`)
    assert.equal(availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status, 'maybe')
    await screenshot(page, 'gig-phone')
    await checkA11y(page, 'gig page')

    for (const [name, pattern] of [['Setlist PDF', /^Setlist-.*\.pdf$/], ['Stage setlist PDF', /^Setlist-Buehne-.*\.pdf$/], ['Schedule PDF', /^Ablaufplan-.*\.pdf$/], ['GEMA report', /^GEMA-.*\.xlsx$/]] as const) {
      const download = page.waitForEvent('download', { timeout: WAIT })
      await page.getByRole('link', { name, exact: true }).click()
      const file = await download
      assert.match(file.suggestedFilename(), pattern, name)
      const bytes = readFileSync((await file.path())!)
      assert.equal(bytes.subarray(0, 4).toString('latin1'), name === 'GEMA report' ? 'PK\u0003\u0004' : '%PDF', `${name} is the document`)
    }
    await page.setViewportSize(DESKTOP)
    await screenshot(page, 'gig-desktop')
    await page.setViewportSize(PHONE)
    app.assertClean()
  })
})
