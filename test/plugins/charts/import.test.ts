import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import { anonymous, createTestApp, json, userClient, type Client, type Ok } from '#test/helpers.js'
import { songs } from '#src/db/schema.js'
import { bombZip, multipart, zip, type Upload } from './upload.js'

type Report = Ok<'/songs/import', 'post'>

const send = (c: Client, files: Upload[]) => {
  const { payload, headers } = multipart(files)
  return c.post('/songs/import', payload, headers)
}

const lighthouse = [
  '{title: The Lighthouse Keeper}', '{artist: The Harbour Band}', '{key: G}', '{tempo: 96}',
  '{duration: 3:05}', '{columns: 2}', '[G]The lamp is [C]lit'
].join('\n')

test('POST /songs/import: files and archives become songs, the rest is refused', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  // Windows-1252: "Ständchen" with ä as 0xE4, and CRLF line ends.
  const latin = Buffer.from('{title: St\xe4ndchen}\r\n{artist: M\xfcller}\r\n[C]Gr\xfc\xdfe\r\n',
    'latin1')
  const archive = zip({
    'songbook/harbour.chopro': '{title: Harbour Lights}\n{key: Dm}\n[Dm]Lights',
    'songbook/../../evil.cho': '{title: Evil}',
    'songbook/inner.zip': zip({ 'x.cho': '{title: Inner}' }),
    'songbook/cover.jpg': 'JFIF',
    '__MACOSX/songbook/._harbour.chopro': '\u0000\u0005\u0016\u0007',
    'songbook/huge.pro': `{title: Huge}\n${'la '.repeat(30000)}`
  })
  const res = await send(editor, [
    { name: 'lighthouse.cho', data: lighthouse },
    { name: 'Greensleeves.txt', data: 'Am      C\nAlas my love\n' },
    { name: 'staendchen.crd', data: latin },
    {
      name: 'bom.chordpro',
      data: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{t: With BOM}\n[A]x')])
    },
    { name: 'medley.cho', data: '{title: One}\n[C]a\n{new_song}\n{title: Two}\n[G]b' },
    { name: 'empty.cho', data: '  \n' },
    { name: 'picture.cho', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2]) },
    { name: 'notes.pdf', data: '%PDF-1.4' },
    { name: 'band.zip', data: archive },
    { name: 'broken.zip', data: 'PK not really a zip archive at all' }
  ])
  assert.equal(res.statusCode, 200, res.body)
  const report = json<Report>(res)
  assert.deepEqual(report.created.map((s) => [s.file, s.title, s.artist]), [
    ['lighthouse.cho', 'The Lighthouse Keeper', 'The Harbour Band'],
    ['Greensleeves.txt', 'Greensleeves', null],
    ['staendchen.crd', 'Ständchen', 'Müller'],
    ['bom.chordpro', 'With BOM', null],
    ['medley.cho (song 1)', 'One', null],
    ['medley.cho (song 2)', 'Two', null],
    ['band.zip/songbook/harbour.chopro', 'Harbour Lights', null]
  ])
  assert.deepEqual(report.updated, [])
  assert.deepEqual(report.refused.map((r) => [r.file, r.reason]), [
    ['empty.cho', 'empty'],
    ['picture.cho', 'binary'],
    ['notes.pdf', 'unsupported_type'],
    ['band.zip/songbook/../../evil.cho', 'unsafe_name'],
    ['band.zip/songbook/inner.zip', 'nested_archive'],
    ['band.zip/songbook/cover.jpg', 'unsupported_type'],
    ['band.zip/songbook/huge.pro', 'too_large'],
    ['broken.zip', 'broken_archive']
  ])
  const stored = (id: number) => ctx.app.db.select().from(songs).where(eq(songs.id, id)).get()!
  const keeper = stored(report.created[0]!.songId)
  assert.deepEqual([keeper.key, keeper.tempoBpm, keeper.durationSeconds, keeper.status],
    ['G', 96, 185, 'accepted'])
  assert.equal(keeper.chart, lighthouse, 'stored byte for byte')
  assert.equal(stored(report.created[1]!.songId).chart, '[Am]Alas my [C]love\n')
  assert.equal(stored(report.created[2]!.songId).chart,
    '{title: Ständchen}\r\n{artist: Müller}\r\n[C]Grüße\r\n')
  assert.equal(stored(report.created[3]!.songId).chart, '{t: With BOM}\n[A]x')
  assert.equal(stored(report.created[6]!.songId).key, 'Dm')
})

test('POST /songs/import updates the song with the same title and artist, never duplicates',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const first = json<Report>(await send(editor, [{ name: 'a.cho', data: lighthouse }]))
    const again = '{title: the lighthouse keeper }\n{artist: THE HARBOUR BAND}\n[D]New chart'
    const res = await send(editor, [
      { name: 'b.cho', data: again },
      { name: 'c.cho', data: again },
      { name: 'd.cho', data: '{title: The Lighthouse Keeper}\n[E]No artist: another song' }
    ])
    const report = json<Report>(res)
    assert.deepEqual(report.updated.map((s) => [s.file, s.songId]),
      [['b.cho', first.created[0]!.songId]])
    assert.deepEqual(report.created.map((s) => s.file), ['d.cho'])
    assert.deepEqual(report.refused.map((r) => [r.file, r.reason]), [['c.cho', 'duplicate']])
    const rows = ctx.app.db.select().from(songs).all()
    assert.equal(rows.length, 2)
    const updated = rows.find((r) => r.id === first.created[0]!.songId)!
    assert.equal(updated.chart, again)
    assert.equal(updated.title, 'The Lighthouse Keeper', 'the song keeps its fields')
  })

