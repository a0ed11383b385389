import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import XLSX from 'xlsx'
import { runCli } from '#src/cli.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { songs } from '#src/db/schema.js'
import {
  anonymous, createTestApp, json, userClient, type Client, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { pdfText } from '#test/pdf-tools.js'

test('songs take canonical keys only: a bad key is a clear 400 with a suggestion', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const created = await editor.post('/songs', { title: 'Loreley', key: 'Bb' })
  assert.equal(created.statusCode, 201, created.body)
  const song = json<Ok<'/songs', 'post'>>(created)
  assert.equal(song.key, 'Bb')
  assert.equal(song.keyText, null)
  for (const [key, hint] of [['B-Dur', 'Bb'], ['fis-Moll', 'F#m'], ['H', 'B'], ['X7', null]]) {
    const res = await editor.patch(`/songs/${song.id}`, { key })
    assert.equal(res.statusCode, 400, `${key}: ${res.body}`)
    const body = json<ErrorResponseBody>(res)
    assert.equal(body.code, 'INVALID_KEY')
    assert.match(body.message, /e\.g\. "Bb" or "Gm"/)
    if (hint) assert.ok(body.message.includes(`did you mean "${hint}"?`), body.message)
    else assert.doesNotMatch(body.message, /did you mean/)
  }
  assert.equal(
    json<Ok<'/songs/{id}', 'get'>>(await editor.get(`/songs/${song.id}`)).key,
    'Bb',
    'nothing half-written'
  )
  assert.equal((await editor.post('/songs', { title: 'X', key: '' })).statusCode, 400)
  assert.equal((await editor.post('/songs', { title: 'X', key: 'Bbb' })).statusCode, 400)
  assert.equal((await editor.patch(`/songs/${song.id}`, { key: 'Gm' })).statusCode, 200)
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(await member.get(`/songs/${song.id}`)).key, 'Gm')
  assert.equal((await anonymous(ctx.app).patch(`/songs/${song.id}`, { key: 'C' })).statusCode, 401)
  assert.equal((await member.patch(`/songs/${song.id}`, { key: 'C' })).statusCode, 403)
  assert.equal((await editor.patch('/songs/999999', { key: 'C' })).statusCode, 404)
  // The public configuration lists every key the API accepts.
  const config = json<Ok<'/public/app_config', 'get'>>(
    await anonymous(ctx.app).get('/public/app_config')
  )
  assert.equal(config.keys.length, 34)
  assert.ok(config.keys.includes('F#m') && config.keys.includes('Db'))
})

test('an old key that could not be read is shown as written until a key is chosen', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const stamp = ctx.app.clock().toISOString()
  const id = ctx.app.db.insert(songs)
    .values({ title: 'Medley', keyText: 'wechselnd', createdAt: stamp, updatedAt: stamp })
    .returning({ id: songs.id }).get().id
  const before = json<Ok<'/songs/{id}', 'get'>>(await editor.get(`/songs/${id}`))
  assert.deepEqual([before.key, before.keyText], [null, 'wechselnd'])
  const gig = await createGig(editor)
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0, sets: [{ name: 'Set 1', entries: [{ songId: id }] }]
  })
  const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
  assert.equal(setlist.sets[0]!.entries[0]!.song!.key, 'wechselnd')
  const after = json<Ok<'/songs/{id}', 'patch'>>(await editor.patch(`/songs/${id}`, { key: 'D' }))
  assert.deepEqual([after.key, after.keyText], ['D', null])
})

async function bandIn (locale: string, t: { after (fn: () => unknown): void }) {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const saved = await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale })
  assert.equal(saved.statusCode, 200, saved.body)
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const ids = [
    insertSong(ctx.app, 'Loreley', { key: 'Bb', leadSinger: 'Lena' }),
    insertSong(ctx.app, 'Disco', { key: 'Gm' }),
    insertSong(ctx.app, 'Neonlicht', { key: 'F#m' }),
    insertSong(ctx.app, 'Proberaum', { key: 'B' })
  ]
  const gig = await createGig(editor)
  const put = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: ids.map((songId) => ({ songId })) }]
  })
  assert.equal(put.statusCode, 200, put.body)
  return { editor, gig }
}

