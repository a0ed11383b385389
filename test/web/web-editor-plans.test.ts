import { test } from 'node:test'
import assert from 'node:assert/strict'
import { dayFromNow } from '#test/browser/api-client.js'
import { EDITOR_PASSWORD, startBand } from '#test/browser/band-fixture.js'
import { openAppInEnglish } from '#test/browser/english.js'
import {
  checkA11y,
  DESKTOP,
  launchBrowser,
  logInAs,
  PHONE,
  screenshot
} from '#test/browser/harness.js'

// An editor plans in a real browser, every effect checked through the API: a rehearsal with songs
// and notes per song, edited and called off; a poll and a date survey created, closed, deleted.
test('web app: an editor plans a rehearsal and runs surveys', { timeout: 600_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const { base, editor } = band
  const lena = await openAppInEnglish(browser, base, DESKTOP)
  const { page } = lena
  await logInAs(page, base, 'lena', EDITOR_PASSWORD)
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click()

  await t.test('a rehearsal planned with songs and notes per song, then edited', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Rehearsals' })
      .click()
    await page.getByRole('link', { name: 'Plan a rehearsal' }).click()
    const form = page.getByRole('form', { name: 'Rehearsal plan' })
    const date = dayFromNow(9)
    await form.getByLabel('Date').fill(date)
    await form.getByLabel('Start time').fill('18:30')
    await form.getByLabel('End time').fill('21:30')
    await form.getByLabel('Place').fill('Proberaum Süd')
    await form.getByLabel('Notes', { exact: true }).fill('Bring the new in-ears.')
    const find = form.getByLabel('Find song')
    await find.fill('proud')
    await form.getByRole('button', { name: 'Add Proud Mary' }).click()
    await find.fill('mustang')
    await form.getByRole('button', { name: 'Add Mustang Sally' }).click()
    await form.getByLabel('Notes for Proud Mary').fill('Capo 2, slow intro')
    await form.getByLabel('Notes for Mustang Sally').fill('Horn riff')
    await form.getByRole('button', { name: 'Move Mustang Sally up' }).click()
    await page.getByText('Mustang Sally moved to position 1').waitFor({ state: 'attached' })
    await checkA11y(page, 'rehearsal plan')
    await screenshot(page, 'rehearsal-plan-desktop')
    await page.setViewportSize(PHONE)
    await screenshot(page, 'rehearsal-plan-phone')
    await page.setViewportSize(DESKTOP)
    await form.getByRole('button', { name: 'Plan rehearsal' }).click()
    await page.getByRole('link', { name: 'Edit rehearsal' }).waitFor()
    const id = Number(new URL(page.url()).pathname.split('/').pop())
    const planned = await editor.get(`/rehearsals/${id}`)
    assert.equal(planned.date, date)
    assert.equal(planned.startTime, '18:30')
    assert.equal(planned.endTime, '21:30')
    assert.equal(planned.location, 'Proberaum Süd')
    assert.equal(planned.notes, 'Bring the new in-ears.')
    assert.deepEqual(
      planned.songs.map((song: { title: string; notes: string }) => [song.title, song.notes]),
      [
        ['Mustang Sally', 'Horn riff'],
        ['Proud Mary', 'Capo 2, slow intro']
      ]
    )
    await page.getByText('Capo 2, slow intro').waitFor()

    await page.getByRole('link', { name: 'Edit rehearsal' }).click()
    await form.getByLabel('Mustang Sally done').check()
    await form.getByRole('button', { name: 'Remove Proud Mary' }).click()
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('link', { name: 'Edit rehearsal' }).waitFor()
    const edited = await editor.get(`/rehearsals/${id}`)
    assert.deepEqual(
      edited.songs.map((song: { title: string; done: boolean }) => [song.title, song.done]),
      [['Mustang Sally', true]]
    )

    // Called off.
    await page.getByRole('link', { name: 'Edit rehearsal' }).click()
    await page.getByRole('button', { name: 'Delete rehearsal' }).click()
    await page.getByText(/^Delete the rehearsal on .+, with its songs and everyone’s answers\?$/).waitFor()
    await page.getByRole('button', { name: 'Yes, delete it' }).click()
    await page.waitForURL(/\/app\/rehearsals$/)
    assert.equal((await editor.request('GET', `/rehearsals/${id}`)).status, 404)
    lena.assertClean()
  })

  await t.test('a poll and a date survey: created, closed, deleted', async () => {
    await nav('Surveys')
    await page.getByRole('link', { name: 'New survey' }).click()
    await page.getByLabel('Question').fill('Which song opens the summer set?')
    await page.getByLabel('Several options may get a yes').check()
    await page.getByLabel('Option 1', { exact: true }).fill('Proud Mary')
    await page.getByLabel('Option 2', { exact: true }).fill('Mustang Sally')
    await page.getByRole('button', { name: 'Add option' }).click()
    await page.getByLabel('Option 3', { exact: true }).fill('Superstition')
    await page.getByRole('button', { name: 'Create survey' }).click()
    await page
      .getByRole('heading', { level: 1, name: 'Which song opens the summer set?' })
      .waitFor()
    const pollId = Number(new URL(page.url()).pathname.split('/').pop())
    const poll = await editor.get(`/surveys/${pollId}`)
    assert.equal(poll.kind, 'poll')
    assert.equal(poll.multipleChoice, true)
    assert.deepEqual(
      poll.options.map((option: { label: string }) => option.label),
      ['Proud Mary', 'Mustang Sally', 'Superstition']
    )
    await page.getByRole('button', { name: 'Close survey' }).click()
    await page.getByRole('button', { name: 'Yes, close it' }).click()
    await page.getByRole('status').filter({ hasText: 'Survey closed' }).waitFor()
    assert.equal((await editor.get(`/surveys/${pollId}`)).status, 'closed')

    await page.getByRole('link', { name: 'All surveys' }).click()
    await page.getByRole('link', { name: 'New survey' }).click()
    await page.getByLabel('Question').fill('When do we record the demo?')
    await page.getByLabel('Find a date').check()
    const first = dayFromNow(15)
    const second = dayFromNow(16)
    await page.getByLabel('Option 1', { exact: true }).fill(`${first}T14:00`)
    await page.getByLabel('Option 2', { exact: true }).fill(`${second}T10:30`)
    await page.getByRole('button', { name: 'Create survey' }).click()
    await page.getByRole('heading', { level: 1, name: 'When do we record the demo?' }).waitFor()
    const dateId = Number(new URL(page.url()).pathname.split('/').pop())
    const dates = await editor.get(`/surveys/${dateId}`)
    assert.equal(dates.kind, 'date')
    assert.deepEqual(
      dates.options.map((option: { at: string }) => option.at),
      [`${first}T14:00`, `${second}T10:30`]
    )
    await checkA11y(page, 'date survey')
    await page.getByRole('button', { name: 'Delete survey' }).click()
    await page.getByText('Delete this survey? Nobody has answered yet.').waitFor()
    await page.getByRole('button', { name: 'Yes, delete it' }).click()
    await page.waitForURL(/\/app\/surveys$/)
    assert.equal((await editor.request('GET', `/surveys/${dateId}`)).status, 404)
    lena.assertClean()
  })
})
