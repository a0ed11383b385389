import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  countStatements,
  createTestApp,
  json,
  userClient,
  type Client,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { parseCsv, pdfText, pdfTitle } from '#test/export-fixtures.js'
import { repertoireSetlists } from '#src/db/schema.js'
import { MAX_REPERTOIRE_SETLISTS } from '#schemas/repertoire.js'
import { MAX_SETS } from '#schemas/setlists.js'

// Song entries only: a free-text entry (song null) has no song title.
const titles = (sets: Array<{ entries: Array<{ song: { title: string } | null }> }>) =>
  sets.map((s) => s.entries.map((e) => e.song!.title))

async function createList (editor: Client, body: Record<string, unknown>): Promise<any> {
  const res = await editor.post('/repertoire', body)
  assert.equal(res.statusCode, 201, res.body)
  return json<Ok<'/repertoire', 'post'>>(res)
}

test('repertoire setlists: create, read, edit with the gig setlist rules, delete', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const [a, b, c] = insertSongs(ctx.app, 3)
  const retired = insertSong(ctx.app, 'Old Hit', { status: 'retired' })

  const list = await createList(editor, {
    name: ' Standardprogramm ',
    notes: 'für Stadtfeste',
    sets: [
      { name: 'Set 1', breakAfterSeconds: 900, entries: [{ songId: a }, { songId: b }] },
      { name: 'Zugabe', entries: [{ songId: c, notes: 'langsam', durationSeconds: 300 }] }
    ]
  })
  assert.equal(list.name, 'Standardprogramm')
  assert.equal(list.version, 1)
  assert.deepEqual(titles(list.sets), [['Song 001', 'Song 002'], ['Song 003']])
  // elapsed time from 00:00: two songs of 200 s plus 30 s gaps, a 15-minute break
  assert.equal(list.sets[0].start, '00:00')
  assert.equal(list.sets[1].start, '00:22')
  assert.equal(list.sets[1].entries[0].customDurationSeconds, 300)
  assert.equal(list.totalSeconds, 2 * 230 + 900 + 330)

  const summaries = json<Ok<'/repertoire', 'get'>>(await mia.get('/repertoire'))
  assert.deepEqual(
    summaries.map((s: any) => [s.name, s.setCount, s.songCount, s.totalSeconds]),
    [['Standardprogramm', 2, 3, list.totalSeconds]]
  )
  assert.deepEqual(json<Ok<'/repertoire/{id}', 'get'>>(
    await mia.get(`/repertoire/${list.id}`)), list)

  // the gig setlist's rules: ids keep rows, stale versions conflict, foreign ids are refused
  const edited = await editor.put(`/repertoire/${list.id}/setlist`, {
    version: list.version,
    sets: [
      {
        id: list.sets[0].id,
        name: 'Erster Set',
        entries: [{ id: list.sets[0].entries[1].id, songId: b }, { songId: c }]
      }
    ]
  })
  assert.equal(edited.statusCode, 200, edited.body)
  const v2 = json<Ok<'/repertoire/{id}/setlist', 'put'>>(edited)
  assert.equal(v2.version, 2)
  assert.equal(v2.sets[0]!.id, list.sets[0].id)
  assert.equal(v2.sets[0]!.entries[0]!.id, list.sets[0].entries[1].id)
  assert.deepEqual(titles(v2.sets), [['Song 002', 'Song 003']])
  const stale = await editor.put(`/repertoire/${list.id}/setlist`, { version: 1, sets: [] })
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'SETLIST_VERSION_CONFLICT')
  assert.deepEqual(json<ErrorResponseBody & { current: unknown }>(stale).current, v2)

  const other = await createList(editor, { name: 'Hochzeit', sets: [{ name: 'S', entries: [] }] })
  const foreign = await editor.put(`/repertoire/${list.id}/setlist`, {
    version: 2,
    sets: [{ id: other.sets[0].id, name: 'x', entries: [] }]
  })
  assert.equal(json<ErrorResponseBody>(foreign).code, 'SET_NOT_IN_REPERTOIRE')
  const foreignEntry = await editor.put(`/repertoire/${list.id}/setlist`, {
    version: 2,
    sets: [{ name: 'x', entries: [{ id: 99999, songId: a }] }]
  })
  assert.equal(json<ErrorResponseBody>(foreignEntry).code, 'ENTRY_NOT_IN_REPERTOIRE')
  for (const [songId, code] of [
    [retired, 'SONG_RETIRED'],
    [77777, 'UNKNOWN_SONG']
  ] as const) {
    const refused = await editor.put(`/repertoire/${list.id}/setlist`, {
      version: 2,
      sets: [{ name: 'x', entries: [{ songId }] }]
    })
    assert.equal(refused.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(refused).code, code)
  }
  assert.deepEqual(json<Ok<'/repertoire/{id}', 'get'>>(
    await mia.get(`/repertoire/${list.id}`)), v2, 'nothing was written')

  // rename, unique names ignoring case
  const renamed = json<Ok<'/repertoire/{id}', 'patch'>>(
    await editor.patch(`/repertoire/${list.id}`, { name: 'Stadtfest' }))
  assert.equal(renamed.name, 'Stadtfest')
  assert.equal(renamed.version, 2, 'renaming does not touch the sets')
  const taken = await editor.patch(`/repertoire/${other.id}`, { name: 'STADTFEST' })
  assert.equal(taken.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(taken).code, 'REPERTOIRE_NAME_TAKEN')
  assert.equal(json<ErrorResponseBody>(
    await editor.post('/repertoire', { name: 'stadtfest' })).code,
  'REPERTOIRE_NAME_TAKEN')

  // a song a programme uses is retired instead of deleted
  const del = json<Ok<'/songs/{id}', 'delete'>>(await editor.delete(`/songs/${c}`))
  assert.equal(del.retired, true)

  // 400, 401, 403, 404
  assert.equal((await editor.post('/repertoire', { name: '' })).statusCode, 400)
  assert.equal((await editor.post('/repertoire', { name: 'x', gigId: 1 })).statusCode, 400)
  assert.equal((await editor.patch(`/repertoire/${list.id}`, {})).statusCode, 400)
  assert.equal((await editor.put(`/repertoire/${list.id}/setlist`, { sets: [] })).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get('/repertoire')).statusCode, 401)
  assert.equal((await mia.post('/repertoire', { name: 'Mine' })).statusCode, 403)
  assert.equal((await mia.put(`/repertoire/${list.id}/setlist`, v2)).statusCode, 403)
  assert.equal((await mia.delete(`/repertoire/${list.id}`)).statusCode, 403)
  for (const r of [
    await mia.get('/repertoire/999'),
    await editor.patch('/repertoire/999', { name: 'x' }),
    await editor.put('/repertoire/999/setlist', { version: 0, sets: [] }),
    await editor.delete('/repertoire/999')
  ]) {
    assert.equal(r.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(r).code, 'REPERTOIRE_NOT_FOUND')
  }
  assert.equal((await editor.delete(`/repertoire/${other.id}`)).statusCode, 204)
  assert.equal(json<Ok<'/repertoire', 'get'>>(await mia.get('/repertoire')).length, 1)
})

