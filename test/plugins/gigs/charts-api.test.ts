import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { inArray } from '#src/db/orm.js'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { projectPath } from '#src/project-path.js'
import { songs } from '#src/db/schema.js'
import { CHART_BATCH_BYTES } from '#src/repositories/gig-charts.js'

const chart = readFileSync(projectPath('test', 'fixtures', 'charts', 'stille-nacht-crlf.cho'),
  'utf8')

test('songs: a chart round-trips byte for byte; lists carry hasChart, no body', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  // CRLF, a BOM, trailing blanks, umlauts and an emoji: stored exactly as sent.
  const text = `\uFEFF${chart}  \r\n{c: 🎸 Schluss}\t\r\n`
  const created = await editor.post('/songs', { title: 'Stille Nacht', chart: text })
  assert.equal(created.statusCode, 201, created.body)
  assert.equal(json<Ok<'/songs', 'post'>>(created).chart, text)
  assert.equal(json<Ok<'/songs', 'post'>>(created).hasChart, true)
  const id = json<Ok<'/songs', 'post'>>(created).id
  const got = await member.get(`/songs/${id}`)
  assert.equal(got.statusCode, 200)
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(got).chart, text)
  assert.ok(Buffer.from(got.body).includes(Buffer.from(JSON.stringify(text).slice(1, -1))))

  await editor.post('/songs', { title: 'Without' })
  const list = json<Ok<'/songs', 'get'>>(await member.get('/songs'))
  const byTitle = new Map(list.map((s: any) => [s.title, s]))
  assert.equal((byTitle.get('Stille Nacht') as any).hasChart, true)
  assert.equal((byTitle.get('Without') as any).hasChart, false)
  assert.ok(list.every((s: any) => !('chart' in s)), 'no chart bodies in lists')

  const cleared = await editor.patch(`/songs/${id}`, { chart: null })
  assert.equal(cleared.statusCode, 200)
  assert.equal(json<Ok<'/songs/{id}', 'patch'>>(cleared).chart, null)
  assert.equal(json<Ok<'/songs/{id}', 'patch'>>(cleared).hasChart, false)
  // Members propose with a chart; they may not change one.
  const proposal = await member.post('/songs', { title: 'Idea', chart: '[C]La' })
  assert.equal(proposal.statusCode, 201)
  assert.equal((await member.patch(`/songs/${id}`, { chart: 'x' })).statusCode, 403)
  assert.equal((await anonymous(ctx.app).patch(`/songs/${id}`, { chart: 'x' })).statusCode, 401)
  assert.equal((await editor.patch('/songs/9999', { chart: 'x' })).statusCode, 404)
})

test('songs: oversized and non-UTF-8 charts are 400 and change nothing', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const id = json<Ok<'/songs', 'post'>>(
    await editor.post('/songs', { title: 'Song', chart: '[G]ok' })).id
  // 64 KiB of UTF-8 exactly is allowed; one byte more is not (ä is two bytes).
  const limit = 'ä'.repeat(32 * 1024)
  assert.equal((await editor.patch(`/songs/${id}`, { chart: limit })).statusCode, 200)
  const over = await editor.patch(`/songs/${id}`, { chart: `${limit}x` })
  assert.equal(over.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(over).code, 'CHART_TOO_LARGE')
  assert.match(json<ErrorResponseBody>(over).message, /65537 bytes.*64 KiB/)
  const tooLong = await editor.post('/songs', { title: 'Long', chart: 'x'.repeat(70000) })
  assert.equal(tooLong.statusCode, 400)
  // Latin-1 bytes in a JSON body are decoded to U+FFFD: refused, not stored garbled.
  const latin1 = Buffer.concat([
    Buffer.from('{"chart":"Sch'),
    Buffer.from([0xf6]),
    Buffer.from('n"}')
  ])
  const garbled = await ctx.app.inject({
    method: 'PATCH',
    url: `/songs/${id}`,
    payload: latin1,
    headers: { 'content-type': 'application/json', cookie: editor.jar.header() }
  })
  assert.equal(garbled.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(garbled).code, 'CHART_ENCODING')
  const broken = await editor.patch(`/songs/${id}`, { chart: 'a\uD800b' })
  assert.equal(broken.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(broken).code, 'INVALID_TEXT')
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(
    await editor.get(`/songs/${id}`)).chart, limit, 'unchanged')
})

