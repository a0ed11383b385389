import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Locator, Page } from 'playwright-core'
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import {
  checkA11y,
  chooseEnglish,
  DESKTOP,
  launchBrowser,
  logInAs,
  openApp,
  PHONE,
  screenshot,
  storySteps,
  WAIT
} from '#test/browser/harness.js'
import { EDITOR_PASSWORD } from '#test/browser/band-fixture.js'
import { centre, mouseDrag, touchDrag } from '#test/browser/drag.js'

interface StoredEntry {
  id: number
  songId: number
  song: { title: string }
  notes: string | null
  customDurationSeconds: number | null
  plannedStart: string
}
interface StoredSetlist {
  version: number
  sets: {
    id: number
    name: string
    customBreakAfterSeconds: number | null
    entries: StoredEntry[]
  }[]
}

const titles = (setlist: StoredSetlist) =>
  setlist.sets.map((set) => set.entries.map((entry) => entry.song.title))

/** The titles per set as the editor shows them (the order on screen). */
async function shownTitles (page: Page): Promise<string[][]> {
  return page
    .locator('[data-drop-set]')
    .evaluateAll((lists) =>
      lists.map((list) =>
        Array.from(list.querySelectorAll('[data-entry] .song-title'), (e) => e.textContent!.trim())
      )
    )
}

function handle (page: Page, title: string): Locator {
  return page.getByRole('button', { name: `Move ${title}`, exact: true })
}