test('POST /songs/import refuses a zip bomb and ../ names within the body limit', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const bomb = bombZip('songs/bomb.cho', 1)
  assert.ok(bomb.length < 2 * 1024 * 1024, 'a 1 GB expansion in about 1 MB')
  const heapBefore = process.memoryUsage().rss
  const res = await send(editor, [
    { name: 'bomb.zip', data: bomb },
    {
      name: 'paths.zip',
      data: zip({
        '../../etc/passwd.cho': 'x',
        '/abs.cho': 'y',
        'C:/win.cho': 'z',
        'ok/fine.cho': '{title: Fine}'
      })
    }
  ])
  assert.equal(res.statusCode, 200, res.body)
  const report = json<Report>(res)
  assert.deepEqual(report.refused.map((r) => [r.file, r.reason]), [
    ['bomb.zip/songs/bomb.cho', 'too_large'],
    ['paths.zip/../../etc/passwd.cho', 'unsafe_name'],
    ['paths.zip//abs.cho', 'unsafe_name'],
    ['paths.zip/C:/win.cho', 'unsafe_name']
  ])
  assert.deepEqual(report.created.map((s) => s.title), ['Fine'])
  // Expanded no further than a chart's limit: far from the gigabyte.
  assert.ok(process.memoryUsage().rss - heapBefore < 256 * 1024 * 1024)
})

test('POST /songs/import: 401, 403, 415, 400 without files, 413 over the limits', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const files = [{ name: 'a.cho', data: lighthouse }]
  assert.equal((await send(anonymous(ctx.app), files)).statusCode, 401)
  const member = await userClient(ctx.app, 'mia')
  assert.equal((await send(member, files)).statusCode, 403)
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const asJson = await editor.post('/songs/import', { files: [] })
  assert.equal(asJson.statusCode, 400, asJson.body)
  assert.equal(json<{ code: string }>(asJson).code, 'UNEXPECTED_BODY')
  const bytes = await editor.post('/songs/import', Buffer.from('{title: X}'),
    { 'content-type': 'application/octet-stream' })
  assert.equal(bytes.statusCode, 415, bytes.body)
  const empty = await editor.post('/songs/import')
  assert.equal(empty.statusCode, 415, empty.body)
  assert.equal(json<{ code: string }>(empty).code, 'UNSUPPORTED_MEDIA_TYPE')
  const none = await send(editor, [{ name: 'a.cho', data: lighthouse, field: 'other' }])
  assert.equal(none.statusCode, 400, none.body)
  assert.equal(json<{ code: string }>(none).code, 'IMPORT_NO_FILES')
  const many = await send(editor, Array.from({ length: 501 }, (_, i) =>
    ({ name: `s${i}.cho`, data: `{title: S${i}}` })))
  assert.equal(many.statusCode, 413, many.body)
  assert.equal(json<{ code: string }>(many).code, 'IMPORT_TOO_LARGE')
  const big = await send(editor, [{ name: 'a.zip', data: Buffer.alloc(21 * 1024 * 1024) }])
  assert.equal(big.statusCode, 413)
  const twoHalves = await send(editor, [{ name: 'a.zip', data: Buffer.alloc(11 * 1024 * 1024) },
    { name: 'b.zip', data: Buffer.alloc(11 * 1024 * 1024) }])
  assert.equal(twoHalves.statusCode, 413)
  // A body cut short, a multipart type without its boundary: 400 in words, never a 500.
  const cut = multipart([{ name: 'a.cho', data: lighthouse }])
  const short = await editor.post('/songs/import', cut.payload.subarray(0, 60), cut.headers)
  assert.equal(short.statusCode, 400, short.body)
  const noBoundary = await editor.post('/songs/import', Buffer.from('x'),
    { 'content-type': 'multipart/form-data' })
  assert.equal(noBoundary.statusCode, 400, noBoundary.body)
  assert.match(json<{ message: string }>(noBoundary).message, /multipart body could not be read/)
  assert.equal(ctx.app.db.select().from(songs).all().length, 0, 'nothing half-written')
})

test('POST /songs/import takes 2,000 charts and refuses those after them', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const medley = Array.from({ length: 2001 }, (_, i) => `{title: Song ${i + 1}}\n[C]la`)
    .join('\n{new_song}\n')
  const report = json<Report>(await send(editor, [{ name: 'medley.cho', data: medley }]))
  assert.equal(report.created.length, 2000)
  assert.deepEqual(report.refused.map((r) => [r.file, r.reason]),
    [['medley.cho (song 2001)', 'too_many']])
  assert.equal(ctx.app.db.select().from(songs).all().length, 2000)
})