test('setlist entries: transpose and capo are saved, validated and shown live', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const a = insertSong(ctx.app, 'A', { key: 'C' })
  const b = insertSong(ctx.app, 'B')
  const gig = await createGig(editor)
  const put = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: a, transpose: -2, capo: 3 }, { songId: b }] }]
  })
  assert.equal(put.statusCode, 200, put.body)
  const [first, second] = json<Ok<'/gigs/{id}/setlist', 'put'>>(put).sets[0]!.entries
  assert.deepEqual([first!.transpose, first!.capo, second!.transpose, second!.capo],
    [-2, 3, 0, null])
  const live = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`))
  assert.equal(live.current!.transpose, -2)
  assert.equal(live.current!.capo, 3)
  for (const bad of [{ transpose: 12 }, { transpose: -12 }, { capo: 12 }, { transpose: 1.5 }]) {
    const res = await editor.put(`/gigs/${gig.id}/setlist`, {
      version: 1,
      sets: [{ name: 'Set 1', entries: [{ songId: a, ...bad }] }]
    })
    assert.equal(res.statusCode, 400, JSON.stringify(bad))
  }
  // Kept in place when the entry keeps its id.
  const again = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 1,
    sets: [{ name: 'Set 1', entries: [{ id: first!.id, songId: a, transpose: 5 }] }]
  })
  assert.equal(json<Ok<'/gigs/{id}/setlist', 'put'>>(again).sets[0]!.entries[0]!.transpose, 5)
  assert.equal(json<Ok<'/gigs/{id}/setlist', 'put'>>(again).sets[0]!.entries[0]!.capo, null)
})

test('GET /gigs/{id}/charts: running order, transposition, ETag, three statements', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const withChart = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Stille Nacht', key: 'Bb', tempoBpm: 60, leadSinger: 'Lena', chart
  })).id
  const none = insertSong(ctx.app, 'No chart', { key: 'Am' })
  const gig = await createGig(editor)
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      { name: 'Set 1', entries: [{ songId: none, transpose: 2 }] },
      { name: 'Set 2', entries: [{ songId: withChart, transpose: 2, capo: 1 }] }
    ]
  })
  const res = await member.get(`/gigs/${gig.id}/charts`)
  assert.equal(res.statusCode, 200, res.body)
  const body = json<Ok<'/gigs/{id}/charts', 'get'>>(res)
  assert.equal(body.notation, 'german')
  assert.deepEqual(body.charts.map((c: any) => [c.position, c.setName, c.positionInSet]),
    [[1, 'Set 1', 1], [2, 'Set 2', 1]])
  // Each chart once, by song: the song without one has none there.
  assert.deepEqual(body.songs, [{ id: withChart, chart }])
  assert.deepEqual(body.charts.map((c) => c.song.id), [none, withChart])
  assert.ok(body.charts.every((c) => !('chart' in c)))
  assert.equal(body.charts[0]!.song.keyTransposed, 'Bm')
  assert.equal(body.charts[1]!.song.keyTransposed, 'C')
  assert.deepEqual([body.charts[1]!.transpose, body.charts[1]!.capo], [2, 1])
  assert.equal(body.charts[1]!.song.leadSinger, 'Lena')
  const etag = res.headers.etag as string
  assert.ok(etag)
  const cached = await member.get(`/gigs/${gig.id}/charts`, { 'if-none-match': etag })
  assert.equal(cached.statusCode, 304)
  await editor.patch(`/songs/${withChart}`, { chart: '[C]new' })
  const changed = await member.get(`/gigs/${gig.id}/charts`, { 'if-none-match': etag })
  assert.equal(changed.statusCode, 200)
  assert.deepEqual(json<Ok<'/gigs/{id}/charts', 'get'>>(changed).songs,
    [{ id: withChart, chart: '[C]new' }])

  // No query per song: the gig with its charts' sizes, the entries, the charts; more chart text
  // than one read takes: one statement per CHART_BATCH_BYTES.
  const many = Array.from({ length: 40 }, (_, i) => insertSong(ctx.app, `S${i}`))
  ctx.app.db.update(songs).set({ chart: '[C]short' }).where(inArray(songs.id, many)).run()
  const big = await createGig(editor, { name: 'Big' })
  await putSetlist(editor, big.id, [many.slice(0, 20), many.slice(20)])
  const { statements, result } = await countStatements(ctx.app, () =>
    member.get(`/gigs/${big.id}/charts`))
  assert.equal(json<Ok<'/gigs/{id}/charts', 'get'>>(result).charts.length, 40)
  assert.equal(statements, 3)
  const long = 'x'.repeat(CHART_BATCH_BYTES / 4)
  ctx.app.db.update(songs).set({ chart: long }).where(inArray(songs.id, many.slice(0, 9))).run()
  const batched = await countStatements(ctx.app, () => member.get(`/gigs/${big.id}/charts`))
  assert.equal(batched.statements, 2 + 3, 'nine charts of a quarter batch: three reads')
  const parsed = json<Ok<'/gigs/{id}/charts', 'get'>>(batched.result)
  assert.deepEqual(parsed.songs.map((song) => song.id), [...many].sort((a, b) => a - b))
  assert.deepEqual(parsed.songs.map((song) => song.chart.length),
    many.map((_, i) => (i < 9 ? long.length : '[C]short'.length)))

  assert.equal((await member.get('/gigs/9999/charts')).statusCode, 404)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/charts`)).statusCode, 401)
  assert.equal((await member.get('/gigs/abc/charts')).statusCode, 400)
})
