import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { renderPdf } from '#src/documents/pdf.js'
import { PASSWORD } from '#test/helpers.js'
import { upload, wavFile } from '#test/file-fixtures.js'
import {
  checkA11y, DESKTOP, logInAs, screenshot, storySteps, WAIT
} from '#test/browser/harness.js'
import { pageOpener } from '#test/browser/logged-in.js'
import { controlled, OUTAGE, startOfflineApp } from '#test/browser/offline-fixture.js'

// Sheet music on gig night: a song without a chart shows its sheet PDF on the live page in the
// chart's place (pdf.js), turned by the pedal's keys; a member prefers the sheet for a song that
// has both; the gig pack saves the sheets (and, asked for, the recordings) with their size shown
// before saving, and the sheet comes from it with the network gone.

/** Two pages (pdfmake, fonts embedded), each a few big lines: a page turn is visible. */
const sheetPdf = (title: string) => renderPdf({
  content: [
    { text: `${title} — page one`, fontSize: 40, bold: true },
    ...Array.from({ length: 6 }, (_, i) => ({ text: `Bar ${i + 1}: Bb7 Eb7 F7`, fontSize: 28 })),
    { text: `${title} — page two`, fontSize: 40, bold: true, pageBreak: 'before' as const },
    { text: 'Coda: F7 Bb', fontSize: 28 }
  ]
})

const chartRegion = (page: Page) => page.getByRole('region', { name: 'Chart' })
const pager = (page: Page) => chartRegion(page).locator('.pager')
/** Every page of the sheet on screen is drawn (pdf.js renders them one after the other). */
const drawn = (page: Page, pages: number) =>
  page.waitForFunction(
    (n) => document.querySelectorAll('.pager canvas[data-drawn]').length === n, pages,
    { timeout: WAIT })

