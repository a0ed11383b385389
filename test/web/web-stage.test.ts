import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { checkA11y, DESKTOP, launchBrowser, screenshot } from '#test/browser/harness.js'
import { dayFromNow } from '#test/browser/api-client.js'
import { startBand } from '#test/browser/band-fixture.js'
import { editorLogin, phoneOf } from '#test/browser/live-fixture.js'

// The stage view on gig night: charts under the current song, personal settings, the pedal path
// (keyboard events, as a Bluetooth pedal sends them) and two phones following an editor's Played.

const verse = (n: number) =>
  `[G]Line ${n} of the [C]long [D]song, it [G]goes on`
// 120 lines: several screens on a phone.
const LONG = [
  '{title: Long Song}',
  '{key: G}',
  '{soc}',
  '[G]Sing the [H7]chorus [Em]loud',
  '{eoc}',
  ...Array.from({ length: 120 }, (_, i) => verse(i + 1)),
  '{chorus}',
  '[G]The [*Rit.]very last line'
].join('\n')
const SHORT = '{title: Short}\n[Am]Short and [E7]sweet'

const chartRegion = (page: Page) => page.getByRole('region', { name: 'Chart' })
const chartTitle = (page: Page) => chartRegion(page).getByRole('heading', { level: 2 })

test('stage view: charts, settings, pedal, following the band', { timeout: 600_000 }, async (t) => {
  const band = await startBand()
  const browser = await launchBrowser()
  t.after(async () => {
    await browser.close()
    await band.stop()
  })
  const long = await band.editor.ok('POST', '/songs', {
    title: 'Long Song', key: 'G', tempoBpm: 120, leadSinger: 'Lena', chart: LONG
  })
  const short = await band.editor.ok('POST', '/songs', {
    title: 'Short Song', key: 'Am', tempoBpm: 96, leadSinger: 'Mia', chart: SHORT
  })
  const bare = await band.editor.ok('POST', '/songs', { title: 'No Chart Song' })
  const gig = await band.editor.ok('POST', '/gigs', {
    name: 'Chart Night', date: dayFromNow(0), status: 'confirmed', startTime: '20:00'
  })
  await band.editor.ok('PUT', `/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{
      name: 'Set 1',
      entries: [
        { songId: long.id, transpose: 2, capo: 2 },
        { songId: short.id, transpose: -2 },
        { songId: bare.id }
      ]
    }]
  })
  const url = `${band.base}/app/gigs/${gig.id}/live`
  const mia = await phoneOf(browser, band.base, band.member.username, band.member.password)
  const lena = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password)
  for (const phone of [mia, lena]) await phone.page.goto(url)

  await t.test('the current chart, transposed by the gig, chorus marked, Next', async () => {
    const region = chartRegion(mia.page)
    await chartTitle(mia.page).getByText('Long Song').waitFor()
    // G + 2 = A; the German H7 + 2 = C#7 (the band writes German: H stays H where it is one).
    await region.locator('.chord', { hasText: /^A$/ }).first().waitFor()
    await region.locator('.chord', { hasText: /^C#7$/ }).first().waitFor()
    await region.getByText('Rit.').waitFor()
    assert.ok(await region.getByText('Chorus').count() >= 2, 'chorus and its recall labelled')
    // With a capo: the key heard and the shapes played (G + 2 = A, less the capo: G).
    await region.getByText(/Sounds in A · Capo 2 · G shapes · 120 BPM/).waitFor()
    // The song card says the key the band plays tonight, as the chart does (G + 2).
    const card = mia.page.getByRole('status', { name: 'Now playing' })
    await card.getByText('A major', { exact: true }).waitFor()
    // The band's next song is named once, by the page's Next (no second bar under the chart).
    const next = mia.page.getByRole('region', { name: 'Next', exact: true })
    await next.getByText('Short Song').waitFor()
    // A minor − 2 = G minor, as the band plays it, in the reader's language (English here).
    await next.getByText(/^Gm · 96 BPM · Mia · \d/).waitFor()
    assert.equal(await mia.page.getByRole('region', { name: 'Next chart' }).count(), 0)
    await checkA11y(mia.page, 'stage view (phone)')
    await screenshot(mia.page, 'stage-view-phone')
  })

  await t.test('personal settings stay on this phone', async () => {
    const region = chartRegion(mia.page)
    const size = () =>
      region.locator('.chart').evaluate((e) => parseFloat(getComputedStyle(e).fontSize))
    const before = await size()
    // On a phone the display settings are behind one button.
    await mia.page.getByRole('button', { name: 'Display' }).click()
    await mia.page.getByRole('button', { name: 'Larger text' }).click()
    assert.ok((await size()) > before)
    await mia.page.getByRole('button', { name: 'Transpose up' }).click()
    // G + 3: B flat, written "B" in German notation (the band's default).
    await region.locator('.chord', { hasText: /^B$/ }).first().waitFor()
    await region.getByText(/Transposed 3 \(gig 2, mine 1\)/).waitFor()
    // The whole chart, also its part added after the first screen, is renamed: every G (two a
    // verse line, the chorus, its recall, the last line) is a B now, no A is left.
    await region.locator('.chart:not([aria-busy])').waitFor()
    assert.equal(await region.locator('.chord', { hasText: /^B$/ }).count(), 120 * 2 + 3)
    assert.equal(await region.locator('.chord', { hasText: /^A$/ }).count(), 0)
    await mia.page.getByRole('button', { name: 'Chords', pressed: true }).click()
    await mia.page.getByRole('button', { name: 'Chords', pressed: false }).waitFor()
    assert.equal(await region.locator('.chord').count(), 0, 'lyrics only')
    await region.getByText('Line 1 of the long song, it goes on').waitFor()
    await mia.page.reload()
    await mia.page.getByRole('button', { name: 'Display' }).click()
    await mia.page.getByRole('button', { name: 'Chords', pressed: false }).waitFor()
    assert.ok((await size()) > before, 'kept across a reload')
    // Lena's phone is untouched, and nothing went to the server.
    await lena.page.getByRole('button', { name: 'Display' }).click()
    await lena.page.getByRole('button', { name: 'Chords', pressed: true }).waitFor()
    const charts = await band.editor.ok('GET', `/gigs/${gig.id}/charts`)
    assert.equal(charts.charts[0].transpose, 2)
    await mia.page.getByRole('button', { name: 'Chords' }).click()
    await mia.page.getByRole('button', { name: 'Transpose down' }).click()
    await mia.page.getByRole('button', { name: 'Smaller text' }).click()
  })

  await t.test('the pedal: a screen at a time, a bumper, then the next song', async () => {
    const page = mia.page
    const pager = chartRegion(page).locator('.pager')
    await chartTitle(page).getByText('Long Song').waitFor()
    const top = () => pager.evaluate((e) => e.scrollTop)
    assert.equal(await top(), 0)
    await page.locator('h1').click()
    await page.keyboard.press('PageDown')
    const one = await top()
    assert.ok(one > 100, `one screen down (${one})`)
    await page.keyboard.press('ArrowUp')
    assert.equal(await top(), 0)
    await page.keyboard.press('Space')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowDown')
    assert.ok((await top()) > one * 2.5)
    await page.keyboard.press('PageUp')
    // Forward to the end: the bumper comes, the band's song stays.
    for (let i = 0; i < 40; i++) {
      if (await page.getByText('End of song — next: Short Song').count()) break
      await page.keyboard.press('PageDown')
    }
    await page.getByText('End of song — next: Short Song').waitFor()
    await page.keyboard.press('PageDown')
    await chartTitle(page).getByText('Short Song').waitFor()
    await chartRegion(page).locator('.chord', { hasText: /^Gm$/ }).waitFor()
    await page.getByText('Not following: showing song 2 of 3').waitFor()
    // Away from the band, the chart after the one on screen is named (the band's next differs).
    await page.getByRole('region', { name: 'Next chart' }).getByText('No Chart Song').waitFor()
    await page.getByRole('status', { name: 'Now playing' }).getByText('Long Song').waitFor()
    const live = await band.editor.ok('GET', `/gigs_lm/${gig.id}`)
    assert.equal(live.current.song.title, 'Long Song', 'turning pages marks nothing played')
    // The pedal on the Played button of an editor's phone never presses it.
    await lena.page.getByRole('button', { name: 'Played' }).focus()
    await lena.page.keyboard.press('Space')
    await lena.page.keyboard.press('PageDown')
    const still = await band.editor.ok('GET', `/gigs_lm/${gig.id}`)
    assert.equal(still.current.song.title, 'Long Song')
    await page.getByRole('button', { name: 'Follow band' }).click()
    await chartTitle(page).getByText('Long Song').waitFor()
  })

  await t.test("two phones follow an editor's Played to the new song's top", async () => {
    const tom = await phoneOf(browser, band.base, 'lena', editorLogin.password)
    t.after(() => tom.context.close())
    await tom.page.goto(url)
    await chartTitle(tom.page).getByText('Long Song').waitFor()
    for (const phone of [mia, tom]) {
      await phone.page.locator('h1').click()
      await phone.page.keyboard.press('PageDown')
    }
    await lena.page.getByRole('button', { name: 'Played' }).click()
    for (const phone of [mia, tom, lena]) {
      await chartTitle(phone.page).getByText('Short Song').waitFor()
      await phone.page.waitForFunction(() =>
        document.querySelector('.pager')?.scrollTop === 0)
    }
    await mia.page.getByRole('region', { name: 'Next', exact: true }).getByText('No Chart Song')
      .waitFor()
    await lena.page.getByRole('button', { name: 'Played' }).click()
    await chartRegion(mia.page).getByText('No chart for this song.').waitFor()
    // Nothing to size, hide or transpose; the way to the other charts stays.
    for (const name of ['Transpose up', 'Transpose down', 'Larger text', 'Chords']) {
      assert.equal(await mia.page.getByRole('button', { name }).count(), 0, `no ${name}`)
    }
    await mia.page.getByRole('button', { name: 'Previous song' }).waitFor()
    mia.assertClean()
  })

  await t.test('song page: Chart editor, import, preview, save, download', async () => {
    const desk = await phoneOf(browser, band.base, editorLogin.username, editorLogin.password,
      DESKTOP)
    t.after(() => desk.context.close())
    const page = desk.page
    await page.goto(`${band.base}/app/songs/${bare.id}/edit`)
    // A chords-over-lyrics file from an old Windows program: Latin-1 bytes, CRLF.
    const file = Buffer.from('G        C\r\nGrüß Gott, ihr Leut\r\n', 'latin1')
    await page.locator('input[type=file]').setInputFiles({
      name: 'gruss.txt', mimeType: 'text/plain', buffer: file
    })
    const field = page.getByLabel('Chart', { exact: true })
    await page.getByText('Imported gruss.txt and converted its chords over lyrics').waitFor()
    // Read as Windows-1252 (not UTF-8), the C at its column: before the comma.
    assert.equal(await field.inputValue(), '[G]Grüß Gott[C], ihr Leut\n')
    const preview = page.getByRole('region', { name: 'Chart preview' })
    await preview.locator('.chord', { hasText: /^C$/ }).waitFor()
    await page.getByLabel('Preview transposed').selectOption('2')
    await preview.locator('.chord', { hasText: /^D$/ }).waitFor()
    // Pasted chords over lyrics, converted by the button.
    await field.fill('Am      E7\nHejo, spann den Wagen an')
    await page.getByRole('button', { name: 'Convert chords over lyrics' }).click()
    assert.equal(await field.inputValue(), '[Am]Hejo, sp[E7]ann den Wagen an')
    await checkA11y(page, 'song form with chart')
    await screenshot(page, 'song-chart-editor')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(`**/app/songs/${bare.id}`)
    const stored = await band.editor.ok('GET', `/songs/${bare.id}`)
    assert.equal(stored.chart, '[Am]Hejo, sp[E7]ann den Wagen an')
    await page.getByRole('link', { name: 'Download chart' }).waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download chart' }).click()
    ])
    assert.match(download.suggestedFilename(), /No-Chart-Song\.cho$/)
    // The gig page links the songbook.
    await page.goto(`${band.base}/app/gigs/${gig.id}`)
    await page.getByRole('link', { name: 'Songbook PDF', exact: true }).waitFor()
  })

  await t.test('desktop and German', async () => {
    const desk = await phoneOf(browser, band.base, band.member.username, band.member.password,
      DESKTOP)
    t.after(() => desk.context.close())
    await desk.page.goto(url)
    await chartRegion(desk.page).waitFor()
    await checkA11y(desk.page, 'stage view (desktop)')
    await screenshot(desk.page, 'stage-view-desktop')
    // The stage hides the app's bars (and the language menu): the device's choice, as /me sets it.
    await desk.page.evaluate(() => localStorage.setItem('bandstand.locale', 'de'))
    await desk.page.reload()
    await desk.page.getByRole('button', { name: 'Größere Schrift' }).waitFor()
    await desk.page.getByRole('button', { name: 'Akkorde' }).waitFor()
    await desk.page.getByRole('region', { name: 'Chart' }).waitFor()
    await checkA11y(desk.page, 'stage view (German)')
  })
})