const documents = async (editor: Client, gigId: number) => ({
  print: pdfText((await editor.get(`/gigs/${gigId}/setlist.pdf`)).rawPayload),
  stage: pdfText((await editor.get(`/gigs/${gigId}/setlist.pdf?style=stage`)).rawPayload),
  text: (await editor.get(`/gigs/${gigId}/setlist.txt`)).body,
  csv: (await editor.get(`/gigs/${gigId}/setlist.csv`)).body,
  gema: XLSX.utils.sheet_to_json<Array<string | number>>(
    XLSX.read((await editor.get(`/gigs/${gigId}/gema`)).rawPayload, { type: 'buffer' })
      .Sheets['Titelliste']!,
    { header: 1, defval: '' }
  )
})

test('documents show keys in the band\'s language: German', async (t) => {
  const { editor, gig } = await bandIn('de-DE', t)
  const docs = await documents(editor, gig.id)
  for (const text of [docs.print, docs.stage]) {
    for (const key of ['B-Dur', 'g-Moll', 'fis-Moll', 'H-Dur']) assert.match(text, new RegExp(key))
    assert.doesNotMatch(text, /\bBb\b|\bGm\b|F#m/)
  }
  assert.match(docs.text, /Loreley – Test Artist {2}\[B-Dur, Lena\]/)
  assert.match(docs.text, /Proberaum – Test Artist {2}\[H-Dur\]/)
  assert.match(docs.csv, /;Loreley;Test Artist;B-Dur;Lena;/)
  assertNoKeyInGema(docs.gema)
})

test('documents show keys in the band\'s language: English', async (t) => {
  const { editor, gig } = await bandIn('en-GB', t)
  const docs = await documents(editor, gig.id)
  for (const text of [docs.print, docs.stage]) {
    // The PDF font has no ♭/♯: ASCII signs, short forms as in a chart.
    for (const key of ['Bb', 'Gm', 'F#m']) {
      assert.match(text, new RegExp(`(^|\\s)${key}(\\s|$)`, 'm'))
    }
    assert.doesNotMatch(text, /-Dur|-Moll/)
  }
  assert.match(docs.text, /Loreley – Test Artist {2}\[B♭, Lena\]/)
  assert.match(docs.text, /Disco – Test Artist {2}\[Gm\]/)
  assert.match(docs.csv, /;Loreley;Test Artist;B♭;Lena;/)
  assertNoKeyInGema(docs.gema)
})

/** GEMA's Musikfolge has no key column: the key appears in no cell in any spelling. */
function assertNoKeyInGema (rows: Array<Array<string | number>>) {
  const heading = rows.findIndex((r) => r[0] === 'Werknummer')
  assert.ok(heading > 0)
  const works = rows.slice(heading + 1)
  assert.deepEqual(works.map((r) => r[1]), ['Loreley', 'Disco', 'Neonlicht', 'Proberaum'])
  const cells = works.flat().map(String)
  assert.ok(!cells.some((c) => /^(Bb|B♭|B-Dur|Gm|g-Moll|F#m|fis-Moll)$/.test(c)), cells.join('|'))
}

test('bandstand doctor lists the songs whose old key could not be read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-doctor-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const env = { DATA_DIR: dir }
  const lines: string[] = []
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) }
  assert.equal(await runCli(['db:migrate'], env, io), 0)
  assert.equal(await runCli(['doctor'], env, io), 0)
  assert.equal(lines.at(-1), 'no problems found')
  const sqlite = new Database(join(dir, 'bandstand.db'))
  sqlite.prepare(
    "INSERT INTO songs (title, key, key_text, created_at, updated_at) VALUES (?, ?, ?, 'x', 'x')"
  ).run('Medley\nzwei', null, 'C-Dur/a-Moll')
  sqlite.prepare(
    "INSERT INTO songs (title, key, key_text, created_at, updated_at) VALUES (?, ?, ?, 'x', 'x')"
  ).run('Fine', 'C', null)
  sqlite.close()
  lines.length = 0
  assert.equal(await runCli(['doctor'], env, io), 1)
  assert.match(lines[0]!, /^1 song has a key that could not be read/)
  assert.deepEqual(lines.slice(1), ['  #1  Medley zwei  key "C-Dur/a-Moll"'])
})
