import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import type { Locator } from 'playwright-core'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot,
  storySteps
} from '#test/browser/harness.js'

/** Chooses the option whose text contains `text`. */
async function choose (select: Locator, text: string): Promise<void> {
  const value = await select
    .locator('option')
    .filter({ hasText: text })
    .first()
    .getAttribute('value')
  await select.selectOption(value!)
}

// The editor's gig screens around the setlist, in a real browser, each effect checked through the
// API: the running order editor, publishing the setlist, the checklist (an editor manages it, the
// assignee ticks off their item, the dashboard lists it), the CSV and text exports, the
// programmes (the same setlist editor, copied into a gig), the statistics after the show, and
// what a member gets instead of an editor's screen.
test(
  'web app: running order, publish, checklist, exports, programmes, statistics, roles',
  { timeout: 900_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })
    const app = await openApp(browser, band.base, DESKTOP)
    const { page } = app
    const { base, editor, gig } = band
    const gigPage = `${base}/app/gigs/${gig.id}`

    const step = storySteps(t, app, 'editor-gig')

    await step('running order: own items edited, the gig’s times shown read-only', async () => {
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      await page.goto(`${base}/app/login`)
      await chooseEnglish(page)
      await logInAs(page, base, 'lena', EDITOR_PASSWORD)
      await page.goto(gigPage)
      await page.getByRole('link', { name: 'Edit running order' }).click()
      await page.getByRole('heading', { level: 1, name: `Running order: ${gig.name}` }).waitFor()
      // The gig's own times are in their place, not editable.
      const fixed = page.locator('li.fixed')
      await fixed.filter({ hasText: 'Soundcheck' }).filter({ hasText: '18:00' }).waitFor()
      assert.equal(await fixed.locator('input').count(), 0, 'fixed times are read-only')
      assert.equal(await page.getByLabel('Title').inputValue(), 'Load the van')
      await page.getByRole('button', { name: 'Add item' }).click()
      const item = page.locator('li.editable').last()
      await item.getByLabel('Time').fill('18:30')
      await item.getByLabel('Title').fill('Dinner')
      await item.getByLabel('Who').fill('Everyone')
      await item.getByLabel('Where').fill('Backstage')
      await item.getByLabel('Notes').fill('Vegetarian for two')
      await checkA11y(page, 'running order editor')
      await page.getByRole('button', { name: 'Save running order' }).click()
      await page.getByRole('status').filter({ hasText: 'Running order saved' }).waitFor()
      const schedule = await editor.get(`/gigs/${gig.id}/schedule`)
      const own = schedule.items.filter((i: { readOnly: boolean }) => !i.readOnly)
      assert.deepEqual(
        own.map((i: any) => [i.at.slice(11), i.title, i.who, i.where, i.notes]),
        [
          ['16:30', 'Load the van', 'Everyone', 'Rehearsal room', null],
          ['18:30', 'Dinner', 'Everyone', 'Backstage', 'Vegetarian for two']
        ]
      )
      // Sorted by time between the gig's own times after saving.
      const order = await page.locator('ol.schedule-editor > li').evaluateAll((rows) =>
        rows.map((row) =>
          row.classList.contains('fixed')
            ? row.textContent!.replace(/\s+/g, ' ').trim().slice(0, 5)
            : (row.querySelector('input[type=time]') as HTMLInputElement).value
        )
      )
      assert.deepEqual(order.slice(0, 4), ['16:30', '17:00', '18:00', '18:30'])
      await screenshot(page, 'editor-schedule-desktop')
    })

    await step('publish the setlist from the gig page', async () => {
      await page.getByRole('link', { name: /Back to the gig/ }).click()
      await page.getByText('Not published yet').waitFor()
      await page.getByRole('button', { name: 'Publish setlist' }).click()
      await page.getByRole('status').filter({ hasText: 'Setlist published to the band' }).waitFor()
      await page.getByText(/Published .* by Lena/).waitFor()
      const publication = await editor.get(`/gigs/${gig.id}/setlist/publication`)
      assert.equal(publication.published, true)
      assert.equal(publication.changedSince, false)
    })

    await step('checklist: an editor adds items, one assigned to Mia', async () => {
      const checklist = page.getByRole('region', { name: 'Checklist' })
      await checklist.getByText('Nothing on the checklist.').waitFor()
      for (const [title, who] of [
        ['Bring the PA', 'Mia'],
        ['Print the setlists', null]
      ] as const) {
        await checklist.getByRole('button', { name: 'Add checklist item' }).click()
        await checklist.getByLabel('What').fill(title)
        await checklist.getByLabel('Category').fill('Technik')
        if (who) await checklist.getByLabel('Who').selectOption({ label: who })
        await checklist.getByRole('button', { name: 'Add item' }).click()
        await checklist.getByText(title).waitFor()
      }
      await checklist.getByRole('button', { name: 'Move “Print the setlists” up' }).click()
      await page.getByRole('status').filter({ hasText: 'is now number 1' }).waitFor()
      const items = await editor.get(`/gigs/${gig.id}/checklist`)
      assert.deepEqual(
        items.map((i: any) => [i.title, i.assigneeId, i.category, i.done]),
        [
          ['Print the setlists', null, 'Technik', false],
          ['Bring the PA', band.member.id, 'Technik', false]
        ]
      )
      await checkA11y(page, 'gig page (editor)')
      await screenshot(page, 'editor-gig-page-desktop')
    })

    await step('exports beside the documents: CSV and text', async () => {
      const csvLink = page.getByRole('link', { name: 'Setlist CSV' })
      const textLink = page.getByRole('link', { name: 'Setlist as text' })
      const csv = await page.request.get(new URL((await csvLink.getAttribute('href'))!, base).href)
      assert.equal(csv.status(), 200)
      const csvText = await csv.text()
      assert.match(csvText, /Sweet Home Chicago/)
      assert.match(csvText, /;/)
      const text = await page.request.get(
        new URL((await textLink.getAttribute('href'))!, base).href
      )
      assert.equal(text.status(), 200)
      assert.match(await text.text(), /Mustang Sally/)
    })

    await step('a member: my item on the dashboard, ticked off; no editor controls', async () => {
      const mia = await openApp(browser, base, PHONE)
      t.after(() => mia.context.close())
      mia.allowHttpError('/me', 401)
      mia.allowHttpError('/refresh', 401)
      await mia.page.goto(`${base}/app/login`)
      await chooseEnglish(mia.page)
      await logInAs(mia.page, base, band.member.username, band.member.password)
      const todo = mia.page.getByRole('region', { name: /To do/ })
      await todo.getByRole('link', { name: /Bring the PA/ }).click()
      await mia.page.getByRole('heading', { level: 1, name: gig.name }).waitFor()
      const checklist = mia.page.getByRole('region', { name: 'Checklist' })
      const mine = checklist.getByRole('checkbox', { name: /Bring the PA/ })
      const others = checklist.getByRole('checkbox', { name: /Print the setlists/ })
      assert.equal(await others.isDisabled(), true, 'not my item')
      await mine.check()
      await mia.page.getByRole('status').filter({ hasText: '“Bring the PA” done' }).waitFor()
      const items = await editor.get(`/gigs/${gig.id}/checklist`)
      assert.equal(items.find((i: any) => i.title === 'Bring the PA').done, true)
      for (const name of ['Edit gig', 'Edit setlist', 'Edit running order']) {
        assert.equal(await mia.page.getByRole('link', { name }).count(), 0, name)
      }
      assert.equal(await mia.page.getByRole('button', { name: 'Publish setlist' }).count(), 0)
      assert.equal(await checklist.getByRole('button', { name: 'Add checklist item' }).count(), 0)
      await checkA11y(mia.page, 'gig page (member)')
      await screenshot(mia.page, 'member-gig-checklist-phone')
      // A direct link to an editor's screen: a clear page, no broken editor.
      await mia.page.goto(`${gigPage}/setlist`)
      await mia.page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
      await mia.page.getByText('This screen is for the band’s editors', { exact: false }).waitFor()
      await checkA11y(mia.page, 'not allowed')
      mia.assertClean()
    })

    await step('programmes: made from a gig, edited with the setlist editor, copied', async () => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Gigs', exact: true })
        .click()
      await page.getByRole('link', { name: 'Programmes' }).click()
      await page.getByRole('heading', { level: 1, name: 'Programmes' }).waitFor()
      await checkA11y(page, 'programmes')
      await page.getByLabel('Name').fill('Standard evening')
      await choose(page.getByLabel('Start from'), gig.name)
      await page.getByRole('button', { name: 'Create programme' }).click()
      await page.getByRole('heading', { level: 1, name: 'Standard evening' }).waitFor()
      // The gig's two sets came along; the same editor reorders and adds.
      await page.getByRole('button', { name: 'Move Mustang Sally', exact: true }).focus()
      await page.keyboard.press('ArrowDown')
      await page
        .getByRole('status')
        .filter({ hasText: 'Mustang Sally: Set 2, position 2 of 2' })
        .waitFor()
      await page.getByRole('searchbox', { name: 'Find song' }).fill('valerie')
      await page
        .locator('.results li')
        .filter({ hasText: 'Valerie' })
        .getByRole('button', { name: 'Add' })
        .click()
      await page.getByRole('button', { name: 'Save setlist' }).click()
      await page.getByText('All changes saved').waitFor()
      await checkA11y(page, 'programme editor')
      await screenshot(page, 'editor-programme-desktop')
      const id = Number(/\/repertoire\/(\d+)/.exec(page.url())![1])
      const programme = await editor.get(`/repertoire/${id}`)
      assert.deepEqual(
        programme.sets.map((s: any) => s.entries.map((e: any) => e.song.title)),
        [
          ['Sweet Home Chicago', 'Proud Mary'],
          ['Superstition', 'Mustang Sally', 'Valerie']
        ]
      )
      assert.equal(programme.sets[0].entries[0].plannedStart, '00:00', 'times count from 0:00')
      // The programme's documents.
      for (const name of ['Setlist PDF', 'Stage setlist PDF', 'Setlist CSV']) {
        const href = await page.getByRole('link', { name, exact: true }).getAttribute('href')
        const response = await page.request.get(new URL(href!, base).href)
        assert.equal(response.status(), 200, name)
      }
      // Copied into the later gig.
      await choose(page.getByLabel('Gig', { exact: true }), band.laterGig.name)
      await page.getByRole('button', { name: 'Copy into the gig’s setlist' }).click()
      await page.getByRole('heading', { level: 1, name: band.laterGig.name }).waitFor()
      const copied = await editor.get(`/gigs/${band.laterGig.id}/setlist`)
      assert.deepEqual(
        copied.sets.map((s: any) => s.entries.map((e: any) => e.song.title)),
        [
          ['Sweet Home Chicago', 'Proud Mary'],
          ['Superstition', 'Mustang Sally', 'Valerie']
        ]
      )
    })

    await step('statistics per set on the gig page after the show', async () => {
      const past = band.pastGig
      const songs = await editor.get('/songs')
      const id = (title: string) => songs.find((s: any) => s.title === title).id
      const saved = await editor.ok('PUT', `/gigs/${past.id}/setlist`, {
        version: 0,
        sets: [
          {
            name: 'Set 1',
            entries: [{ songId: id('Proud Mary') }, { songId: id('Superstition') }]
          },
          { name: 'Set 2', entries: [{ songId: id('Mustang Sally') }] }
        ]
      })
      const [first, second] = saved.sets[0].entries
      await editor.ok('PUT', `/gigs_lm/${past.id}/`, {
        entryId: first.id,
        status: 'played',
        rating: 3
      })
      await editor.ok('PUT', `/gigs_lm/${past.id}/`, { entryId: second.id, status: 'skipped' })
      await page.goto(`${base}/app/gigs/${past.id}`)
      const stats = page.getByRole('region', { name: 'After the show' })
      const row = stats.getByRole('row', { name: /Set 1/ })
      await row.waitFor()
      assert.deepEqual(
        (await row.getByRole('cell').allTextContents()).map((s) => s.trim()),
        ['1 / 2', '1', '0', '3']
      )
      await checkA11y(page, 'gig statistics')
      await screenshot(page, 'editor-gig-stats-desktop')
    })

    app.assertClean()
  }
)