test(
  'web app: an editor creates a gig, builds a two-set setlist, reorders, saves, meets a conflict',
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
    const { base, editor } = band
    const date = dayFromNow(20)
    let gigId = 0
    const step = storySteps(t, app, 'editor-setlist')

    await step('New gig: the master data form creates the gig', async () => {
      app.allowHttpError('/me', 401)
      app.allowHttpError('/refresh', 401)
      await page.goto(`${base}/app/login`)
      await chooseEnglish(page)
      await logInAs(page, base, 'lena', EDITOR_PASSWORD)
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Gigs', exact: true })
        .click()
      await page.getByRole('link', { name: 'New gig' }).click()
      await page.getByRole('heading', { level: 1, name: 'New gig' }).waitFor()
      // Saving without a name: the field says so, nothing is sent.
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.locator('.field-error').filter({ hasText: 'Required.' }).first().waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Stadtfest Halle')
      await page.getByLabel('Date', { exact: true }).fill(date)
      await page.getByLabel('Start time', { exact: true }).fill('20:30')
      await page.getByLabel('Status').selectOption('confirmed')
      await page.getByLabel('Doors').fill('19:30')
      await page.getByLabel('End', { exact: true }).fill('01:00')
      await page.getByLabel('Venue name').fill('Marktplatz')
      await page.getByLabel('City').fill('Halle')
      await page.getByLabel('Organizer name').fill('Stadt Halle')
      await checkA11y(page, 'new gig')
      await screenshot(page, 'editor-gig-new-desktop')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Stadtfest Halle' }).waitFor()
      gigId = Number(/\/gigs\/(\d+)/.exec(page.url())![1])
      const gig = await editor.get(`/gigs/${gigId}`)
      assert.equal(gig.date, date)
      assert.equal(gig.startTime, '20:30')
      assert.equal(gig.doorsTime, '19:30')
      assert.equal(gig.endTime, '01:00')
      assert.equal(gig.status, 'confirmed')
      assert.equal(gig.venue.name, 'Marktplatz')
      assert.equal(gig.venue.city, 'Halle')
      assert.equal(gig.organizer.name, 'Stadt Halle')
    })

    await step('setlist editor: two sets built by search, timing as you edit', async () => {
      // Hovering the link runs the editor's load (routes/gigs/[id]/setlist/+page.ts): its reads
      // (the programmes to copy from among them) start before the click.
      const edit = page.getByRole('link', { name: 'Edit setlist' })
      const programmes = page.waitForRequest(
        (request) => new URL(request.url()).pathname === '/repertoire',
        { timeout: WAIT }
      )
      await edit.hover()
      await programmes
      await edit.click()
      await page.getByRole('heading', { level: 1, name: 'Setlist: Stadtfest Halle' }).waitFor()
      const find = page.getByRole('searchbox', { name: 'Find song' })
      const addFound = async (query: string, title: string) => {
        await find.fill(query)
        const result = page.locator('.results li').filter({ hasText: title })
        await result.getByRole('button', { name: 'Add' }).click()
      }
      await page.getByRole('button', { name: 'Add set' }).click()
      await addFound('chicago', 'Sweet Home Chicago')
      await addFound('proud', 'Proud Mary')
      await addFound('mary', 'Proud Mary') // a song may be played twice; removed again below
      await page.getByRole('button', { name: 'Add set' }).click()
      await addFound('sally', 'Mustang Sally')
      await addFound('stevie', 'Superstition')
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago', 'Proud Mary', 'Proud Mary'],
        ['Mustang Sally', 'Superstition']
      ])
      // Remove the second Proud Mary through its details.
      await page.getByRole('button', { name: 'Details of Proud Mary' }).nth(1).click()
      await page.getByRole('button', { name: 'Remove Proud Mary' }).click()
      await page.getByRole('status').filter({ hasText: 'Proud Mary removed from Set 1' }).waitFor()

      // Per-entry notes and duration override; the times follow at once (20:30 start, songs of
      // 4:20 and 3:10, the band's gap between songs).
      await page.getByRole('button', { name: 'Details of Sweet Home Chicago' }).click()
      await page.getByLabel('Notes').fill('Count in slowly')
      await page.getByLabel('Length').fill('5:00')
      await page.getByLabel('Length').press('Tab')
      await page.getByRole('button', { name: 'Details of Sweet Home Chicago' }).click()
      const config = await editor.get('/public/app_config')
      const gap: number = config.timing.songGapSeconds
      assert.equal(typeof gap, 'number', 'the band’s gap between songs')
      const second = page.locator('[data-entry]').nth(1).locator('.at')
      const minutes = 20 * 60 + 30 + (300 + gap) / 60
      const expected = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(
        Math.floor(minutes % 60)
      ).padStart(2, '0')}`
      assert.equal((await second.textContent())?.trim(), expected, 'the next song starts later')
      await page.getByLabel('Set name').nth(1).fill('Zugabe-Set')
      await page.getByRole('heading', { level: 2, name: /Zugabe-Set/ }).waitFor()
      await checkA11y(page, 'setlist editor')
      await screenshot(page, 'editor-setlist-built-desktop')
    })

    await step('keyboard: arrow keys move a song within and across sets, announced', async () => {
      await handle(page, 'Superstition').focus()
      await page.keyboard.press('ArrowUp')
      await page
        .getByRole('status')
        .filter({ hasText: 'Superstition: Zugabe-Set, position 1 of 2' })
        .waitFor()
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        'Move Superstition',
        'the focus stays on the moved song'
      )
      // Up past the first song of a set: to the end of the set before.
      await page.keyboard.press('ArrowUp')
      await page
        .getByRole('status')
        .filter({ hasText: 'Superstition: Set 1, position 3 of 3' })
        .waitFor()
      await page.keyboard.press('ArrowDown')
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago', 'Proud Mary'],
        ['Superstition', 'Mustang Sally']
      ])
    })

    await step('drag and drop with the mouse, across sets', async () => {
      // Proud Mary onto the gap between Superstition and Mustang Sally.
      const target = await centre(
        page.locator('[data-entry]').filter({ hasText: 'Mustang Sally' })
      )
      await mouseDrag(page, handle(page, 'Proud Mary'), { x: target.x, y: target.y - 12 })
      await page
        .getByRole('status')
        .filter({ hasText: 'Proud Mary: Zugabe-Set, position 2 of 3' })
        .waitFor()
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago'],
        ['Superstition', 'Proud Mary', 'Mustang Sally']
      ])
      assert.equal(await page.locator('.drop-line').count(), 0, 'the drop line is gone')
    })

    await step('Save setlist sends the version; the API has what the screen shows', async () => {
      await page.getByText('Unsaved changes').waitFor()
      await page.getByRole('button', { name: 'Save setlist' }).click()
      await page.getByText('All changes saved').waitFor()
      const stored: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      assert.equal(stored.version, 1)
      assert.deepEqual(titles(stored), [
        ['Sweet Home Chicago'],
        ['Superstition', 'Proud Mary', 'Mustang Sally']
      ])
      assert.deepEqual(
        stored.sets.map((set) => set.name),
        ['Set 1', 'Zugabe-Set']
      )
      const chicago = stored.sets[0]!.entries[0]!
      assert.equal(chicago.notes, 'Count in slowly')
      assert.equal(chicago.customDurationSeconds, 300)
      // The times on screen are the server's times.
      const shown = await page.locator('[data-entry] .at').allTextContents()
      assert.deepEqual(
        shown.map((s) => s.trim()),
        stored.sets.flatMap((set) => set.entries.map((entry) => entry.plannedStart))
      )
    })

    await step('a finger drags a song on a phone (touch pointer events)', async () => {
      await page.setViewportSize(PHONE)
      await touchDrag(
        page,
        handle(page, 'Mustang Sally'),
        page.locator('[data-entry]').filter({ hasText: 'Superstition' }),
        -14
      )
      await page
        .getByRole('status')
        .filter({ hasText: 'Mustang Sally: Zugabe-Set, position 1 of 3' })
        .waitFor()
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago'],
        ['Mustang Sally', 'Superstition', 'Proud Mary']
      ])
      await checkA11y(page, 'setlist editor (phone)')
      await screenshot(page, 'editor-setlist-phone')
      await page.setViewportSize(DESKTOP)
    })

    await step('409: a save in between; the work is kept, what changed is shown', async () => {
      // Someone else (a script with the editor's account) saves meanwhile: drops Superstition.
      const current: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      const body = {
        version: current.version,
        sets: current.sets.map((set) => ({
          id: set.id,
          name: set.name,
          breakAfterSeconds: set.customBreakAfterSeconds,
          entries: set.entries
            .filter((entry) => entry.song.title !== 'Superstition')
            .map((entry) => ({
              id: entry.id,
              songId: entry.songId,
              notes: entry.notes,
              durationSeconds: entry.customDurationSeconds
            }))
        }))
      }
      await editor.ok('PUT', `/gigs/${gigId}/setlist`, body)
      app.allowHttpError(`/gigs/${gigId}/setlist`, 409)
      await page.getByRole('button', { name: 'Save setlist' }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved this setlist' })
      await alert.waitFor()
      assert.deepEqual(
        await alert.getByRole('listitem').allTextContents(),
        ['“Superstition” removed from Zugabe-Set'],
        'exactly what the other save changed'
      )
      assert.deepEqual(
        await shownTitles(page),
        [['Sweet Home Chicago'], ['Mustang Sally', 'Superstition', 'Proud Mary']],
        'the editor’s work is still on screen'
      )
      await checkA11y(page, 'setlist conflict')
      await screenshot(page, 'editor-setlist-conflict-desktop')
      await alert.getByRole('button', { name: 'Keep my changes on top' }).click()
      await page.getByRole('status').filter({ hasText: 'Your changes are now on top' }).waitFor()
      // My move (Mustang Sally to the top of its set) applied on top of theirs (no Superstition).
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago'],
        ['Mustang Sally', 'Proud Mary']
      ])
      await page.getByRole('button', { name: 'Save setlist' }).click()
      await page.getByText('All changes saved').waitFor()
      const stored: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      assert.equal(stored.version, current.version + 2)
      assert.deepEqual(titles(stored), [['Sweet Home Chicago'], ['Mustang Sally', 'Proud Mary']])
    })

    await step('leaving with unsaved changes asks first', async () => {
      await handle(page, 'Proud Mary').focus()
      await page.keyboard.press('ArrowUp')
      await page.getByRole('link', { name: /Back to the gig/ }).click()
      const dialog = page.getByRole('dialog', { name: 'Leave without saving?' })
      await dialog.waitFor()
      await checkA11y(page, 'leave dialog')
      await dialog.getByRole('button', { name: 'Stay here' }).click()
      await dialog.waitFor({ state: 'hidden' })
      assert.match(page.url(), /\/setlist$/)
      await page.getByRole('link', { name: /Back to the gig/ }).click()
      await dialog.getByRole('button', { name: 'Leave without saving' }).click()
      await page.getByRole('heading', { level: 1, name: 'Stadtfest Halle' }).waitFor()
      const stored: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      assert.deepEqual(titles(stored), [['Sweet Home Chicago'], ['Mustang Sally', 'Proud Mary']])
    })

    await step('remove a set (asked first), meet a conflict, reload theirs', async () => {
      await page.getByRole('link', { name: 'Edit setlist' }).click()
      // The editor has loaded its version before the other save happens.
      await page.getByRole('button', { name: 'Remove Zugabe-Set' }).waitFor()
      const current: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      await editor.ok('PUT', `/gigs/${gigId}/setlist`, {
        version: current.version,
        sets: current.sets.map((set) => ({
          id: set.id,
          name: set.name,
          breakAfterSeconds: set.customBreakAfterSeconds,
          entries: set.entries.map((entry) => ({
            id: entry.id,
            songId: entry.songId,
            notes: entry.song.title === 'Mustang Sally' ? 'Capo 3' : entry.notes,
            durationSeconds: entry.customDurationSeconds
          }))
        }))
      })
      await page.getByRole('button', { name: 'Remove Zugabe-Set' }).click()
      const dialog = page.getByRole('dialog', { name: 'Remove Zugabe-Set?' })
      await dialog.getByText('Its 2 songs go with it').waitFor()
      await dialog.getByRole('button', { name: 'Remove set' }).click()
      assert.deepEqual(await shownTitles(page), [['Sweet Home Chicago']])
      await page.getByRole('button', { name: 'Save setlist' }).click()
      const alert = page.getByRole('alert').filter({ hasText: 'Someone else saved this setlist' })
      await alert.getByRole('listitem').first().waitFor()
      assert.deepEqual(await alert.getByRole('listitem').allTextContents(), [
        '“Mustang Sally” in Zugabe-Set: notes or length changed'
      ])
      await alert.getByRole('button', { name: 'Reload theirs (drop my changes)' }).click()
      await page.getByText('All changes saved').waitFor()
      assert.deepEqual(await shownTitles(page), [
        ['Sweet Home Chicago'],
        ['Mustang Sally', 'Proud Mary']
      ])
      await page.getByRole('button', { name: 'Details of Mustang Sally' }).click()
      assert.equal(await page.getByLabel('Notes').inputValue(), 'Capo 3')
      const stored: StoredSetlist = await editor.get(`/gigs/${gigId}/setlist`)
      assert.equal(stored.version, current.version + 1, 'nothing saved from the browser')
      await page.getByRole('link', { name: /Back to the gig/ }).click()
      await page.getByRole('heading', { level: 1, name: 'Stadtfest Halle' }).waitFor()
    })

    await step('edit the gig, then delete it after a confirmation naming what goes', async () => {
      await page.getByRole('link', { name: 'Edit gig' }).click()
      await page.getByRole('heading', { level: 1, name: 'Edit: Stadtfest Halle' }).waitFor()
      await checkA11y(page, 'edit gig')
      await page.getByLabel('Name', { exact: true }).fill('Stadtfest Halle 2026')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Stadtfest Halle 2026' }).waitFor()
      assert.equal((await editor.get(`/gigs/${gigId}`)).name, 'Stadtfest Halle 2026')
      await page.getByRole('link', { name: 'Edit gig' }).click()
      await page.getByRole('button', { name: 'Delete gig' }).click()
      const dialog = page.getByRole('dialog', { name: 'Delete “Stadtfest Halle 2026”?' })
      await dialog.getByText('the setlist: 2 set(s), 3 songs').waitFor()
      await checkA11y(page, 'delete gig dialog')
      await screenshot(page, 'editor-gig-delete-desktop')
      await dialog.getByRole('button', { name: 'Delete gig and all of this' }).click()
      await page.getByRole('heading', { level: 1, name: 'Gigs' }).waitFor()
      const { status } = await editor.request('GET', `/gigs/${gigId}`)
      assert.equal(status, 404)
    })

    app.assertClean()
  }
)