test('repertoire setlists: from a gig, copied into a gig (replace, append), limits', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const songs = insertSongs(ctx.app, 6)
  const source = await createGig(editor, { name: 'Quelle' })
  await putSetlist(editor, source.id, [[songs[0]!, songs[1]!], [songs[2]!]])
  const programme = await createList(editor, { name: 'Aus Gig', fromGigId: source.id })
  assert.deepEqual(titles(programme.sets), [['Song 001', 'Song 002'], ['Song 003']])
  assert.equal((await editor.post('/repertoire', { name: 'x', fromGigId: 999 })).statusCode, 404)

  const gig = await createGig(editor, { name: 'Ziel' })
  const before = await putSetlist(editor, gig.id, [[songs[4]!]])
  const url = `/gigs/${gig.id}/setlist/copy`
  const appended = await editor.post(url, {
    repertoireId: programme.id,
    version: before.version,
    mode: 'append'
  })
  assert.equal(appended.statusCode, 200, appended.body)
  const after = json<Ok<'/gigs/{id}/setlist/copy', 'post'>>(appended)
  assert.deepEqual(titles(after.sets), [['Song 005'], ['Song 001', 'Song 002'], ['Song 003']])
  assert.equal(after.sets[0]!.entries[0]!.id, before.sets[0].entries[0].id, 'kept rows stay')
  assert.equal(after.version, before.version + 1)

  const stale = await editor.post(url, { repertoireId: programme.id, version: before.version })
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'SETLIST_VERSION_CONFLICT')
  assert.deepEqual(json<ErrorResponseBody & { current: unknown }>(stale).current, after)

  const replaced = json<Ok<'/gigs/{id}/setlist/copy', 'post'>>(
    await editor.post(url, { repertoireId: programme.id, version: 2 }))
  assert.deepEqual(titles(replaced.sets), [['Song 001', 'Song 002'], ['Song 003']])
  assert.deepEqual(json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await mia.get(`/gigs/${gig.id}/setlist`)), replaced)

  // the gig setlist's limits hold for the copy too
  const big = await createList(editor, {
    name: 'Viele Sets',
    sets: Array.from({ length: MAX_SETS }, (_, i) => ({ name: `S${i}`, entries: [] }))
  })
  const tooMany = await editor.post(url, { repertoireId: big.id, version: 3, mode: 'append' })
  assert.equal(tooMany.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(tooMany).code, 'LIMIT_REACHED')
  assert.equal(json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await mia.get(`/gigs/${gig.id}/setlist`)).version, 3, 'nothing written')

  // a retired song in the programme is refused, as in a PUT
  await editor.patch(`/songs/${songs[0]}`, { status: 'retired' })
  const other = await createGig(editor, { name: 'Leer' })
  const retired = await editor.post(`/gigs/${other.id}/setlist/copy`, {
    repertoireId: programme.id,
    version: 0
  })
  assert.equal(json<ErrorResponseBody>(retired).code, 'SONG_RETIRED')

  assert.equal((await mia.post(url, { repertoireId: programme.id, version: 3 })).statusCode, 403)
  assert.equal((await anonymous(ctx.app).post(url, { repertoireId: 1, version: 3 })).statusCode,
    401)
  assert.equal((await editor.post(url, { repertoireId: programme.id })).statusCode, 400)
  assert.equal((await editor.post(url, { repertoireId: 1, version: 3, mode: 'x' })).statusCode,
    400)
  const noList = await editor.post(url, { repertoireId: 999, version: 3 })
  assert.equal(json<ErrorResponseBody>(noList).code, 'REPERTOIRE_NOT_FOUND')
  const noGig = await editor.post('/gigs/999/setlist/copy', { repertoireId: 1, version: 0 })
  assert.equal(json<ErrorResponseBody>(noGig).code, 'GIG_NOT_FOUND')

  // at most MAX_REPERTOIRE_SETLISTS lists
  const stamp = ctx.now().toISOString()
  const n = json<Ok<'/repertoire', 'get'>>(await mia.get('/repertoire')).length
  ctx.app.db
    .insert(repertoireSetlists)
    .values(
      Array.from({ length: MAX_REPERTOIRE_SETLISTS - n }, (_, i) => ({
        name: `Liste ${i}`,
        createdAt: stamp,
        updatedAt: stamp
      }))
    )
    .run()
  // a PUT past the sets and songs limits is refused by its schema
  const tooLong = await editor.put(`/repertoire/${big.id}/setlist`, {
    version: big.version,
    sets: [{ name: 'S', entries: Array.from({ length: 201 }, () => ({ songId: songs[0] })) }]
  })
  assert.equal(tooLong.statusCode, 400)
  const tooWide = await editor.put(`/repertoire/${big.id}/setlist`, {
    version: big.version,
    sets: Array.from({ length: MAX_SETS + 1 }, (_, i) => ({ name: `S${i}`, entries: [] }))
  })
  assert.equal(tooWide.statusCode, 400)
  const full = await editor.post('/repertoire', { name: 'Eine zu viel' })
  assert.equal(full.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(full).code, 'LIMIT_REACHED')
  // listing all of them takes a constant number of statements
  const { result, statements } = await countStatements(ctx.app, () => mia.get('/repertoire'))
  assert.equal(json<Ok<'/repertoire', 'get'>>(result).length, MAX_REPERTOIRE_SETLISTS)
  assert.ok(statements <= 4, `${statements} statements`)
})

