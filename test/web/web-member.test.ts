import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
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

// The member screens of the web app in a real browser, driven by the accessible names of the web
// app's brief (kept outside the repository; what it asks is in docs/web.md), each effect checked
// through the API; axe-core and screenshots at 360 px and desktop width on every screen. The
// member's own account: web-member-account.test.ts.
test(
  'web app: a member logs in and answers everything they owe',
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
      app.assertClean()
    })
  }
)
