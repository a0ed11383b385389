import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  anonymous,
  createTestApp,
  json,
  userClient,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import {
  htmlFile,
  multipart,
  pdfFile,
  svgFile,
  upload,
  wavFile,
  zipFile
} from '#test/file-fixtures.js'
import { FILE_LIMITS } from '#shared/limits.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const incoming = (dir: string) => readdirSync(join(dir, 'files', '.incoming'))

test('editors upload to songs and gigs; the same bytes are stored once; list and delete',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const { app, dir } = ctx
    const editor = await userClient(app, 'erika', 'editor')
    const member = await userClient(app, 'max')
    const songId = insertSong(app, 'Blue Night')
    const gig = await createGig(editor)
    const pdf = pdfFile('Horns')

    const created = await upload(editor, `/songs/${songId}/files`, pdf,
      { title: 'Horn lead sheet', kind: 'sheet', filename: 'horns.pdf' })
    assert.equal(created.statusCode, 201, created.body)
    const file = json<{ id: number, file: Record<string, unknown> }>(created)
    assert.equal(file.file.mimeType, 'application/pdf')
    assert.equal(file.file.bytes, pdf.length)
    assert.equal(file.file.sha256, sha(pdf))
    assert.equal(file.file.uploadedBy, 'Erika')
    assert.equal(file.file.url, `/files/${file.id}/Horn-lead-sheet.pdf`)
    const stored = join(dir, 'files', sha(pdf).slice(0, 2), sha(pdf))
    assert.deepEqual(readFileSync(stored), pdf)

    // The same bytes for the gig: a second row, one file on disk.
    const again = await upload(editor, `/gigs/${gig.id}/files`, pdf,
      { title: 'Stage copy', kind: 'document' })
    assert.equal(again.statusCode, 201, again.body)
    assert.deepEqual(readdirSync(join(dir, 'files', sha(pdf).slice(0, 2))), [sha(pdf)])

    const list = await member.get(`/songs/${songId}/files`)
    assert.equal(list.statusCode, 200)
    const body = json<{ files: Array<{ id: number }>, usedBytes: number, quotaBytes: number }>(list)
    assert.deepEqual(body.files.map((f) => f.id), [file.id])
    assert.equal(body.usedBytes, pdf.length, 'the shared bytes count once')
    assert.equal(body.quotaBytes, 2048 * 1024 * 1024)
    assert.equal((await member.get(`/gigs/${gig.id}/files`)).statusCode, 200)

    // Deleting one row keeps the bytes the other names; deleting the last removes them.
    assert.equal((await member.delete(`/files/${file.id}`)).statusCode, 403)
    assert.equal((await editor.delete(`/files/${file.id}`)).statusCode, 204)
    assert.ok(existsSync(stored))
    assert.equal((await editor.delete(`/files/${file.id}`)).statusCode, 404)
    const second = json<{ id: number }>(again).id
    assert.equal((await editor.delete(`/files/${second}`)).statusCode, 204)
    assert.ok(!existsSync(stored))
    assert.deepEqual(incoming(dir), [])
  })

test('who may upload: 401, 403 for members unless the band allows song files, 404', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const member = await userClient(app, 'max')
  const songId = insertSong(app, 'Song')
  const gig = await createGig(editor)
  const wav = wavFile(1)

  assert.equal((await upload(anonymous(app), `/songs/${songId}/files`, wav)).statusCode, 401)
  assert.equal((await anonymous(app).get(`/songs/${songId}/files`)).statusCode, 401)
  const refused = await upload(member, `/songs/${songId}/files`, wav)
  assert.equal(refused.statusCode, 403)
  app.appSettings.set({
    ...app.appSettings.get(),
    features: { ...app.appSettings.get().features, memberSongFiles: true }
  })
  const allowed = await upload(member, `/songs/${songId}/files`, wav,
    { title: 'Demo', kind: 'recording', filename: 'demo.wav' })
  assert.equal(allowed.statusCode, 201, allowed.body)
  assert.equal(json<{ file: { mimeType: string } }>(allowed).file.mimeType, 'audio/wav')
  // Still not to gigs; their own song file they may delete again.
  assert.equal((await upload(member, `/gigs/${gig.id}/files`, wav)).statusCode, 403)
  assert.equal((await member.delete(`/files/${json<{ id: number }>(allowed).id}`)).statusCode, 204)

  const missing = await upload(editor, '/songs/9999/files', wav)
  assert.equal(missing.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missing).code, 'SONG_NOT_FOUND')
  assert.equal((await upload(editor, '/gigs/9999/files', wav)).statusCode, 404)
  assert.equal((await editor.get('/gigs/9999/files')).statusCode, 404)
  assert.equal((await editor.get('/songs/abc/files')).statusCode, 400)
})