test('repertoire setlist as PDF (both styles) and CSV', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const a = insertSong(ctx.app, 'Über den Wolken', { key: 'C', leadSinger: 'Jürgen' })
  const b = insertSong(ctx.app, '=SUM(A1)', { durationSeconds: 3700 })
  const list = await createList(editor, {
    name: 'Schlager-Programm',
    sets: [
      { name: 'Set 1', entries: [{ songId: a, notes: 'Einsatz; "laut"' }] },
      { name: 'Set 2', entries: [{ songId: b }] }
    ]
  })
  for (const style of ['print', 'stage']) {
    const res = await mia.get(`/repertoire/${list.id}/setlist.pdf?style=${style}`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/pdf')
    const text = pdfText(res.rawPayload)
    assert.match(text, /Schlager-Programm/)
    assert.match(text, /Repertoire-Setlist · 2 Sets/)
    assert.match(text, /Über den Wolken/)
    assert.match(text, /Jürgen/)
    assert.match(text, /Pause 10 min/)
    assert.doesNotMatch(text, /2000/, 'no made-up date')
    assert.equal(pdfTitle(res.rawPayload), 'Setlist – Schlager-Programm')
  }
  const csv = await mia.get(`/repertoire/${list.id}/setlist.csv`)
  assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8')
  assert.match(String(csv.headers['content-disposition']), /attachment; filename="Setlist-Schlager-Programm.csv"/)
  const rows = parseCsv(csv.rawPayload)
  assert.equal(rows[0]![3], 'Titel')
  assert.deepEqual(rows[1]!.slice(0, 9), [
    'Set 1',
    '1',
    '00:00',
    'Über den Wolken',
    'Test Artist',
    'C-Dur',
    'Jürgen',
    '0:03:20',
    'Einsatz; "laut"'
  ])
  assert.equal(rows[2]![3], "'=SUM(A1)", 'no formula')
  assert.equal(rows[2]![7], '1:01:40')
  assert.equal((await mia.get('/repertoire/999/setlist.pdf')).statusCode, 404)
  assert.equal(json<ErrorResponseBody>(
    await mia.get('/repertoire/999/setlist.csv')).code, 'REPERTOIRE_NOT_FOUND')
  assert.equal((await mia.get(`/repertoire/${list.id}/setlist.pdf?style=x`)).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get(`/repertoire/${list.id}/setlist.csv`)).statusCode,
    401)
})
