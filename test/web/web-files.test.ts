import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bandInBrowser, EDITOR_PASSWORD } from '#test/browser/band-fixture.js'
import { checkA11y, chooseEnglish, logInAs, screenshot, WAIT } from '#test/browser/harness.js'
import { pdfFile, wavFile } from '#test/file-fixtures.js'

// The song page's files in Chromium: an editor uploads a recording with the file picker, the
// native player seeks in it (Range requests), a PDF opens in the page and downloads.
test('web app: an editor uploads a recording and a sheet; the player seeks', { timeout: 300_000 },
  async (t) => {
    const { band, app } = await bandInBrowser(t)
    const { page } = app
    await page.goto(`${band.base}/app/login`)
    await chooseEnglish(page)
    await logInAs(page, band.base, 'lena', EDITOR_PASSWORD)
    await page.goto(`${band.base}/app/songs/${band.proposal.id}`)
    await page.getByRole('heading', { name: 'Files' }).waitFor({ timeout: WAIT })

    const send = async (name: string, buffer: Buffer, mimeType: string, kind: string) => {
      await page.locator('input[type=file]').setInputFiles({ name, mimeType, buffer })
      await page.getByLabel('What is it?').selectOption(kind)
      await page.getByRole('button', { name: 'Upload' }).click()
      await page.getByText(`${name.replace(/\.[^.]+$/, '')}`, { exact: true }).first()
        .waitFor({ timeout: WAIT })
    }
    await send('Demo take.wav', wavFile(4), 'audio/wav', 'recording')
    const audio = page.locator('audio')
    await audio.waitFor({ timeout: WAIT })
    // Seeking: the browser asks for the part it needs (Range) and plays on from there.
    const seeked = await audio.evaluate(async (element: HTMLAudioElement) => {
      element.muted = true
      await new Promise((resolve) => {
        if (element.readyState >= 1) resolve(null)
        else element.addEventListener('loadedmetadata', resolve, { once: true })
      })
      const done = new Promise((resolve) => element.addEventListener('seeked', resolve,
        { once: true }))
      element.currentTime = 3
      await done
      return { time: element.currentTime, duration: element.duration }
    })
    assert.ok(Math.abs(seeked.time - 3) < 0.1, JSON.stringify(seeked))
    assert.ok(Math.abs(seeked.duration - 4) < 0.1, JSON.stringify(seeked))

    await send('Horn sheet.pdf', pdfFile('Horns'), 'application/pdf', 'sheet')
    // The PDF opens in the page (pdf.js), and downloads.
    await page.getByRole('button', { name: 'Open' }).click()
    await page.getByRole('img', { name: 'Horn sheet, page 1 of 1' }).waitFor()
    await page.locator('canvas[data-drawn]').waitFor()
    assert.equal(await page.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded'),
      'true')
    assert.equal(await page.getByRole('link', { name: 'Download' }).count(), 2)
    await checkA11y(page, 'song files')
    await screenshot(page, 'song-files-phone')
    app.assertClean()
  })
