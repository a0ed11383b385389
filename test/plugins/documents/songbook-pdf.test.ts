import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { parseCsv, pdfText } from '#test/export-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

const GERMAN = [
  '{title: Kein schöner Land}',
  '{start_of_chorus: Refrain}',
  '[D]Kein schöner [A7]Land in [D]dieser Zeit',
  '{end_of_chorus}',
  'als [H7]hier das [Em]unsre weit und breit',
  '{chorus}'
].join('\n')
const ENGLISH_IN_GERMAN_BAND = '[G]Amazing [C]grace, how [G]sweet the [D]sound'

test('GET /gigs/{id}/songbook.pdf: charts in running order, transposed, read back', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const land = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Kein schöner Land', key: 'D', tempoBpm: 88, leadSinger: 'Lena', chart: GERMAN
  })).id
  const grace = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Amazing Grace', key: 'G', chart: ENGLISH_IN_GERMAN_BAND
  })).id
  const none = insertSong(ctx.app, 'Instrumental')
  const gig = await createGig(editor, { name: 'Songbook Abend' })
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      { name: 'Set 1', entries: [{ songId: land }, { songId: grace, transpose: 2, capo: 3 }] },
      { name: 'Set 2', entries: [{ songId: none }] }
    ]
  })
  const res = await member.get(`/gigs/${gig.id}/songbook.pdf`)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'application/pdf')
  assert.match(String(res.headers['content-disposition']), /Songbook-2026-07-04-Songbook-Abend/)
  const text = pdfText(res.rawPayload)
  const pages = text.split('\f').filter((page) => page.trim() !== '')
  assert.equal(pages.length, 3, 'each song on a new page')
  const [first, second, third] = pages as [string, string, string]
  assert.match(first, /Kein schöner Land/)
  assert.match(first, /1\. Titel · Set 1 #1/)
  assert.match(first, /Tonart D-Dur/)
  assert.match(first, /88 BPM/)
  // German H stays H; the chorus label appears, also for the recalled chorus.
  assert.match(first, /\bH7\b/)
  assert.equal((first.match(/Refrain/g) ?? []).length, 2)
  // The chords stand in the line above their lyrics.
  const lines = first.split('\n')
  const lyric = lines.findIndex((l) => l.includes('Kein schöner Land in dieser Zeit'))
  assert.ok(lyric > 0, first)
  assert.match(lines[lyric - 1]!, /^\s*D\s+A7\s+D\s*$/)
  // Moved by 2 for this gig: G → A, C → D, D → E; key G-Dur → A-Dur; capo shown.
  assert.match(second, /Amazing Grace/)
  // With a capo: the key heard and the shapes the guitarist plays (A − 3 = F sharp).
  assert.match(second, /Klingt in A-Dur · Kapo 3 · Griffe Fis-Dur/)
  assert.match(second, /transponiert \+2/)
  const graceChords = second.split('\n').find((l) => /^\s*A\s+D\s+A\s+E\s*$/.test(l))
  assert.ok(graceChords, `transposed chords A D A E in:\n${second}`)
  assert.match(third, /Instrumental/)
  assert.match(third, /3\. Titel · Set 2 #1/)
  assert.match(third, /Kein Chart hinterlegt/)

  // The setlist CSV carries the same: transposition, capo and the chart (line breaks quoted).
  const rows = parseCsv((await member.get(`/gigs/${gig.id}/setlist.csv`)).rawPayload)
  assert.deepEqual(rows[0]!.slice(-3), ['Transponierung', 'Kapo', 'Chart'])
  assert.deepEqual(rows[1]!.slice(-3), ['0', '', GERMAN])
  assert.deepEqual(rows[2]!.slice(-3), ['2', '3', ENGLISH_IN_GERMAN_BAND])
  assert.deepEqual(rows[3]!.slice(-3), ['0', '', ''])

  assert.equal((await member.get('/gigs/9999/songbook.pdf')).statusCode, 404)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/songbook.pdf`)).statusCode, 401)
  assert.equal((await member.get('/gigs/x/songbook.pdf')).statusCode, 400)
})

test('GET /gigs/{id}/songbook.pdf: the labels follow the band\'s language', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const land = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Kein schöner Land',
    key: 'D',
    leadSinger: 'Lena',
    // A chorus without a label of its own: the document names it.
    chart: '{start_of_chorus}\n[D]Kein schöner [A7]Land\n{end_of_chorus}'
  })).id
  const none = insertSong(ctx.app, 'Instrumental')
  const gig = await createGig(editor, { name: 'Songbook Abend' })
  const empty = await createGig(editor, { name: 'Leer' })
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: land, transpose: -2, capo: 2 }, { songId: none }] }]
  })
  const pdf = async (locale: string, id = gig.id) => {
    const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
    assert.equal(saved.statusCode, 200, saved.body)
    const res = await editor.get(`/gigs/${id}/songbook.pdf`)
    assert.equal(res.statusCode, 200, res.body)
    return pdfText(res.rawPayload)
  }
  const english = await pdf('en-GB')
  for (const expected of [
    'Song 1 · Set 1 #1', 'Sounds in C · Capo 2 · Bb shapes', 'transposed -2', 'Vocals: Lena',
    'Chorus',
    'Song 2 · Set 1 #2', 'No chart yet.', 'Songbook · Page 1 / 2', 'Songbook · Page 2 / 2',
    'Sat 4 Jul 2026'
  ]) assert.ok(english.includes(expected), `English songbook has ${expected}:\n${english}`)
  assert.doesNotMatch(english, /Titel|Tonart|transponiert|Kapo|Gesang|Refrain|Kein Chart|Seite/)
  assert.match(await pdf('en-US', empty.id), /The setlist is empty\./)

  const german = await pdf('de-AT')
  for (const expected of [
    '1. Titel · Set 1 #1', 'Klingt in C-Dur · Kapo 2 · Griffe B-Dur', 'transponiert -2',
    'Gesang: Lena', 'Refrain',
    '2. Titel · Set 1 #2', 'Kein Chart hinterlegt.', 'Songbook · Seite 1 / 2',
    'Sa, 04.07.2026'
  ]) assert.ok(german.includes(expected), `German songbook has ${expected}:\n${german}`)
  assert.doesNotMatch(german, /Song \d|\bKey\b|transposed|Capo|Vocals|Chorus|No chart|Page/)
  assert.match(await pdf('de-DE', empty.id), /Die Setlist ist leer\./)
})

test('GET /songs/{id}/chart.cho: the chart as stored, 404 without one', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const id = json<Ok<'/songs', 'post'>>(
    await editor.post('/songs', { title: 'Grüße', chart: `${GERMAN}\r\n` })).id
  const res = await member.get(`/songs/${id}/chart.cho`)
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, `${GERMAN}\r\n`)
  assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/)
  assert.match(String(res.headers['content-disposition']), /attachment; .*Gr%C3%BC%C3%9Fe\.cho/)
  const bare = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Bare' })).id
  assert.equal((await member.get(`/songs/${bare}/chart.cho`)).statusCode, 404)
  assert.equal((await member.get('/songs/9999/chart.cho')).statusCode, 404)
  assert.equal((await anonymous(ctx.app).get(`/songs/${id}/chart.cho`)).statusCode, 401)
})
