import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import { anonymous, createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { pdfText, pdfTitle } from '#test/export-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { songs as songsTable } from '#src/db/schema.js'

// The gig documents through the API in the band's language: file names, words, dates. The GEMA
// report stays German for every band (GEMA is the German collecting society).

const GERMAN_LABELS =
  /Datum|Veranstalter|Beginn|Einlass|\bEnde\b|Notizen|geplant|Live-Protokoll|Seite|Gesamt|Titel|Pause|Stammdaten|Ablauf|Erstellt|Anfrage|ausgelassen|eingefügt|Zeiten ab/
const ENGLISH_LABELS =
  /\bDate\b|Organizer|\bStart\b|Doors|\bEnd\b|\bNotes\b|planned|Live record|\bPage\b|Total|\bsongs?\b|Break|Details|Timeline|Running order|Generated|Inquiry|skipped|added|times from/

test('gig and repertoire PDFs: English band gets English words and file names', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'ada', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const songs = [insertSong(ctx.app, 'Nordlicht'), insertSong(ctx.app, 'Hafen')]
  const gig = await createGig(editor, {
    name: 'Gig Nord',
    kind: 'Festival',
    venue: { name: 'Kulturhalle' },
    doorsTime: '19:00',
    endTime: '23:00'
  })
  await putSetlist(editor, gig.id, [[songs[0]!], [songs[1]!]])
  const list = json<Ok<'/repertoire', 'post'>>(await editor.post('/repertoire', {
    name: 'Programm Nord',
    sets: [{ name: 'Set 1', entries: [{ songId: songs[0] }] }]
  }))

  const documents = async (locale: string) => {
    const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
    assert.equal(saved.statusCode, 200, saved.body)
    const files: Record<string, { name: string, text: string, title: string }> = {}
    for (const [key, url] of [
      ['setlist', `/gigs/${gig.id}/setlist.pdf`],
      ['stage', `/gigs/${gig.id}/setlist.pdf?style=stage`],
      ['dark', `/gigs/${gig.id}/setlist.pdf?style=stage-dark`],
      ['schedule', `/gigs/${gig.id}/schedule.pdf`],
      ['repertoire', `/repertoire/${list.id}/setlist.pdf?style=stage`]
    ] as const) {
      const res = await member.get(url)
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      const name = /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))![1]!
      files[key] = { name, text: pdfText(res.rawPayload), title: pdfTitle(res.rawPayload) ?? '' }
    }
    const gema = await member.get(`/gigs/${gig.id}/gema`)
    assert.equal(gema.statusCode, 200)
    return { files, gema }
  }

  const english = await documents('en-GB')
  assert.deepEqual(
    Object.fromEntries(Object.entries(english.files).map(([key, file]) => [key, file.name])),
    {
      setlist: 'Setlist-2026-07-04-Gig-Nord.pdf',
      stage: 'Setlist-stage-2026-07-04-Gig-Nord.pdf',
      dark: 'Setlist-stage-2026-07-04-Gig-Nord.pdf',
      schedule: 'Running-order-2026-07-04-Gig-Nord.pdf',
      repertoire: 'Setlist-stage-Programm-Nord.pdf'
    }
  )
  const { setlist, schedule, repertoire } = english.files
  assert.match(setlist!.text, /Sat 4 Jul 2026 · Kulturhalle · Start 20:00/)
  assert.match(setlist!.text, /Break 10 min/)
  assert.match(setlist!.text, /Page 1 of 1/)
  assert.equal(setlist!.title, 'Setlist – Gig Nord – Sat 4 Jul 2026')
  assert.match(schedule!.text, /Kind\s+Festival/)
  assert.match(schedule!.text, /Status\s+Inquiry/)
  assert.match(schedule!.text, /Doors\s+19:00/)
  assert.equal(schedule!.title, 'Running order – Gig Nord – Sat 4 Jul 2026')
  assert.match(repertoire!.text, /Repertoire setlist · 1 set · \d+ min \(times from the start\)/)
  for (const [key, file] of Object.entries(english.files)) {
    assert.doesNotMatch(`${file.text}\n${file.title}`, GERMAN_LABELS, `English ${key} PDF`)
  }
  // GEMA's report is German for every band, its file name too.
  assert.match(String(english.gema.headers['content-disposition']), /filename="GEMA-2026-07-04-/)
  const sheet = XLSX.read(english.gema.rawPayload, { type: 'buffer' }).Sheets['Titelliste']!
  assert.equal(sheet.A1?.v, 'GEMA Musikfolge – Titelliste')

  const german = await documents('de-DE')
  assert.deepEqual(
    Object.fromEntries(Object.entries(german.files).map(([key, file]) => [key, file.name])),
    {
      setlist: 'Setlist-2026-07-04-Gig-Nord.pdf',
      stage: 'Setlist-Buehne-2026-07-04-Gig-Nord.pdf',
      dark: 'Setlist-Buehne-2026-07-04-Gig-Nord.pdf',
      schedule: 'Ablaufplan-2026-07-04-Gig-Nord.pdf',
      repertoire: 'Setlist-Buehne-Programm-Nord.pdf'
    }
  )
  assert.match(german.files.setlist!.text, /Sa, 04\.07\.2026 · Kulturhalle · Beginn 20:00/)
  assert.match(german.files.schedule!.text, /Status\s+Anfrage/)
  assert.match(german.files.schedule!.text, /Einlass\s+19:00/)
  assert.match(german.files.repertoire!.text, /Repertoire-Setlist · 1 Set · \d+ min \(Zeiten ab/)
  for (const [key, file] of Object.entries(german.files)) {
    assert.doesNotMatch(`${file.text}\n${file.title}`, ENGLISH_LABELS, `German ${key} PDF`)
  }
  assert.match(String(german.gema.headers['content-disposition']), /filename="GEMA-2026-07-04-/)

  // The routes' refusals are unchanged by the language.
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/schedule.pdf`)).statusCode, 401)
  assert.equal((await member.get('/gigs/9999/schedule.pdf')).statusCode, 404)
  assert.equal((await member.get(`/gigs/${gig.id}/setlist.pdf?style=neon`)).statusCode, 400)
})

test('setlist .txt and .csv (gig and repertoire) follow the band\'s locale', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'ada', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const songs = [insertSong(ctx.app, 'Nordlicht'), insertSong(ctx.app, 'Hafen')]
  // The fixture's artist ("Test Artist") would read as an English label.
  ctx.app.db.update(songsTable).set({ artist: 'Jo Kim' }).run()
  const gig = await createGig(editor, { name: 'Gig Nord', venue: { name: 'Kulturhalle' } })
  await putSetlist(editor, gig.id, [[songs[0]!], [songs[1]!]])
  const list = json<Ok<'/repertoire', 'post'>>(await editor.post('/repertoire', {
    name: 'Programm Nord',
    sets: [{ name: 'Set 1', entries: [{ songId: songs[0] }] }]
  }))
  const exports = async (locale: string) => {
    const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
    assert.equal(saved.statusCode, 200, saved.body)
    const body = async (url: string) => {
      const res = await member.get(url)
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      return res.body.replace(/^\uFEFF/, '')
    }
    return {
      text: await body(`/gigs/${gig.id}/setlist.txt`),
      csv: await body(`/gigs/${gig.id}/setlist.csv`),
      repertoire: await body(`/repertoire/${list.id}/setlist.csv`)
    }
  }

  const english = await exports('en-GB')
  assert.match(english.text, /^Gig Nord\nSat 4 Jul 2026 · Kulturhalle · Start 20:00\n/)
  assert.match(english.text, /\(\d+ min, 1 song\)/)
  assert.match(english.text, /Break 10 min/)
  assert.match(english.text, /Total: .* · 2 songs in 2 sets\n$/)
  for (const csv of [english.csv, english.repertoire]) {
    assert.match(csv, /^Set;No\.;Start;Title;Artist;Key;Vocals;Length;Notes;Status;Added;/)
    assert.match(csv, /;planned;/)
  }
  for (const [key, text] of Object.entries(english)) {
    assert.doesNotMatch(text, GERMAN_TEXT_LABELS, `English ${key}`)
  }

  const german = await exports('de-DE')
  assert.match(german.text, /^Gig Nord\nSa, 04\.07\.2026 · Kulturhalle · Beginn 20:00\n/)
  assert.match(german.text, /\(\d+ min, 1 Titel\)/)
  assert.match(german.text, /Pause 10 min/)
  assert.match(german.text, /Gesamt: .* · 2 Titel in 2 Sets\n$/)
  for (const csv of [german.csv, german.repertoire]) {
    assert.match(csv, /^Set;Nr\.;Beginn;Titel;Interpret;Tonart;Gesang;Dauer;Notizen;Status;/)
    assert.match(csv, /;geplant;/)
  }
  for (const [key, text] of Object.entries(german)) {
    assert.doesNotMatch(text, ENGLISH_TEXT_LABELS, `German ${key}`)
  }
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/setlist.txt`)).statusCode, 401)
  assert.equal((await member.get('/gigs/9999/setlist.txt')).statusCode, 404)
})

/** The plain text's and the CSV's own words (the songs' and the gig's data are neither). */
const GERMAN_TEXT_LABELS =
  /Beginn|geplant|Titel|ausgelassen|eingefügt|Noch keine|Pause|Gesamt|Nr\.|Interpret|Tonart|Gesang|Dauer|Notizen|Bewertung|Transponierung|Kapo/
const ENGLISH_TEXT_LABELS =
  /\bStart\b|planned|\bsongs?\b|skipped|added|No setlist|Break|Total|\bNo\.|Title|Artist|\bKey\b|Vocals|Length|\bNotes\b|Rating|Transpose|Capo/