test('bad uploads are a clear 400: no file, two files, an empty one, no title, a wrong kind, ' +
  'JSON instead of multipart (415)', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app, dir } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const url = `/songs/${insertSong(app, 'Song')}/files`
  const send = async (parts: Parameters<typeof multipart>[0]) => {
    const { payload, headers } = multipart(parts)
    const r = await editor.request('POST', url, payload, headers)
    assert.equal(r.statusCode, 400, r.body)
    return json<ErrorResponseBody>(r)
  }
  const pdf = pdfFile()
  assert.match((await send([{ name: 'title', value: 'x' }, { name: 'kind', value: 'sheet' }]))
    .message, /the part `file` is missing/)
  assert.match((await send([
    { name: 'file', filename: 'a.pdf', content: pdf },
    { name: 'other', filename: 'b.pdf', content: pdf }
  ])).message, /one part `file`/)
  assert.match((await send([{ name: 'title', value: 'x' }, { name: 'kind', value: 'sheet' },
    { name: 'file', filename: 'a.pdf', content: Buffer.alloc(0) }])).message, /empty/)
  assert.match((await send([{ name: 'attachment', filename: 'a.pdf', content: pdf }])).message,
    /one part `file` is taken \(got `attachment`\)/)
  // Fields after the file count too; a missing or blank title or an unknown kind does not pass.
  for (const fields of [[{ name: 'kind', value: 'sheet' }],
    [{ name: 'title', value: '  ' }, { name: 'kind', value: 'sheet' }],
    [{ name: 'title', value: 'x' }, { name: 'kind', value: 'poster' }]]) {
    const body = await send([{ name: 'file', filename: 'a.pdf', content: pdf }, ...fields])
    assert.equal(body.code, 'INVALID_UPLOAD')
    assert.match(body.message, /`title`.*`kind`/)
  }
  // A body cut off before its closing boundary.
  const cut = multipart([{ name: 'title', value: 'x' }, { name: 'kind', value: 'sheet' },
    { name: 'file', filename: 'a.pdf', content: pdf }])
  const truncated = await editor.request('POST', url, cut.payload.subarray(0, -40), cut.headers)
  assert.equal(truncated.statusCode, 400, truncated.body)
  assert.match(json<ErrorResponseBody>(truncated).message, /not a valid multipart upload/)
  // Any other body is refused before it is read.
  const asJson = await editor.post(url, { title: 'x', kind: 'sheet' })
  assert.equal(asJson.statusCode, 415)
  assert.equal(json<ErrorResponseBody>(asJson).code, 'UNSUPPORTED_MEDIA_TYPE')
  assert.deepEqual(incoming(dir), [])
  assert.equal(app.sqlite.prepare('SELECT count(*) FROM files').pluck().get(), 0)
})

test('the type comes from the bytes: a PDF named .mp3 is a PDF; HTML named .pdf, an SVG with ' +
  'a script and a ZIP are refused with 415 naming what is allowed', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app, dir } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const url = `/songs/${insertSong(app, 'Song')}/files`

  const disguised = await upload(editor, url, pdfFile(),
    { filename: 'song.mp3', kind: 'recording' })
  assert.equal(disguised.statusCode, 201)
  assert.equal(json<{ file: { mimeType: string } }>(disguised).file.mimeType, 'application/pdf')
  const text = await upload(editor, url, Buffer.from('Intro: 4 bars drums\nVerse: C G Am F\n'),
    { filename: 'notes.txt' })
  assert.equal(json<{ file: { mimeType: string } }>(text).file.mimeType,
    'text/plain; charset=utf-8')

  for (const [content, filename, what] of [
    [htmlFile(), 'sheet.pdf', /HTML, SVG or XML/],
    [svgFile(), 'plot.svg', /HTML, SVG or XML/],
    [zipFile(), 'sheets.zip', /application\/zip/],
    [Buffer.from([0xc3, 0x28, 0x41, 0x42]), 'latin.txt', /not UTF-8/],
    [Buffer.from([0x41, 0x00, 0x42]), 'nul.txt', /binary data/]
  ] as const) {
    const r = await upload(editor, url, content, { filename })
    assert.equal(r.statusCode, 415, filename)
    const body = json<ErrorResponseBody>(r)
    assert.equal(body.code, 'UNSUPPORTED_FILE_TYPE')
    assert.match(body.message, what)
    assert.match(body.message, /allowed are PDF, audio \(MP3, M4A\/AAC, Ogg\/Opus, FLAC, WAV\)/)
  }
  assert.deepEqual(incoming(dir), [])
  assert.equal(app.sqlite.prepare('SELECT count(*) FROM files').pluck().get(), 2)
})

