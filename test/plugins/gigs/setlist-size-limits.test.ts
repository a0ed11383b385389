// A setlist cannot grow past what one gig's answers can carry: the charts once per song and
// capped, the CSV capped by what it writes, the setlist's length capped at every save.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { inArray } from '#src/db/orm.js'
import {
  createTestApp, json, userClient, type Client, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSongs } from '#test/gig-fixtures.js'
import { parseCsv } from '#test/export-fixtures.js'
import { songs } from '#src/db/schema.js'
import type { App } from '#src/app.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { MAX_GIG_CHART_BYTES, MAX_SONGBOOK_CHART_BYTES } from '#schemas/charts.js'
import { MAX_ENTRIES_PER_SET, MAX_SETLIST_ENTRIES } from '#schemas/setlists.js'

type Charts = Ok<'/gigs/{id}/charts', 'get'>
const code = (res: { json(): unknown }) => (res.json() as ErrorResponseBody).code

/** Charts stored as an older release may have stored them: straight into the table. */
function setCharts (app: App, ids: number[], chart: (id: number) => string) {
  for (const id of ids) {
    app.db.update(songs).set({ chart: chart(id) }).where(inArray(songs.id, [id])).run()
  }
}
/** `count` song entries, filled into sets of the largest allowed size. */
const setsOf = (songIds: number[], count: number) =>
  Array.from({ length: Math.ceil(count / MAX_ENTRIES_PER_SET) }, (_, i) => ({
    name: `Set ${i + 1}`,
    entries: Array.from({ length: Math.min(MAX_ENTRIES_PER_SET, count - i * MAX_ENTRIES_PER_SET) },
      (_, j) => ({ songId: songIds[(i * MAX_ENTRIES_PER_SET + j) % songIds.length]! }))
  }))

async function gigWith (editor: Client, songIds: number[], count = songIds.length) {
  const gig = await createGig(editor)
  const res = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: setsOf(songIds, count)
  })
  assert.equal(res.statusCode, 200, res.body)
  return gig.id as number
}

test('charts: a song played again sends its chart once; the entries refer to it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const [a, b] = insertSongs(ctx.app, 2)
  setCharts(ctx.app, [a!], () => '[C]Encore')
  const gigId = await gigWith(editor, [a!, b!, a!])
  const body = json<Charts>(await member.get(`/gigs/${gigId}/charts`))
  assert.deepEqual(body.songs, [{ id: a, chart: '[C]Encore' }])
  assert.deepEqual(body.charts.map((c) => c.song.id), [a, b, a])
})

test('charts: more chart text than the cap is 413, checked before any chart is read', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const fit = Math.floor(MAX_GIG_CHART_BYTES / MAX_CHART_BYTES)
  const ids = insertSongs(ctx.app, fit + 1)
  setCharts(ctx.app, ids, (id) => `${id}`.padEnd(MAX_CHART_BYTES, 'x'))
  // At the cap exactly: sent.
  const atCap = await gigWith(editor, ids.slice(0, fit))
  const sent = await member.get(`/gigs/${atCap}/charts`)
  assert.equal(sent.statusCode, 200)
  assert.equal(json<Charts>(sent).songs.length, fit)
  // Compressed off the main thread at this size, once per encoding, then from the cache.
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    for (let i = 0; i < 2; i++) {
      const packed = await member.get(`/gigs/${atCap}/charts`, { 'accept-encoding': encoding })
      assert.equal(packed.headers['content-encoding'], encoding)
      assert.ok(decode(packed.rawPayload).equals(sent.rawPayload), encoding)
    }
  }
  // One chart more: refused with what to do, for the charts and the songbook alike.
  const over = await gigWith(editor, ids)
  const res = await member.get(`/gigs/${over}/charts`)
  assert.equal(res.statusCode, 413)
  assert.equal(code(res), 'CHARTS_TOO_LARGE')
  assert.match((res.json() as ErrorResponseBody).message,
    /8\.1 MiB of chart text; at most 8 MiB.*shorten/)
  assert.equal((await member.get('/gigs/9999/charts')).statusCode, 404)
})

