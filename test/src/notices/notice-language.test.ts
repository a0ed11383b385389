import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

// The chat notices speak the band's language: English for an English band,
// German exactly as before for a German one. The band's data is neutral here, so a word of the
// other language found in a notice can only be one of our labels.

const GERMAN = [
  'Neuer', 'Neue', 'Songvorschlag', 'von', 'bitte', 'abstimmen', 'Vorschlag', 'angenommen',
  'Auftritt', 'bestätigt', 'abgesagt', 'veröffentlicht', 'aktualisiert', 'Titel', 'Umfrage'
]
const ENGLISH = [
  'New', 'song', 'songs', 'proposal', 'Proposal', 'from', 'please', 'vote', 'accepted', 'gig',
  'Gig', 'confirmed', 'cancelled', 'published', 'updated', 'set', 'sets', 'survey'
]
const GERMAN_DATE = /\b(So|Mo|Di|Mi|Do|Fr|Sa), \d\d\.\d\d\.\d{4}\b/
const ENGLISH_DATE = /\b(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} [A-Z][a-z]{2} \d{4}\b/

const wordsIn = (text: string, words: string[]) =>
  words.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(text))

/** Every kind of notice, caused through the API by a band in `locale`; the texts received. */
async function noticesOf (locale: string, t: TestContext) {
  const texts: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      texts.push((JSON.parse(body) as { text: string }).text)
      res.end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  const ctx = await createTestApp({}, {
    NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/x`,
    PUBLIC_URL: 'https://band.example.org'
  })
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
  assert.equal(saved.statusCode, 200, saved.body)
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')

  const idea = json<Ok<'/songs', 'post'>>(
    await mia.post('/songs', { title: 'Ozean', artist: 'Kato' }))
  await editor.patch(`/songs/${idea.id}`, { status: 'accepted' })
  const gig = await createGig(editor, {
    name: 'Nordlicht',
    date: '2026-07-04',
    startTime: '20:00',
    venue: { name: 'Halle 5', city: 'Bremen' }
  })
  await editor.patch(`/gigs/${gig.id}`, { status: 'confirmed' })
  const songs = insertSongs(ctx.app, 3)
  const setlist = await putSetlist(editor, gig.id, [[songs[0]!, songs[1]!], [songs[2]!]])
  await editor.post(`/gigs/${gig.id}/setlist/publish`, { version: setlist.version })
  const changed = await putSetlist(editor, gig.id, [[songs[0]!]], setlist.version)
  await editor.post(`/gigs/${gig.id}/setlist/publish`, { version: changed.version })
  const survey = json<Ok<'/surveys', 'post'>>(await mia.post('/surveys', {
    title: 'Shirts?',
    kind: 'poll',
    options: [{ label: 'A' }, { label: 'B' }]
  }))
  await editor.patch(`/gigs/${gig.id}`, { status: 'cancelled' })
  await ctx.app.notifier!.idle()
  return { texts, song: idea.id, gig: gig.id as number, survey: survey.id }
}

test('chat notices of an English band (en-GB) are English', async (t) => {
  const { texts, song, gig, survey } = await noticesOf('en-GB', t)
  const base = 'https://band.example.org/app'
  const line = '“Nordlicht” · Sat 4 Jul 2026 20:00 · Halle 5, Bremen'
  assert.deepEqual(texts, [
    `🎵 New song proposal from Mia: “Ozean” (Kato) – please vote.\n${base}/songs/${song}`,
    `✅ Proposal accepted: “Ozean” (Kato)\n${base}/songs/${song}`,
    `📅 New gig: ${line}\n${base}/gigs/${gig}`,
    `🎉 Gig confirmed: ${line}\n${base}/gigs/${gig}`,
    `📋 Setlist published: ${line} – 3 songs in 2 sets\n${base}/gigs/${gig}`,
    `📋 Setlist updated: ${line} – 1 song in 1 set\n${base}/gigs/${gig}`,
    `🗳️ New survey from Mia: “Shirts?”\n${base}/surveys/${survey}`,
    `❌ Gig cancelled: ${line}\n${base}/gigs/${gig}`
  ])
  // (the link's path is the web app's, English in every language: only the message is checked)
  for (const text of texts.map((t) => t.split('\n')[0]!)) {
    assert.deepEqual(wordsIn(text, GERMAN), [], text)
    assert.doesNotMatch(text, GERMAN_DATE)
    // German quotes „…“: “ opens an English quote, after a space; it closes a German one
    assert.doesNotMatch(text, /„|\S“/, 'German quotes')
  }
})

test('chat notices of a German band (de-DE) are German, as before', async (t) => {
  const { texts, song, gig, survey } = await noticesOf('de-DE', t)
  const base = 'https://band.example.org/app'
  const line = '„Nordlicht“ · Sa, 04.07.2026 20:00 · Halle 5, Bremen'
  assert.deepEqual(texts, [
    `🎵 Neuer Songvorschlag von Mia: „Ozean“ (Kato) – bitte abstimmen.\n${base}/songs/${song}`,
    `✅ Vorschlag angenommen: „Ozean“ (Kato)\n${base}/songs/${song}`,
    `📅 Neuer Auftritt: ${line}\n${base}/gigs/${gig}`,
    `🎉 Auftritt bestätigt: ${line}\n${base}/gigs/${gig}`,
    `📋 Setlist veröffentlicht: ${line} – 3 Titel in 2 Sets\n${base}/gigs/${gig}`,
    `📋 Setlist aktualisiert: ${line} – 1 Titel in 1 Set\n${base}/gigs/${gig}`,
    `🗳️ Neue Umfrage von Mia: „Shirts?“\n${base}/surveys/${survey}`,
    `❌ Auftritt abgesagt: ${line}\n${base}/gigs/${gig}`
  ])
  for (const text of texts.map((t) => t.split('\n')[0]!)) {
    assert.deepEqual(wordsIn(text, ENGLISH), [], text)
    assert.doesNotMatch(text, ENGLISH_DATE)
    assert.doesNotMatch(text, /”/, 'English quotes')
  }
})

test('a change of the band\'s language applies to the next notice', async (t) => {
  const texts: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      texts.push((JSON.parse(body) as { text: string }).text)
      res.end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  const ctx = await createTestApp({}, { NOTIFY_WEBHOOK_URL: `http://127.0.0.1:${port}/x` })
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  for (const locale of ['en-GB', 'de-AT', 'en-US']) {
    const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
    assert.equal(saved.statusCode, 200, saved.body)
    await editor.post('/gigs', { name: 'Fest', date: '2026-07-04' })
  }
  await ctx.app.notifier!.idle()
  assert.deepEqual(texts, [
    '📅 New gig: “Fest” · Sat 4 Jul 2026',
    '📅 Neuer Auftritt: „Fest“ · Sa, 04.07.2026',
    '📅 New gig: “Fest” · Sat 4 Jul 2026'
  ])
})