test('limits: a document over 20 MB stops mid-stream with 413, a recording may have 60 MB, ' +
  'the quota and the files per song', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app, dir } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const songId = insertSong(app, 'Song')
  const url = `/songs/${songId}/files`

  const big = pdfFile('Big', FILE_LIMITS.documentBytes + 1)
  const tooLarge = await upload(editor, url, big, { kind: 'sheet' })
  assert.equal(tooLarge.statusCode, 413)
  assert.equal(json<ErrorResponseBody>(tooLarge).code, 'FILE_TOO_LARGE')
  assert.match(json<ErrorResponseBody>(tooLarge).message, /larger than 20 MB/)
  // A kind named after the file: the bytes tell a PDF, whose limit applies after the stream.
  const { payload, headers } = multipart([{ name: 'file', filename: 'a.pdf', content: big },
    { name: 'title', value: 'Big' }, { name: 'kind', value: 'recording' }])
  const late = await editor.request('POST', url, payload, headers)
  assert.equal(late.statusCode, 413)
  assert.match(json<ErrorResponseBody>(late).message, /PDFs, images and text may have 20 MB/)
  assert.deepEqual(incoming(dir), [])

  // Two uploads at once that fit the quota each but not together: the second to finish is refused.
  app.files.quotaBytes = 1024 * 1024
  const racing = await Promise.all([pdfFile('One', 600 * 1024), pdfFile('Two', 600 * 1024)]
    .map((content) => upload(editor, url, content)))
  assert.deepEqual(racing.map((r) => r.statusCode).sort(), [201, 413])
  assert.match(racing.map((r) => r.body).join(), /FILES_QUOTA_EXCEEDED/)
  assert.equal((await editor.delete(`/files/${json<{ id: number }>(
    racing.find((r) => r.statusCode === 201)!).id}`)).statusCode, 204)
  app.files.quotaBytes = 2048 * 1024 * 1024

  const huge = await upload(editor, url, wavFile(4000, 8000), { kind: 'recording' })
  assert.equal(huge.statusCode, 413)
  assert.match(json<ErrorResponseBody>(huge).message, /larger than 60 MB/)

  // 21 MB of audio is fine; then a quota of 25 MB has no room for another 5 MB.
  app.files.quotaBytes = 25 * 1024 * 1024
  const audio = await upload(editor, url, wavFile(1400, 8000), { kind: 'recording' })
  assert.equal(audio.statusCode, 201, audio.body)
  const over = await upload(editor, url, pdfFile('More', 5 * 1024 * 1024))
  assert.equal(over.statusCode, 413)
  assert.equal(json<ErrorResponseBody>(over).code, 'FILES_QUOTA_EXCEEDED')
  assert.match(json<ErrorResponseBody>(over).message, /FILES_QUOTA_MB \(25 MB; 3\.6 MB left\)/)
  assert.deepEqual(incoming(dir), [])

  const stamp = app.clock().toISOString()
  const insert = app.sqlite.prepare(`INSERT INTO files (song_id, kind, title, file_name,
    mime_type, sha256, bytes, created_at) VALUES (?, 'document', 't', 't', 'application/pdf',
    ?, 1, ?)`)
  for (let i = 1; i < FILE_LIMITS.perOwner; i++) insert.run(songId, 'f'.repeat(64), stamp)
  const full = await upload(editor, url, pdfFile())
  assert.equal(full.statusCode, 409)
  assert.match(json<ErrorResponseBody>(full).message, /at most 50 files/)
})
