import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Locator, Request } from 'playwright-core'
import { ApiSession } from '#test/browser/api-client.js'
import { bandInBrowser } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  logInAs,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'

const FIREFOX_ON_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0'

// A member's own account in a real browser: profile, password policy, devices, calendar link,
// the language switch, the preloaded screens and logging out, each effect checked through the API.
test(
  'web app: a member manages their account, switches language and logs out',
  { timeout: 600_000 },
  async (t) => {
    const { band, app } = await bandInBrowser(t)
    const { base, member } = band
    const { page } = app
    const mia = async () => ApiSession.login(base, member.username, member.password)
    // Not logged in yet: GET /me answers 401, the silent POST /refresh too (Chromium logs both).
    app.allowHttpError('/me', 401)
    app.allowHttpError('/refresh', 401)
    await page.goto(`${base}/app/login`)
    await chooseEnglish(page)
    await logInAs(page, base, member.username, member.password)
    await page.getByRole('heading', { level: 1, name: 'Hello, Mia' }).waitFor()

    await t.test('me: profile, password policy, devices, calendar link', async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Me', exact: true })
        .click()
      await page.getByRole('heading', { level: 1, name: 'Me' }).waitFor()
      await page.getByLabel('Display name').fill('Mia M.')
      await page.getByLabel('Instruments').fill('Bass, Backing vocals')
      await page.getByRole('button', { name: 'Save profile' }).click()
      await page.getByRole('status').filter({ hasText: 'Profile saved' }).waitFor()
      const me = await (await mia()).get('/me')
      assert.equal(me.displayName, 'Mia M.')
      assert.deepEqual(me.instruments, ['Bass', 'Backing vocals'])

      // Another device (a phone) appears in the list and is logged out from here.
      const phone = await ApiSession.login(
        base,
        member.username,
        member.password,
        FIREFOX_ON_ANDROID
      )
      await page.reload()
      const devices = page.getByRole('region', { name: 'My devices' })
      await devices.getByText('This device').waitFor()
      await checkA11y(page, 'me')
      await screenshot(page, 'me-phone')
      await devices.getByRole('button', { name: /^Log out Firefox on Android/ }).click()
      await page.getByRole('status').filter({ hasText: 'Firefox on Android logged out' }).waitFor()
      await devices
        .getByRole('button', { name: /^Log out Firefox on Android/ })
        .waitFor({ state: 'detached' })
      assert.equal((await phone.request('GET', '/me')).status, 401, 'the phone is logged out')
      assert.equal(
        await page.evaluate(() => fetch('/me').then((r) => r.status)),
        200,
        'this device is still logged in'
      )

      // Password: the policy in plain words next to the field; the current one is checked.
      app.allowHttpError('/change_password', 400)
      app.allowHttpError('/change_password', 403)
      await page.getByLabel('Current password').fill(member.password)
      await page.getByLabel('New password', { exact: true }).fill('too short')
      await page.getByLabel('Repeat new password').fill('too short')
      await page.getByRole('button', { name: 'Change password' }).click()
      await page
        .getByRole('form', { name: 'Password' })
        .getByText('The new password needs at least 15 characters')
        .first()
        .waitFor()
      await page.getByLabel('New password', { exact: true }).fill('mia has a brand new password')
      await page.getByLabel('Repeat new password').fill('mia has a brand new password')
      await page.getByRole('button', { name: 'Change password' }).click()
      await page.getByText('The password must not contain the username.').first().waitFor()
      await page.getByLabel('Current password').fill('this is not my password')
      await page
        .getByLabel('New password', { exact: true })
        .fill('a rather long and fresh passphrase')
      await page.getByLabel('Repeat new password').fill('a rather long and fresh passphrase')
      await page.getByRole('button', { name: 'Change password' }).click()
      await page.getByText('Your current password is not right.').first().waitFor()
      assert.equal(
        await page.getByLabel('New password', { exact: true }).inputValue(),
        'a rather long and fresh passphrase',
        'typed values survive'
      )
      await checkA11y(page, 'password errors')

      // Calendar: create, the webcal:// link, copy, revoke — each checked against the feed itself.
      const calendar = page.getByRole('region', { name: 'Calendar subscription' })
      await calendar.getByRole('button', { name: 'Create calendar link' }).click()
      const url = await calendar.getByLabel('Your calendar link').inputValue()
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/cal\/ical\/\S+$/)
      assert.equal(
        await calendar
          .getByRole('link', { name: 'Subscribe in calendar app' })
          .getAttribute('href'),
        url.replace(/^http:/, 'webcal:')
      )
      const feed = await fetch(url)
      assert.equal(feed.status, 200)
      assert.match(await feed.text(), new RegExp(`SUMMARY:${band.gig.name}`))
      await calendar.getByRole('button', { name: 'Copy link' }).click()
      await calendar.getByRole('button', { name: 'Link copied' }).waitFor()
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url)
      assert.equal((await (await mia()).get('/me/calendar')).enabled, true)
      await checkA11y(page, 'calendar link')
      await calendar.getByRole('button', { name: 'Revoke link' }).click()
      await calendar.getByRole('button', { name: 'Yes, revoke' }).click()
      await calendar.getByRole('button', { name: 'Create calendar link' }).waitFor()
      assert.equal((await fetch(url)).status, 404, 'the revoked link stops working')
      assert.equal((await (await mia()).get('/me/calendar')).enabled, false)
    })

    await t.test('German: the whole app switches, dates in German', async () => {
      await page.getByRole('combobox', { name: 'Language' }).selectOption('de')
      await page.getByRole('heading', { level: 1, name: 'Ich' }).waitFor()
      await page
        .getByRole('navigation', { name: 'Hauptmenü' })
        .getByRole('link', { name: 'Übersicht' })
        .click()
      await page.getByRole('heading', { level: 1, name: 'Hallo, Mia M.' }).waitFor()
      await page
        .getByRole('region', { name: 'Demnächst' })
        .getByText(/Do\.|Fr\.|Sa\.|So\.|Mo\.|Di\.|Mi\./)
        .first()
        .waitFor()
      await checkA11y(page, 'dashboard in German')
      await screenshot(page, 'dashboard-phone-de')
      await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en')
      await page.getByRole('heading', { level: 1, name: 'Hello, Mia M.' }).waitFor()
    })

    await t.test(
      'preload: a hovered link fetches the screen\'s data, the click shows it without asking again',
      async () => {
        const nav = page.getByRole('navigation', { name: 'Main' })
        const asks = (path: string | RegExp) => (request: Request) => {
          const url = new URL(request.url())
          const asked = `${url.pathname}${url.search}`
          const same = path instanceof RegExp ? path.test(asked) : asked === path
          return request.method() === 'GET' && same
        }
        // Each screen's load (web/src/routes/**/+page.ts) and one read it makes.
        const preloads = async (
          link: Locator,
          path: string | RegExp,
          heading: string | RegExp
        ) => {
          await page.getByRole('heading', { level: 1 }).first().waitFor()
          const fetched = page.waitForRequest(asks(path), { timeout: WAIT })
          await link.hover()
          await fetched
          let again = 0
          const count = (request: Request) => {
            if (asks(path)(request)) again += 1
          }
          page.on('request', count)
          await link.click()
          const exact = typeof heading === 'string'
          await page.getByRole('heading', { level: 1, name: heading, exact }).waitFor()
          page.off('request', count)
          assert.equal(again, 0, `${path}: read once, while the link was hovered`)
        }
        await page.setViewportSize(DESKTOP)
        await preloads(nav.getByRole('link', { name: 'Gigs' }), '/gigs?upcoming=true', 'Gigs')
        await preloads(
          nav.getByRole('link', { name: 'Rehearsals' }),
          '/rehearsals?upcoming=true',
          'Rehearsals'
        )
        await preloads(nav.getByRole('link', { name: 'Songs' }), '/songs', 'Songs')
        await preloads(
          page.getByRole('link', { name: band.proposal.title }).first(),
          `/songs/${band.proposal.id}/votes`,
          band.proposal.title
        )
        await preloads(nav.getByRole('link', { name: 'Me' }), '/me/sessions', 'Me')
        await preloads(nav.getByRole('link', { name: 'Dashboard' }), '/me/todos', /^Hello/)
        await preloads(
          page.getByRole('link', { name: 'Season statistics' }),
          /^\/stats\?season=\d{4}$/,
          'Season statistics'
        )
        await nav.getByRole('link', { name: 'Dashboard' }).click()
        await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor()
        await page.setViewportSize(PHONE)
      }
    )

    await t.test(
      'log out: back to the login page, the session is gone on the server, nothing left behind',
      async () => {
        const cookiesBefore = (await app.context.cookies())
          .map((c) => `${c.name}=${c.value}`)
          .join('; ')
        await page.getByRole('button', { name: 'Log out', exact: true }).click()
        await page.getByRole('button', { name: 'Log in' }).waitFor()
        const after = await fetch(`${base}/me`, { headers: { cookie: cookiesBefore } })
        assert.equal(after.status, 401, 'the old session cookie no longer works')
        assert.deepEqual(await app.context.cookies(), [], 'cookies cleared')
        const storage = await page.evaluate(() => ({
          local: Object.keys(localStorage),
          session: Object.keys(sessionStorage)
        }))
        assert.deepEqual(
          storage,
          { local: ['bandstand.locale'], session: [] },
          'only the device language stays'
        )
        app.allowHttpError('/me', 401)
        app.allowHttpError('/refresh', 401)
        await page.goBack()
        await page.getByRole('button', { name: 'Log in' }).waitFor()
        assert.equal(
          await page.getByText('Mia M.').count(),
          0,
          'no data of the logged-out user is shown'
        )
        app.assertClean()
      }
    )
  }
)
