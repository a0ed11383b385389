import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { bigGig, contextFixture } from '#test/document-fixtures.js'
import {
  createTestApp, json, userClient, type Client, type Ok, type TestContext
} from '#test/helpers.js'
import { pdfInfo, pdfText } from '#test/pdf-tools.js'
import { renderSetlistPdf } from '#src/documents/setlist-pdf.js'

// The stage list is printed on an office printer and read from the floor.

const pageCount = (pdf: Buffer) => Number(/Pages:\s+(\d+)/.exec(pdfInfo(pdf))![1])

/** The mean grey (0 black … 255 white) of page 1, rendered small by poppler's pdftoppm. */
function meanGrey (pdf: Buffer): number {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '10', '-f', '1', '-l', '1', '-'], {
    input: pdf
  })
  // Binary PGM: "P5\n<w> <h>\n255\n" then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!
  const pixels = pgm.subarray(header[0].length)
  return pixels.reduce((sum, value) => sum + value, 0) / pixels.length
}

/** The height in pt of the word `word` as poppler lays it out (its font's ascent to descent). */
function wordHeight (pdf: Buffer, word: string): number {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-', '-'], {
    input: pdf
  }).toString('utf8')
  const match = new RegExp(`yMin="([\\d.]+)"[^>]*yMax="([\\d.]+)">${word}<`).exec(html)
  assert.ok(match, `${word} is on page 1`)
  return Number(match[2]) - Number(match[1])
}

test('stage list: black on white, 28 pt titles, one set per page; stage-dark stays', async () => {
  const doc = bigGig(3, 8)
  const stage = await renderSetlistPdf(doc, contextFixture(), 'stage')
  const dark = await renderSetlistPdf(doc, contextFixture(), 'stage-dark')
  const print = await renderSetlistPdf(doc, contextFixture(), 'print')

  assert.ok(meanGrey(stage) > 220, `stage page mostly white (mean grey ${meanGrey(stage)})`)
  assert.ok(meanGrey(dark) < 60, `stage-dark page mostly black (mean grey ${meanGrey(dark)})`)
  assert.ok(meanGrey(print) > 220, 'print page white')

  // Roboto's line box is ~1.17 × the size: a 28 pt title is at least 28 pt tall, the 13 pt
  // title of the print list is not.
  assert.ok(wordHeight(stage, 'Song') >= 28, `stage title ${wordHeight(stage, 'Song')} pt`)
  assert.ok(wordHeight(print, 'Song') < 20, 'print titles stay compact')

  // Three sets of eight: three pages, each set on its own.
  assert.equal(pageCount(stage), 3)
  assert.equal(pageCount(dark), 3)
  assert.match(pdfText(print).split('\f')[0]!, /Set 2/, 'the print list runs on, compact')
  const pages = pdfText(stage).split('\f')
  for (const [index, first, last] of [
    [0, 1, 8],
    [1, 9, 16],
    [2, 17, 24]
  ] as const) {
    assert.match(pages[index]!, new RegExp(`Set ${index + 1}`))
    assert.match(pages[index]!, new RegExp(`Song ${first}\\b`))
    assert.match(pages[index]!, new RegExp(`Song ${last}\\b`))
    for (const other of [0, 1, 2].filter((n) => n !== index)) {
      assert.doesNotMatch(pages[index]!, new RegExp(`Set ${other + 1}\\b`))
    }
  }
})

test('a set longer than a page continues on the next; the next set starts a new page', async () => {
  const stage = await renderSetlistPdf(bigGig(2, 24), contextFixture(), 'stage')
  const pages = pdfText(stage).split('\f').filter((page) => page.trim())
  assert.ok(pages.length >= 3, `${pages.length} pages`)
  const set2 = pages.findIndex((page) => /Set 2/.test(page))
  assert.ok(set2 >= 2, 'set 1 takes more than a page')
  assert.doesNotMatch(pages[set2]!, /Song 24\b/, 'set 2 starts on a fresh page')
})

let t: TestContext
let member: Client
let gigId: number
before(async () => {
  t = await createTestApp()
  member = await userClient(t.app, 'mia', 'member')
  const editor = await userClient(t.app, 'lena', 'editor')
  const song = json<Ok<'/songs', 'post'>>(
    await editor.post('/songs', { title: 'Proud Mary', status: 'ready' }))
  gigId = json<Ok<'/gigs', 'post'>>(
    await editor.post('/gigs', { name: 'Sommerfest', date: '2026-07-04' })).id
  const saved = await editor.put(`/gigs/${gigId}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: song.id }] }]
  })
  assert.equal(saved.statusCode, 200)
})
after(() => t.close())

test('PDFs open in the browser; ?download=true saves them', async () => {
  for (const path of ['setlist.pdf', 'setlist.pdf?style=stage', 'schedule.pdf']) {
    const opened = await member.get(`/gigs/${gigId}/${path}`)
    assert.equal(opened.statusCode, 200, path)
    assert.match(String(opened.headers['content-disposition']), /^inline; filename=/, path)
    const joiner = path.includes('?') ? '&' : '?'
    const saved = await member.get(`/gigs/${gigId}/${path}${joiner}download=true`)
    assert.equal(saved.statusCode, 200, path)
    assert.match(String(saved.headers['content-disposition']), /^attachment; filename=/, path)
  }
  const dark = await member.get(`/gigs/${gigId}/setlist.pdf?style=stage-dark`)
  assert.equal(dark.statusCode, 200)
  assert.match(String(dark.headers['content-disposition']), /Setlist-Buehne-2026-07-04/)
  assert.equal((await member.get(`/gigs/${gigId}/setlist.pdf?download=maybe`)).statusCode, 400)
  assert.equal((await member.get(`/gigs/${gigId}/schedule.pdf?download=2`)).statusCode, 400)
  assert.equal((await member.get('/gigs/99999/setlist.pdf?download=true')).statusCode, 404)
})