test('stage: the sheet PDF on the live page, turned by the pedal, saved for offline',
  { timeout: 600_000 }, async (t) => {
    const { base, relay, browser, phone, editor, gigId } = await startOfflineApp(
      t, { name: 'Jazz Brunch', startTime: '11:00' }, { release: false })
    const song = async (title: string, chart?: string) => {
      const created = await editor.post('/songs',
        { title, status: 'ready', ...(chart && { chart }) })
      assert.equal(created.statusCode, 201, created.body)
      return created.json().id as number
    }
    const horn = await song('Horn Feature')
    const blues = await song('Basement Blues',
      '{title: Basement Blues}\n[A]Down in the [D]basement')
    for (const [id, title] of [[horn, 'Horn part'], [blues, 'Blues lead sheet']] as const) {
      const sent = await upload(editor, `/songs/${id}/files`, await sheetPdf(title),
        { title, kind: 'sheet', filename: `${title}.pdf` })
      assert.equal(sent.statusCode, 201, sent.body)
    }
    const take = await upload(editor, `/songs/${blues}/files`, wavFile(1),
      { title: 'Rehearsal take', kind: 'recording', filename: 'take.wav' })
    assert.equal(take.statusCode, 201, take.body)
    const takeUrl = (take.json() as { file: { url: string } }).file.url
    const setlist = await editor.put(`/gigs/${gigId}/setlist`, {
      version: 0, sets: [{ name: 'Set 1', entries: [{ songId: horn }, { songId: blues }] }]
    })
    assert.equal(setlist.statusCode, 200, setlist.body)

    const { page } = phone
    const step = storySteps(t, phone, 'web-stage-sheet')
    const live = `${base}/app/gigs/${gigId}/live`

    await step('the gig page says what the files take before saving; recordings on request',
      async () => {
        await page.goto(`${base}/app/login`)
        await page.getByRole('combobox', { name: /^(Language|Sprache)$/ }).selectOption('en')
        await logInAs(page, base, 'mia', PASSWORD)
        await page.goto(`${base}/app/gigs/${gigId}`)
        const files = page.getByText(/^Files to save: /)
        await files.waitFor()
        assert.match(await files.innerText(), /^Files to save: 2 · [1-9]\d* kB$/)
        const recordings = page.getByRole('checkbox', { name: /^Also the recording \(\d+ kB\)/ })
        assert.equal(await recordings.isChecked(), false, 'recordings only on request')
        await recordings.check()
        await page.getByText(/^Files to save: 3 · /).waitFor()
        await page.getByRole('button', { name: 'Save for offline' }).click()
        await page.getByRole('status').filter({ hasText: 'Saved for offline' }).waitFor()
        const kept = await page.evaluate(async () => {
          const paths: string[] = []
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              paths.push(new URL(request.url).pathname)
            }
          }
          return paths
        })
        assert.ok(kept.includes(takeUrl), 'the recording is in the pack')
        assert.equal(kept.filter((path) => /^\/files\/\d+\/.+\.pdf$/.test(path)).length, 2)
        await checkA11y(page, 'gig page, files to save')
        await screenshot(page, 'stage-sheet-gig-pack-phone')
      })

    await step('a song without a chart shows its sheet, fit to width, dark', async () => {
      await page.goto(live)
      const first = chartRegion(page).getByRole('img', { name: 'Horn part, page 1 of 2' })
      await first.waitFor()
      await drawn(page, 2)
      const box = await first.boundingBox()
      const area = await pager(page).boundingBox()
      assert.ok(box && area && Math.abs(box.width - area.width) < 24, 'fit to the width')
      const filter = await first.locator('canvas').evaluate((c) => getComputedStyle(c).filter)
      assert.match(filter, /invert\(1\)/, 'light on dark on the stage')
      assert.equal(await chartRegion(page).getByText('No chart for this song.').count(), 0)
      // pdf.js parsed it in its own worker (the app's CSP allows it: script-src 'self'), not in
      // the page's thread (its silent fallback).
      assert.ok(page.workers().some((worker) => /\/pdf\.worker\.min\.[\w-]+\.mjs$/.test(worker.url())),
        page.workers().map((worker) => worker.url()).join())
      await checkA11y(page, 'live page with a sheet')
      await page.screenshot({ path: 'dist/screenshots/stage-sheet-live-phone.png' })
    })

    await step('the pedal turns the sheet, then moves on to the next song', async () => {
      const top = () => pager(page).evaluate((p) => p.scrollTop)
      assert.equal(await top(), 0)
      await page.keyboard.press('PageDown')
      const turned = await top()
      assert.ok(turned > 100, `turned by a screen: ${turned}`)
      await page.keyboard.press('PageUp')
      assert.equal(await top(), 0, 'and back')
      const bumper = page.getByText('End of song — next: Basement Blues')
      for (let i = 0; i < 12 && (await bumper.count()) === 0; i++) {
        await page.keyboard.press('ArrowRight')
      }
      await bumper.waitFor()
      const second = chartRegion(page).getByRole('img', { name: 'Horn part, page 2 of 2' })
      assert.ok(await second.isVisible())
      await page.screenshot({ path: 'dist/screenshots/stage-sheet-turned-phone.png' })
      await page.keyboard.press('Space')
      await chartRegion(page).getByRole('heading', { name: /Basement Blues/ }).waitFor()
      await chartRegion(page).getByText('basement').first().waitFor()
    })

    await step('a member prefers the sheet over the chart for one song', async () => {
      await page.getByRole('button', { name: 'Display' }).click()
      const sheet = page.getByRole('button', { name: 'Sheet', exact: true })
      assert.equal(await sheet.getAttribute('aria-pressed'), 'false')
      await sheet.click()
      await chartRegion(page).getByRole('img', { name: 'Blues lead sheet, page 1 of 2' }).waitFor()
      await page.getByRole('button', { name: 'Dark sheet' }).click()
      const canvas = chartRegion(page).locator('canvas').first()
      assert.equal(await canvas.evaluate((c) => getComputedStyle(c).filter), 'none')
      await drawn(page, 2)
      await checkA11y(page, 'live page, the sheet preferred, as printed')
      await page.screenshot({ path: 'dist/screenshots/stage-sheet-printed-phone.png' })
      await page.getByRole('button', { name: 'Dark sheet' }).click()
      await page.getByRole('button', { name: 'Follow band' }).click()
      await chartRegion(page).getByRole('img', { name: 'Horn part, page 1 of 2' }).waitFor()
    })

    await step('offline: the sheet comes from the gig pack', async () => {
      await controlled(page)
      await relay.stop()
      await page.context().setOffline(true)
      await page.reload()
      await page.getByRole('status').filter({ hasText: /^Offline/ }).waitFor()
      await chartRegion(page).getByRole('img', { name: 'Horn part, page 1 of 2' }).waitFor()
      await drawn(page, 2)
      await page.keyboard.press('PageDown')
      assert.ok(await pager(page).evaluate((p) => p.scrollTop) > 100, 'turned offline too')
      await screenshot(page, 'stage-sheet-offline-phone')
      await page.context().setOffline(false)
      await relay.start()
      await page.getByRole('status').filter({ hasText: /^Live/ }).waitFor()
      assert.deepEqual(phone.problems().filter((problem) => !OUTAGE.test(problem)), [])
    })

    await step('German, desktop: the song page opens the sheet, the stage shows it', async () => {
      const openAs = pageOpener()
      const desk = await openAs(browser, { base }, DESKTOP, 'de', 'mia', PASSWORD)
      t.after(() => desk.context.close())
      await desk.page.goto(`${base}/app/songs/${horn}`)
      await desk.page.getByRole('button', { name: 'Öffnen' }).click()
      const page1 = desk.page.getByRole('img', { name: 'Horn part, Seite 1 von 2' })
      await page1.waitFor()
      await desk.page.waitForFunction(
        () => document.querySelectorAll('canvas[data-drawn]').length === 2, null,
        { timeout: WAIT })
      assert.equal(await page1.locator('canvas').evaluate((c) => getComputedStyle(c).filter),
        'none', 'as printed on the song page')
      assert.equal(await desk.page.getByRole('link', { name: 'Herunterladen' }).count(), 1)
      await checkA11y(desk.page, 'song page, sheet open (German)')
      await screenshot(desk.page, 'stage-sheet-song-page-desktop-de')
      await desk.page.goto(live)
      await chartRegion(desk.page).getByRole('img', { name: 'Horn part, Seite 1 von 2' }).waitFor()
      await desk.page.waitForFunction(
        () => document.querySelectorAll('.pager canvas[data-drawn]').length === 2, null,
        { timeout: WAIT })
      await checkA11y(desk.page, 'live page with a sheet (German, desktop)')
      await desk.page.screenshot({ path: 'dist/screenshots/stage-sheet-live-desktop-de.png' })
      await desk.page.keyboard.press('ArrowDown')
      assert.ok(await pager(desk.page).evaluate((p) => p.scrollTop) > 100, 'a pedal page turn')
      desk.assertClean()
    })
  })
