import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import type { Locator, Request } from 'playwright-core'
import { ApiSession } from '#test/browser/api-client.js'
import { bandInBrowser } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  PHONE,
  screenshot,
  WAIT
} from '#test/browser/harness.js'

const FIREFOX_ON_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0'

// Every member screen of the web app in a real browser, driven by the accessible names of the web
// app's brief (kept outside the repository; what it asks is in docs/web.md), each effect checked
// through the API; axe-core and screenshots at 360 px and desktop width on every screen.
test(
  'web app: a member logs in, answers everything they owe and manages their account',
  { timeout: 600_000 },
  async (t) => {
    const { band, app } = await bandInBrowser(t)
    const { base, member } = band
    const { page } = app
    const mia = async () => ApiSession.login(base, member.username, member.password)

    await t.test(
      'login page: band default language, plain-words error, typed name kept',
      async () => {
        // Not logged in yet: GET /me answers 401, the silent POST /refresh too (Chromium logs
        // both).
        app.allowHttpError('/me', 401)
        app.allowHttpError('/refresh', 401)
        await page.goto(`${base}/app/`)
        // Not logged in: the app sends the visitor to the login page, in the band's language
        // (de-DE).
        await page.waitForURL(/\/app\/login/)
        await page.getByRole('button', { name: 'Anmelden' }).waitFor()
        assert.equal(await page.locator('html').getAttribute('lang'), 'de')
        await chooseEnglish(page)
        await page.getByLabel('Username').fill(member.username)
        await page.getByLabel('Password', { exact: true }).fill('not the right password at all')
        app.allowHttpError('/login', 401)
        await page.getByRole('button', { name: 'Log in' }).click()
        await page
          .getByRole('alert')
          .filter({ hasText: 'Username or password is wrong.' })
          .waitFor()
        assert.equal(
          await page.getByLabel('Username').inputValue(),
          member.username,
          'what the user typed survives the error'
        )
        await checkA11y(page, 'login')
        await screenshot(page, 'login-phone')
        await page.getByLabel('Password', { exact: true }).fill(member.password)
        await page.getByRole('button', { name: 'Log in' }).click()
        await page.getByRole('heading', { level: 1, name: 'Hello, Mia' }).waitFor()
        const cookies = await app.context.cookies()
        assert.ok(
          cookies.length >= 2 && cookies.every((cookie) => cookie.httpOnly),
          'session cookies are httpOnly'
        )
        assert.equal(
          await page.evaluate(() => document.cookie),
          '',
          'no token readable by JavaScript'
        )
      }
    )

    await t.test(
      'dashboard: to-dos and the next gigs and rehearsals, availability inline',
      async () => {
        const nav = page.getByRole('navigation', { name: 'Main' })
        for (const name of ['Dashboard', 'Gigs', 'Songs', 'Rehearsals', 'Surveys', 'Me']) {
          await nav.getByRole('link', { name, exact: true }).waitFor()
        }
        assert.equal(
          await nav.getByRole('link', { name: 'Admin' }).count(),
          0,
          'no Admin link for a member'
        )
        const todo = page.getByRole('region', { name: /To do/ })
        await todo.getByRole('link', { name: new RegExp(band.survey.title) }).waitFor()
        await todo.getByRole('link', { name: new RegExp(band.proposal.title) }).waitFor()
        const next = page.getByRole('region', { name: 'Coming up' })
        await next.getByRole('link', { name: band.gig.name }).waitFor()
        await screenshot(page, 'dashboard-phone')
        await checkA11y(page, 'dashboard')

        const group = page.getByRole('group', { name: `My availability: ${band.gig.name}` })
        await group.getByRole('radio', { name: 'Yes' }).check()
        await page
          .getByRole('status')
          .filter({ hasText: `${band.gig.name}: “Yes” saved` })
          .waitFor()
        const availability = await band.editor.get(`/gigs/${band.gig.id}/availability`)
        assert.equal(
          availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status,
          'yes'
        )
        await page.setViewportSize(DESKTOP)
        await screenshot(page, 'dashboard-desktop')
        await page.setViewportSize(PHONE)
      }
    )

    await t.test(
      'gigs: upcoming and past, the gig page with setlist, running order, availability, documents',
      async () => {
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Gigs', exact: true })
          .click()
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
        assert.equal(
          await mine.getByRole('radio', { name: 'Yes' }).isChecked(),
          true,
          'my earlier answer is shown'
        )
        await mine.getByRole('radio', { name: 'Maybe' }).check()
        await page
          .getByRole('region', { name: 'Everyone’s availability' })
          .getByText('1 maybe', { exact: false })
          .waitFor()
        const availability = await band.editor.get(`/gigs/${band.gig.id}/availability`)
        assert.equal(
          availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status,
          'maybe'
        )
        await screenshot(page, 'gig-phone')
        await checkA11y(page, 'gig page')

        for (const [name, pattern] of [
          ['Setlist PDF', /^Setlist-.*\.pdf$/],
          ['Stage setlist PDF', /^Setlist-Buehne-.*\.pdf$/],
          ['Schedule PDF', /^Ablaufplan-.*\.pdf$/],
          ['GEMA report', /^GEMA-.*\.xlsx$/]
        ] as const) {
          const pdf = name !== 'GEMA report'
          if (pdf) {
            // A PDF opens in a new tab; "Download …" beside it saves the file.
            const opened = app.context.waitForEvent('page', { timeout: WAIT })
            await page.getByRole('link', { name, exact: true }).click()
            const tab = await opened
            assert.match(tab.url(), /^blob:/, `${name} opens in the browser`)
            await tab.close()
          }
          const download = page.waitForEvent('download', { timeout: WAIT })
          const saveAs = pdf ? `Download ${name}` : name
          await page.getByRole('link', { name: saveAs, exact: true }).click()
          const file = await download
          assert.match(file.suggestedFilename(), pattern, name)
          const bytes = readFileSync((await file.path())!)
          assert.equal(
            bytes.subarray(0, 4).toString('latin1'),
            name === 'GEMA report' ? 'PK\u0003\u0004' : '%PDF',
            `${name} is the document`
          )
        }
        await page.setViewportSize(DESKTOP)
        await screenshot(page, 'gig-desktop')
        await page.setViewportSize(PHONE)
        app.assertClean()
      }
    )

    await t.test(
      'songs: search and filter, vote on a proposal, propose a song (input kept on error)',
      async () => {
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Songs', exact: true })
          .click()
        await page.getByRole('heading', { level: 1, name: 'Songs' }).waitFor()
        const repertoire = page.getByRole('region', { name: 'Repertoire' })
        await repertoire.getByRole('link', { name: /Mustang Sally/ }).waitFor()
        await page.getByRole('searchbox', { name: 'Search by title or artist' }).fill('stevie')
        await repertoire.getByText('1 song', { exact: true }).waitFor()
        await repertoire.getByRole('link', { name: /Superstition/ }).waitFor()
        assert.equal(
          await repertoire.getByRole('link', { name: /Mustang Sally/ }).count(),
          0,
          'the search filters the list'
        )
        await page.getByRole('searchbox', { name: 'Search by title or artist' }).fill('')
        await page.getByRole('combobox', { name: 'Status' }).selectOption('proposed')
        await repertoire.getByText('1 song', { exact: true }).waitFor()
        await page.getByRole('combobox', { name: 'Status' }).selectOption('')
        await screenshot(page, 'songs-phone')
        await checkA11y(page, 'songs')

        await page
          .getByRole('region', { name: 'Proposals' })
          .getByRole('link', { name: new RegExp(band.proposal.title) })
          .click()
        await page.getByRole('heading', { level: 1, name: band.proposal.title }).waitFor()
        await page
          .getByRole('group', { name: `My vote on ${band.proposal.title}` })
          .getByRole('radio', { name: 'Yes' })
          .check()
        await page.getByText('1 yes · 0 no · 0 abstained').waitFor()
        const votes = await band.editor.get(`/songs/${band.proposal.id}/votes`)
        assert.deepEqual(
          votes.votes.map((v: { userId: number; vote: string }) => [v.userId, v.vote]),
          [[member.id, 'yes']]
        )
        await checkA11y(page, 'song page')
        await screenshot(page, 'song-phone')

        await page.getByRole('link', { name: 'All songs' }).click()
        await page.getByRole('button', { name: 'Propose a song' }).click()
        await page.getByLabel('Title', { exact: true }).fill('Rolling in the Deep')
        await page.getByLabel('Artist', { exact: true }).fill('Adele')
        await page.getByLabel('Duration').fill('three minutes')
        await page.getByRole('button', { name: 'Send proposal' }).click()
        await page.getByText('Write the duration as minutes:seconds, e.g. 3:45.').waitFor()
        assert.equal(
          await page.getByLabel('Title', { exact: true }).inputValue(),
          'Rolling in the Deep',
          'typed values survive the error'
        )
        assert.equal(await page.getByLabel('Duration').getAttribute('aria-invalid'), 'true')
        await checkA11y(page, 'propose form with an error')
        await page.getByLabel('Duration').fill('3:48')
        await page.getByRole('button', { name: 'Send proposal' }).click()
        await page.getByRole('heading', { level: 1, name: 'Rolling in the Deep' }).waitFor()
        const proposed = (await band.editor.get('/songs?status=proposed')).find(
          (song: { title: string }) => song.title === 'Rolling in the Deep'
        )
        assert.equal(proposed.artist, 'Adele')
        assert.equal(proposed.durationSeconds, 228)
        assert.equal(proposed.proposedBy, member.id)
      }
    )

    await t.test('rehearsals: my availability in the list and on the rehearsal page', async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Rehearsals', exact: true })
        .click()
      await page.getByRole('heading', { level: 1, name: 'Rehearsals' }).waitFor()
      await page
        .getByRole('group', { name: /^My availability: Rehearsal on / })
        .getByRole('radio', { name: 'No' })
        .check()
      await page.getByRole('status').filter({ hasText: '“No” saved' }).waitFor()
      let availability = await band.editor.get(`/rehearsals/${band.rehearsal.id}/availability`)
      assert.equal(
        availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status,
        'no'
      )
      await checkA11y(page, 'rehearsals')
      await screenshot(page, 'rehearsals-phone')
      await page.getByRole('link', { name: /Proberaum Nord/ }).click()
      await page.getByRole('heading', { level: 1, name: /^Rehearsal on / }).waitFor()
      await page.getByRole('link', { name: 'Superstition' }).waitFor()
      await page.getByText('Horn section').waitFor()
      const group = page.getByRole('group', { name: /^My availability: Rehearsal on / })
      assert.equal(await group.getByRole('radio', { name: 'No' }).isChecked(), true)
      await group.getByRole('radio', { name: 'Yes' }).check()
      await page
        .getByRole('region', { name: 'Everyone’s availability' })
        .getByText('1 yes', { exact: false })
        .waitFor()
      availability = await band.editor.get(`/rehearsals/${band.rehearsal.id}/availability`)
      assert.equal(
        availability.answers.find((a: { userId: number }) => a.userId === member.id)?.status,
        'yes'
      )
      await checkA11y(page, 'rehearsal page')
      await screenshot(page, 'rehearsal-phone')
    })

    await t.test('surveys: answer, see the results, create one and close it', async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Surveys', exact: true })
        .click()
      await page.getByRole('heading', { level: 1, name: 'Surveys' }).waitFor()
      await checkA11y(page, 'surveys')
      await page.getByRole('link', { name: new RegExp(band.survey.title) }).click()
      await page.getByRole('heading', { level: 1, name: band.survey.title }).waitFor()
      await page
        .getByRole('group', { name: 'Pick one' })
        .getByRole('radio', { name: 'Dark red' })
        .check()
      await page.getByRole('button', { name: 'Send answer' }).click()
      await page.getByRole('button', { name: 'Change answer' }).waitFor()
      const detail = await band.editor.get(`/surveys/${band.survey.id}`)
      const darkRed = band.survey.options.find((o) => o.label === 'Dark red')!
      assert.deepEqual(
        detail.results
          .find((r: { optionId: number }) => r.optionId === darkRed.id)
          .answers.map((a: { userId: number; value: string }) => [a.userId, a.value]),
        [[member.id, 'yes']]
      )
      await page.getByText('Mia (Yes)').waitFor()
      assert.equal(
        await page.getByRole('button', { name: 'Close survey' }).count(),
        0,
        'only the creator or an editor closes a survey'
      )
      await checkA11y(page, 'survey page')
      await screenshot(page, 'survey-phone')

      await page.getByRole('link', { name: 'All surveys' }).click()
      await page.getByRole('link', { name: 'New survey' }).click()
      await page.getByLabel('Question').fill('Rehearsal next week?')
      await page.getByRole('radio', { name: 'Find a date' }).check()
      await page.getByLabel('Option 1', { exact: true }).fill(`${band.rehearsal.date}T19:00`)
      await page.getByLabel('Option 2', { exact: true }).fill(`${band.rehearsal.date}T20:00`)
      await page.getByRole('button', { name: 'Add option' }).click()
      await page.getByLabel('Option 3', { exact: true }).fill(`${band.rehearsal.date}T19:00`)
      app.allowHttpError('/surveys', 400)
      await page.getByRole('button', { name: 'Create survey' }).click()
      await page.getByRole('alert').filter({ hasText: 'Two options are the same.' }).waitFor()
      assert.equal(
        await page.getByLabel('Question').inputValue(),
        'Rehearsal next week?',
        'typed values survive the error'
      )
      await checkA11y(page, 'new survey with an error')
      await page.getByRole('button', { name: 'Remove option 3' }).click()
      await page.getByRole('button', { name: 'Create survey' }).click()
      await page.getByRole('heading', { level: 1, name: 'Rehearsal next week?' }).waitFor()
      const created = (await band.editor.get('/surveys')).find(
        (s: { title: string }) => s.title === 'Rehearsal next week?'
      )
      assert.equal(created.kind, 'date')
      assert.deepEqual(
        created.options.map((o: { at: string }) => o.at),
        [`${band.rehearsal.date}T19:00`, `${band.rehearsal.date}T20:00`]
      )
      await page.getByRole('group', { name: /19:00/ }).getByRole('radio', { name: 'Yes' }).check()
      await page.getByRole('group', { name: /20:00/ }).getByRole('radio', { name: 'Maybe' }).check()
      await page.getByRole('button', { name: 'Send answer' }).click()
      await page.getByRole('button', { name: 'Change answer' }).waitFor()
      assert.deepEqual(
        (await band.editor.get(`/surveys/${created.id}`)).myResponse,
        null,
        'the editor has not answered'
      )
      const mine = await (await mia()).get(`/surveys/${created.id}`)
      assert.deepEqual(mine.myResponse.map((a: { value: string }) => a.value).sort(), [
        'maybe',
        'yes'
      ])
      await page.getByRole('button', { name: 'Close survey' }).click()
      await page.getByRole('button', { name: 'Yes, close it' }).click()
      await page.getByRole('status').filter({ hasText: 'Survey closed' }).waitFor()
      assert.equal((await band.editor.get(`/surveys/${created.id}`)).status, 'closed')
      assert.equal(
        await page.getByRole('button', { name: 'Change answer' }).count(),
        0,
        'a closed survey takes no answers'
      )
      await checkA11y(page, 'closed survey')
    })

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
