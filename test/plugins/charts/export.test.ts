import { test } from 'node:test'
import assert from 'node:assert/strict'
import { unzipSync } from 'fflate'
import { anonymous, createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { inArray } from '#src/db/orm.js'
import { songs } from '#src/db/schema.js'
import { createGig, insertSongs } from '#test/gig-fixtures.js'
import { safeStem } from '#src/chart-files/file-names.js'
import { transposeChordProText } from '#src/chart-files/transpose-text.js'

const files = (body: Buffer) =>
  Object.fromEntries(Object.entries(unzipSync(new Uint8Array(body)))
    .map(([name, data]) => [name, Buffer.from(data).toString('utf8')]))

test('GET /songs/charts.zip: every chart byte for byte under a name safe everywhere',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia')
    const add = (title: string, artist: string | null, chart: string | null) =>
      editor.post('/songs', { title, artist, chart })
    const crlf = '\uFEFF{title: Ständchen}\r\n[C]Grüße  \r\n'
    await add('Ständchen', 'Schubert', crlf)
    await add('AC/DC: Live?', 'Band <1>', '[E]x')
    await add('con', null, '[A]device name')
    await add('Same', null, '[C]one')
    await add('SAME', null, '[C]two')
    await add('Dots...', null, '[D]dots')
    await add('No chart', null, null)
    const res = await member.get('/songs/charts.zip')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'application/zip')
    assert.match(String(res.headers['content-disposition']), /attachment; filename="charts.zip"/)
    const zip = files(res.rawPayload)
    assert.deepEqual(Object.keys(zip), [
      'Ständchen - Schubert.cho', 'AC_DC_ Live_ - Band _1_.cho', '_con.cho', 'Same.cho',
      'SAME (2).cho', 'Dots.cho'
    ])
    assert.equal(zip['Ständchen - Schubert.cho'], crlf)
    assert.deepEqual(unzipSync(new Uint8Array(res.rawPayload))['Ständchen - Schubert.cho'],
      new Uint8Array(Buffer.from(crlf, 'utf8')), 'byte for byte')
    assert.equal(zip['SAME (2).cho'], '[C]two')
    assert.equal((await anonymous(ctx.app).get('/songs/charts.zip')).statusCode, 401)
  })

test('GET /songs/charts.zip: a songbook of many batches is sent as it is made, every chart once',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const member = await userClient(ctx.app, 'mia')
    // 120 songs: three batches of reads; every third song has no chart.
    const ids = insertSongs(ctx.app, 120)
    const charted = ids.filter((_, i) => i % 3 !== 2)
    for (const id of charted) {
      ctx.app.db.update(songs).set({ chart: `{title: ${id}}\n[C]Chart ${id}\n` })
        .where(inArray(songs.id, [id])).run()
    }
    const res = await member.get('/songs/charts.zip')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-length'], undefined, 'streamed, not held whole')
    const zip = files(res.rawPayload)
    assert.equal(Object.keys(zip).length, charted.length)
    assert.equal(Object.keys(zip)[0], 'Song 001 - Test Artist.cho')
    assert.equal(Object.keys(zip).at(-1), 'Song 119 - Test Artist.cho')
    assert.equal(zip['Song 101 - Test Artist.cho'], `{title: ${ids[100]}}\n[C]Chart ${ids[100]}\n`)
    assert.equal(zip['Song 003 - Test Artist.cho'], undefined, 'a song without a chart is left out')
  })

test('GET /gigs/{id}/charts.zip: the setlist in running order, transposed', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const song = async (title: string, chart: string | null, key?: string, artist?: string) =>
    json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title, chart, key, artist })).id
  const grace = await song('Amazing Grace',
    '{title: Amazing Grace}\r\n{key: G}\r\n# [G] in a comment\r\n[G]Amazing [C]grace [*Rit.]\r\n' +
    '{sot}\r\n[G] tab line\r\n{eot}\r\n{c: [G] in a comment}\r\n', 'G')
  const plain = await song('Plain', '[Am]Same key', undefined, 'Folk')
  const none = await song('No chart', null)
  const gig = await createGig(editor)
  const put = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      { name: 'Set 1', entries: [{ songId: plain }, { songId: none }] },
      { name: 'Set 2', entries: [{ songId: grace, transpose: 2 }] }
    ]
  })
  assert.equal(put.statusCode, 200, put.body)
  const res = await member.get(`/gigs/${gig.id}/charts.zip`)
  assert.equal(res.statusCode, 200)
  const zip = files(res.rawPayload)
  assert.deepEqual(Object.keys(zip), ['01 - Plain - Folk.cho', '03 - Amazing Grace.cho'])
  assert.equal(zip['01 - Plain - Folk.cho'], '[Am]Same key')
  assert.equal(zip['03 - Amazing Grace.cho'],
    '{title: Amazing Grace}\r\n{key: A}\r\n# [G] in a comment\r\n[A]Amazing [D]grace [*Rit.]\r\n' +
    '{sot}\r\n[G] tab line\r\n{eot}\r\n{c: [G] in a comment}\r\n')
  assert.equal((await member.get('/gigs/9999/charts.zip')).statusCode, 404)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/charts.zip`)).statusCode, 401)
  assert.equal((await member.get('/gigs/abc/charts.zip')).statusCode, 400)
})

test('file names and transposed text in detail', () => {
  assert.equal(safeStem('  a  \tb\u0000c  '), 'a _b_c')
  assert.equal(safeStem('...'), 'Untitled')
  assert.equal(safeStem('LPT1.txt'), '_LPT1.txt')
  assert.equal([...safeStem('é'.repeat(300))].length, 120)
  assert.equal(transposeChordProText('[C]x', 0, 'english', null), '[C]x')
  assert.equal(transposeChordProText('{start_of_abc}\n[C]\n{end_of_abc}\n[C]x', -1, 'german', null),
    '{start_of_abc}\n[C]\n{end_of_abc}\n[H]x')
})