test('songbook: its chart text is counted per entry and capped before the queue', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const [song] = insertSongs(ctx.app, 1)
  setCharts(ctx.app, [song!], () => 'x'.repeat(MAX_CHART_BYTES))
  // One chart, played once more than the songbook may print it; the stage view still gets it.
  const gigId = await gigWith(editor, [song!], MAX_SONGBOOK_CHART_BYTES / MAX_CHART_BYTES + 1)
  const res = await member.get(`/gigs/${gigId}/songbook.pdf`)
  assert.equal(res.statusCode, 413)
  assert.equal(code(res), 'CHARTS_TOO_LARGE')
  assert.match((res.json() as ErrorResponseBody).message, /songbook.*1\.1 MiB.*at most 1 MiB/)
  assert.equal((await member.get(`/gigs/${gigId}/charts`)).statusCode, 200)
  assert.equal((await member.get('/gigs/9999/songbook.pdf')).statusCode, 404)
})

test('setlist CSV: its chart text is counted per entry, streamed, and capped', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const [song] = insertSongs(ctx.app, 1)
  const chart = '[C]"quoted"; line\r\n'.repeat(MAX_CHART_BYTES / 20)
  setCharts(ctx.app, [song!], () => chart)
  const fit = Math.floor(MAX_GIG_CHART_BYTES / Buffer.byteLength(chart))
  const atCap = await gigWith(editor, [song!], fit)
  const csv = await member.get(`/gigs/${atCap}/setlist.csv`)
  assert.equal(csv.statusCode, 200)
  // Every entry carries the chart, quoted (parsed back on a short one below: 8 MiB is slow).
  const quoted = Buffer.from(`;"${chart.replace(/"/g, '""')}"\r\n`)
  const body = csv.rawPayload
  let found = 0
  for (let at = body.indexOf(quoted); at >= 0; at = body.indexOf(quoted, at + 1)) found++
  assert.equal(found, fit)
  const short = await gigWith(editor, [song!], 2)
  const rows = parseCsv((await member.get(`/gigs/${short}/setlist.csv`)).rawPayload)
  assert.deepEqual(rows.slice(1).map((row) => row.at(-1)), [chart, chart])
  // One entry more: the CSV would repeat the chart past the cap. The charts (once) still go.
  const over = await gigWith(editor, [song!], fit + 1)
  const refused = await member.get(`/gigs/${over}/setlist.csv`)
  assert.equal(refused.statusCode, 413)
  assert.equal(code(refused), 'CHARTS_TOO_LARGE')
  assert.equal((await member.get(`/gigs/${over}/charts`)).statusCode, 200)
  assert.equal((await member.get('/gigs/9999/setlist.csv')).statusCode, 404)
})

test('setlist: more entries than it holds is 400 at save, copy and live insert', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const ids = insertSongs(ctx.app, 10)
  const gig = await createGig(editor)
  const url = `/gigs/${gig.id}/setlist`
  const tooLong = await editor.put(url, { version: 0, sets: setsOf(ids, MAX_SETLIST_ENTRIES + 1) })
  assert.equal(tooLong.statusCode, 400)
  assert.equal(code(tooLong), 'SETLIST_TOO_LONG')
  assert.match((tooLong.json() as ErrorResponseBody).message, /401 entries.*at most 400/)
  assert.equal(json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(url)).version, 0,
    'nothing written')
  const full = await editor.put(url, { version: 0, sets: setsOf(ids, MAX_SETLIST_ENTRIES) })
  assert.equal(full.statusCode, 200)
  const saved = json<Ok<'/gigs/{id}/setlist', 'put'>>(full)

  const insert = await editor.post(`/gigs_lm/${gig.id}/insert`, {
    songId: ids[0], setId: saved.sets[0]!.id
  })
  assert.equal(insert.statusCode, 400)
  assert.equal(code(insert), 'SETLIST_TOO_LONG')

  const programme = await editor.post('/repertoire', {
    name: 'Zugabe', sets: [{ name: 'Zugabe', entries: [{ songId: ids[1] }] }]
  })
  assert.equal(programme.statusCode, 201, programme.body)
  const copy = await editor.post(`${url}/copy`, {
    repertoireId: json<Ok<'/repertoire', 'post'>>(programme).id,
    version: saved.version,
    mode: 'append'
  })
  assert.equal(copy.statusCode, 400)
  assert.equal(code(copy), 'SETLIST_TOO_LONG')
})
