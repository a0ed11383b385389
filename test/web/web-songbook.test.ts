import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { zipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { checkA11y, DESKTOP, launchBrowser, screenshot } from '#test/browser/harness.js'
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { editorLogin, phoneOf } from '#test/browser/live-fixture.js'
import { projectPath } from '#src/project-path.js'

// Moving in with a songbook: files dropped on the import screen, the report, a ChordPro file with
// every directive on the stage (nothing but the song), the editor's list of what it left out and
// the offer to convert pasted chords over lyrics.

const everyDirective = readFileSync(
  projectPath('test', 'fixtures', 'charts', 'every-directive.cho'), 'utf8')
const forInstruments = '{title: Parts}\n{c-bass: Bass: root notes}\n{c-guitar: Guitar only}\n[C]la'

/** Drops files on an element as a browser does (a drop event with a DataTransfer). */
async function dropFiles (page: Page, selector: string,
  files: { name: string; text?: string; base64?: string }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer()
    for (const f of list) {
      const bytes = f.base64
        ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
        : new TextEncoder().encode(f.text ?? '')
      dt.items.add(new File([bytes], f.name))
    }
    return dt
  }, files)
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer })
}

test('songbook: import screen, stage view of real ChordPro, editor notes', { timeout: 600_000 },
  async (t) => {
    const band = await startBand()
    const browser = await launchBrowser()
    t.after(async () => {
      await browser.close()
      await band.stop()
    })

    await t.test('an editor drops files and an archive and reads the report', async () => {
      const desk = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password,
        DESKTOP)
      t.after(() => desk.context.close())
      const page = desk.page
      await page.goto(`${band.base}/app/songs`)
      await page.getByRole('link', { name: 'Import songbook' }).click()
      await page.getByRole('heading', { name: 'Import songbook' }).waitFor()
      const zip = Buffer.from(zipSync({
        'book/harbour.cho': new TextEncoder().encode('{title: Harbour Lights}\n[G]Lights'),
        '../escape.cho': new TextEncoder().encode('{title: Escape}')
      })).toString('base64')
      await dropFiles(page, '.drop', [
        { name: 'lighthouse.cho', text: everyDirective },
        { name: 'Greensleeves.txt', text: 'Am      C\nAlas my love\n' },
        { name: 'book.zip', base64: zip }
      ])
      await page.getByText('Greensleeves.txt').waitFor()
      await page.getByRole('button', { name: 'Import (3)' }).click()
      const report = page.getByRole('region', { name: 'Import report' })
      await report.getByText('3 created, 0 updated, 1 refused.').waitFor()
      await report.getByRole('link', { name: 'The Lighthouse Keeper' }).waitFor()
      await report.getByText('book.zip/../escape.cho: a path outside the archive').waitFor()
      await checkA11y(page, 'songbook import report')
      await screenshot(page, 'songbook-import-report')
      // Imported again: the same songs are updated, never doubled.
      await page.locator('input[type=file]').setInputFiles({
        name: 'lighthouse.cho', mimeType: 'text/plain', buffer: Buffer.from(everyDirective)
      })
      await page.getByRole('button', { name: 'Import (1)' }).click()
      await report.getByText('0 created, 1 updated, 0 refused.').waitFor()
      desk.assertClean()
    })

    const songs = await band.editor.ok('GET', '/songs') as { id: number; title: string }[]
    const lighthouse = songs.find((s) => s.title === 'The Lighthouse Keeper')!
    const parts = await band.editor.ok('POST', '/songs', { title: 'Parts', chart: forInstruments })
    const gig = await band.editor.ok('POST', '/gigs', {
      name: 'Harbour Night', date: dayFromNow(0), status: 'confirmed', startTime: '20:00'
    })
    await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'Set 1', entries: [{ songId: lighthouse.id }, { songId: parts.id }] }]
    })

    await t.test('the stage shows the song and nothing of the ignored directives', async () => {
      const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
      t.after(() => mia.context.close())
      await mia.page.goto(`${band.base}/app/gigs/${gig.id}/live`)
      const chart = mia.page.getByRole('region', { name: 'Chart' })
      await chart.getByText('Spoken: "and now, the last verse"').waitFor()
      const text = await chart.innerText()
      for (const hidden of ['X: 1', 'K: G', 'relative', 'SVG SOURCE', 'MUSICXML', 'spread',
        'example.org', 'image', 'columns', 'Courier', '<', 'not shown']) {
        assert.ok(!text.includes(hidden), `the stage shows "${hidden}"`)
      }
      assert.match(text, /verse 1/i)
      assert.match(text, /last chorus/i)
      await screenshot(mia.page, 'songbook-stage-every-directive')
      // Mia plays bass: her selector's comment, not the guitarist's. On a phone the other songs
      // are behind Display.
      await mia.page.getByRole('button', { name: 'Display' }).click()
      await mia.page.getByRole('button', { name: 'Next song' }).click()
      await chart.getByText('Bass: root notes').waitFor()
      assert.equal(await chart.getByText('Guitar only').count(), 0)
    })

    await t.test('the editor lists what it left out and offers to convert a paste', async () => {
      const desk = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password,
        DESKTOP)
      t.after(() => desk.context.close())
      const page = desk.page
      await page.goto(`${band.base}/app/songs/${lighthouse.id}/edit`)
      await page.getByText(/^Left out on the stage: columns, pagetype, titles, diagrams/).waitFor()
      const preview = page.getByRole('region', { name: 'Chart preview' })
      await preview.getByText('ABC notation — not shown').waitFor()
      const field = page.getByLabel('Chart', { exact: true })
      const pasted = 'G        C\nAmazing grace, how sweet'
      await field.fill(pasted)
      await field.evaluate((el, text) => {
        const data = new DataTransfer()
        data.setData('text/plain', text)
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }))
      }, pasted)
      await page.getByText('This looks like chords over lyrics — convert?').waitFor()
      await screenshot(page, 'songbook-paste-offer')
      await page.getByRole('button', { name: 'Convert', exact: true }).click()
      assert.equal(await field.inputValue(), '[G]Amazing g[C]race, how sweet')
      // The song page notes the ABC block too.
      await page.goto(`${band.base}/app/songs/${lighthouse.id}`)
      await page.getByText('ABC notation — not shown').waitFor()
      desk.assertClean()
    })

    await t.test('the import screen on a phone, in German', async () => {
      const phone = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
      t.after(() => phone.context.close())
      await phone.page.evaluate(() => localStorage.setItem('bandstand.locale', 'de'))
      await phone.page.goto(`${band.base}/app/songs/import`)
      await phone.page.getByRole('heading', { name: 'Songbook importieren' }).waitFor()
      await phone.page.getByRole('button', { name: 'Importieren (0)' }).click()
      await phone.page.getByText('Mindestens eine Datei wählen.').waitFor()
      await checkA11y(phone.page, 'songbook import (German, phone)')
      await screenshot(phone.page, 'songbook-import-phone-de')
    })
  })
