import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, json, userClient, type ErrorResponseBody, type Ok } from '#test/helpers.js'
import { createGig } from '#test/gig-fixtures.js'
import { pdfText } from '#test/export-fixtures.js'
import { renderSongbookPdf, type SongbookDocument } from '#src/documents/songbook-pdf.js'
import { wordsOf } from '#src/documents/songbook-lines.js'
import { parseLyricLine } from '#shared/chords/chordpro.js'
import type { GigChartType } from '#schemas/charts.js'

// The songbook read from a music stand: words under chords never split, sections kept together,
// a column break never a page, and a large print.

const SPLIT_WORDS = [
  '{key: D}',
  '{start_of_verse: Verse 1}',
  'Swing low, sweet [G]chari[D]ot, [A7]coming for to [D]carry me home',
  '[Am7]A[D7]bout the [C]Mus[Cmaj7]sels and [G]an[D]d the [Esus4]rest',
  'A [Dsus2]very long line of words that has to wrap on the page [G]somewhere after ' +
    'the [A]middle of it, and [D]then some more [G]words for the [A]end',
  '{end_of_verse}',
  '{colb}',
  '{column_break}',
  '{start_of_chorus}',
  '[D]Swing [G]low [*Rit.]slowly',
  '{end_of_chorus}',
  '{c: Solo}',
  '{sot}',
  'e|--3--5--|',
  '{eot}'
].join('\n')

const ctx = {
  bandName: 'Stand Band', timezone: 'Europe/Berlin', generatedAt: new Date(), locale: 'en-GB'
}

type EntryWithChart = GigChartType & { chart: string }

const entry = (chart: string, position = 1): EntryWithChart => ({
  entryId: position,
  position,
  setId: 1,
  setName: 'Set 1',
  positionInSet: position,
  status: 'planned',
  transpose: 0,
  capo: null,
  song: {
    id: position,
    title: `Song ${position}`,
    artist: null,
    key: 'D',
    keyTransposed: 'D',
    tempoBpm: null,
    leadSinger: null
  },
  chart
})

const book = (charts: EntryWithChart[], print: SongbookDocument['print'] = 'normal') =>
  ({
    gig: { name: 'Stand Night', date: '2026-07-04' },
    notation: 'english',
    charts,
    songs: charts.map((c) => ({ id: c.song.id, chart: c.chart })),
    print
  }) as SongbookDocument

const pagesOf = (text: string) => text.split('\f').filter((page) => page.trim() !== '')
const words = (text: string) => new Set(text.split(/[\s\u00a0]+/).map((w) => w.replace(/[,.]$/, '')))

test('words under chords stay whole; a column break is no page', async () => {
  for (const print of ['normal', 'large'] as const) {
    const text = pdfText(await renderSongbookPdf(book([entry(SPLIT_WORDS)], print), ctx))
    const found = words(text)
    for (const word of ['chariot', 'About', 'Mussels', 'and', 'carry', 'somewhere', 'middle']) {
      assert.ok(found.has(word), `${print}: "${word}" whole in:\n${text}`)
    }
    for (const broken of ['chari', 'Mus', 'sels', 'an']) {
      assert.ok(!found.has(broken), `${print}: no "${broken}" in:\n${text}`)
    }
    assert.equal(pagesOf(text).length, 1, `${print}: {colb} and {column_break} break no page`)
  }
})

test('a capo on an unreadable key; {new_page} still breaks the page', async () => {
  const odd = { ...entry('[G]One\n{new_page}\n[C]Two'), capo: 2 }
  odd.song = { ...odd.song, key: 'X7', keyTransposed: 'X7' }
  const text = pdfText(await renderSongbookPdf(book([odd]), ctx))
  assert.match(text, /X7 · Capo 2/)
  assert.equal(pagesOf(text).length, 2)
})

test('a word with chords inside it is one block; a chord alone starts a word', () => {
  const texts = (line: string) =>
    wordsOf(parseLyricLine(line)).map((word) => word.map((s) => s.text).join(''))
  assert.deepEqual(texts('sweet [G]chari[D]ot, [A7]coming'), ['sweet ', 'chariot, ', 'coming'])
  assert.deepEqual(texts('[G][C]Hey you'), ['Hey ', 'you'])
  assert.deepEqual(texts('end [D]'), ['end ', ''])
})

test('large print: 17 pt lyrics, bold chords; sections kept together across pages', async () => {
  // Sections of seven lines: at 17 pt a page holds about 20 rows, so sections meet page ends.
  const section = (n: number) => [
    `{start_of_verse: Part ${n}}`,
    ...Array.from({ length: 7 }, (_, i) => `[G]Line ${i + 1} of [C]part ${n} with [D]words`),
    '{end_of_verse}'
  ].join('\n')
  const chart = Array.from({ length: 12 }, (_, i) => section(i + 1)).join('\n')
  const normal = pagesOf(pdfText(await renderSongbookPdf(book([entry(chart)]), ctx)))
  const large = pagesOf(pdfText(await renderSongbookPdf(book([entry(chart)], 'large'), ctx)))
  assert.ok(large.length > normal.length, `${large.length} large pages, ${normal.length} normal`)
  for (const pages of [normal, large]) {
    pages.forEach((page, i) => {
      const lines = page.split('\n').map((l) => l.trim()).filter((l) => /^Line|^Part|^G /.test(l))
      const lyrics = lines.filter((l) => l.startsWith('Line'))
      // Never a section's label at the foot of a page, never one line of it alone on a page.
      assert.ok(!lines.at(-1)?.startsWith('Part'), `page ${i + 1} ends with a label:\n${page}`)
      assert.ok(lyrics.length >= 2, `page ${i + 1} has ${lyrics.length} lyric lines:\n${page}`)
      const first = lyrics[0] ?? ''
      // A page that starts inside a section starts with at least two of its lines (not its last).
      assert.ok(!first.startsWith('Line 7') || lyrics.length > 1, page)
    })
  }
})

test('GET /gigs/{id}/songbook.pdf?print=large: a larger print; a bad print is a 400', async (t) => {
  const test = await createTestApp()
  t.after(() => test.close())
  const editor = await userClient(test.app, 'eddie', 'editor')
  const song = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Swing Low', key: 'D', chart: SPLIT_WORDS
  })).id
  const gig = await createGig(editor, { name: 'Stand Night' })
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0, sets: [{ name: 'Set 1', entries: [{ songId: song }] }]
  })
  const normal = await editor.get(`/gigs/${gig.id}/songbook.pdf`)
  const large = await editor.get(`/gigs/${gig.id}/songbook.pdf?print=large&download=true`)
  assert.equal(large.statusCode, 200)
  assert.match(String(large.headers['content-disposition']), /attachment; .*Songbook-large-/)
  assert.notDeepEqual(large.rawPayload, normal.rawPayload)
  assert.ok(words(pdfText(large.rawPayload)).has('chariot'))
  const bad = await editor.get(`/gigs/${gig.id}/songbook.pdf?print=huge`)
  assert.equal(bad.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(bad).code, 'VALIDATION_ERROR')
})
