import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import {
  anonymous,
  createTestApp,
  json,
  userClient,
  type Client,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { pdfFile, upload, wavFile } from '#test/file-fixtures.js'
import { parseRange } from '#src/files/range.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

async function uploaded (client: Client, url: string, content: Buffer, title = 'Demo take') {
  const r = await upload(client, url, content, { title, kind: 'recording' })
  assert.equal(r.statusCode, 201, r.body)
  return json<{ id: number, file: { url: string } }>(r)
}

test('parseRange: one range, open-ended, suffix; several or malformed ones mean the whole file',
  () => {
    assert.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 })
    assert.deepEqual(parseRange('bytes=900-', 1000), { start: 900, end: 999 })
    assert.deepEqual(parseRange('bytes=990-2000', 1000), { start: 990, end: 999 })
    assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 })
    assert.deepEqual(parseRange('bytes=-5000', 1000), { start: 0, end: 999 })
    assert.equal(parseRange('bytes=1000-', 1000), 'unsatisfiable')
    assert.equal(parseRange('bytes=-0', 1000), 'unsatisfiable')
    for (const header of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes=a-b']) {
      assert.equal(parseRange(header, 1000), undefined, header)
    }
  })

test('a download like a file server: ETag, Last-Modified, Range 206/416, If-Range, 304, ' +
  'Content-Disposition, nosniff, a sandboxing CSP; members only', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const member = await userClient(app, 'max')
  const wav = wavFile(2)
  const file = await uploaded(editor, `/songs/${insertSong(app, 'Song')}/files`, wav)
  assert.equal(file.file.url, `/files/${file.id}/Demo-take.wav`)

  const whole = await member.get(file.file.url)
  assert.equal(whole.statusCode, 200)
  assert.deepEqual(whole.rawPayload, wav)
  const etag = `"${sha(wav)}"`
  assert.equal(whole.headers.etag, etag)
  assert.equal(whole.headers['content-type'], 'audio/wav')
  assert.equal(whole.headers['content-length'], String(wav.length))
  assert.equal(whole.headers['accept-ranges'], 'bytes')
  assert.equal(whole.headers['content-disposition'], 'inline; filename="Demo-take.wav"')
  assert.equal(whole.headers['x-content-type-options'], 'nosniff')
  assert.match(String(whole.headers['content-security-policy']), /default-src 'none'.*sandbox/)
  assert.equal(whole.headers['content-encoding'], undefined)
  const lastModified = String(whole.headers['last-modified'])
  assert.ok(Date.parse(lastModified) > 0)
  // The name in the URL is the browser's only: any name, or none, serves the same file.
  assert.deepEqual((await member.get(`/files/${file.id}`)).rawPayload, wav)
  assert.deepEqual((await member.get(`/files/${file.id}/x.pdf`)).rawPayload, wav)
  const attachment = await member.get(`${file.file.url}?download=1`)
  assert.equal(attachment.headers['content-disposition'], 'attachment; filename="Demo-take.wav"')
  const head = await member.request('HEAD', file.file.url)
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['content-length'], String(wav.length))
  assert.equal(head.body, '')

  // Seeks as an audio player makes them.
  const range = async (value: string, extra: Record<string, string> = {}) =>
    member.get(file.file.url, { range: value, ...extra })
  const first = await range('bytes=0-99')
  assert.equal(first.statusCode, 206)
  assert.equal(first.headers['content-range'], `bytes 0-99/${wav.length}`)
  assert.equal(first.headers['content-length'], '100')
  assert.deepEqual(first.rawPayload, wav.subarray(0, 100))
  const middle = await range('bytes=20000-')
  assert.deepEqual(middle.rawPayload, wav.subarray(20000))
  const suffix = await range('bytes=-10')
  assert.equal(suffix.headers['content-range'],
    `bytes ${wav.length - 10}-${wav.length - 1}/${wav.length}`)
  assert.deepEqual(suffix.rawPayload, wav.subarray(-10))
  const outside = await range(`bytes=${wav.length}-`)
  assert.equal(outside.statusCode, 416)
  assert.equal(outside.headers['content-range'], `bytes */${wav.length}`)
  assert.equal(json<ErrorResponseBody>(outside).code, 'RANGE_NOT_SATISFIABLE')
  assert.equal((await range('bytes=0-1,5-6')).statusCode, 200, 'several ranges: the whole file')
  // If-Range: the range only while the file is the one the client has.
  assert.equal((await range('bytes=0-9', { 'if-range': etag })).statusCode, 206)
  assert.equal((await range('bytes=0-9', { 'if-range': lastModified })).statusCode, 206)
  assert.equal((await range('bytes=0-9', { 'if-range': '"other"' })).statusCode, 200)
  assert.equal((await range('bytes=0-9', { 'if-range': 'Tue, 01 Jan 2019 00:00:00 GMT' }))
    .statusCode, 200)
  // Revalidation.
  assert.equal((await member.get(file.file.url, { 'if-none-match': etag })).statusCode, 304)
  assert.equal((await member.get(file.file.url, { 'if-none-match': `"x", W/${etag}` }))
    .statusCode, 304)
  assert.equal((await member.get(file.file.url, { 'if-none-match': '"x"' })).statusCode, 200)
  assert.equal((await member.get(file.file.url, { 'if-modified-since': lastModified }))
    .statusCode, 304)

  // Text is offered as a download, never shown.
  const text = await upload(editor, `/songs/${insertSong(app, 'Other')}/files`,
    Buffer.from('Horns: bars 9-16\n'), { title: 'Horn notes' })
  const textUrl = json<{ file: { url: string } }>(text).file.url
  const textAnswer = await member.get(textUrl)
  assert.equal(textAnswer.headers['content-type'], 'text/plain; charset=utf-8')
  assert.equal(textAnswer.headers['content-disposition'], 'attachment; filename="Horn-notes.txt"')

  assert.equal((await anonymous(app).get(file.file.url)).statusCode, 401)
  const unknown = await member.get('/files/9999/x.pdf')
  assert.equal(unknown.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(unknown).code, 'FILE_NOT_FOUND')
  assert.equal((await member.get('/files/abc')).statusCode, 400)
})

test('a file removed from disk by hand answers 404 with a log line, not a 500', async (t) => {
  const lines: Array<{ level: number, msg: string, fileId?: number }> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
      done()
    }
  })
  const ctx = await createTestApp({}, {}, { logger: { level: 'warn', stream } })
  t.after(() => ctx.close())
  const { app, dir } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const pdf = pdfFile('Gone')
  const file = await uploaded(editor, `/songs/${insertSong(app, 'Song')}/files`, pdf)
  unlinkSync(join(dir, 'files', sha(pdf).slice(0, 2), sha(pdf)))
  const r = await editor.get(file.file.url)
  assert.equal(r.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(r).code, 'FILE_NOT_FOUND')
  assert.match(json<ErrorResponseBody>(r).message, /content is missing on the server/)
  const logged = lines.find((l) => l.msg.startsWith('file missing on disk'))
  assert.equal(logged?.level, 50)
  assert.equal(logged?.fileId, file.id)
})

test('deleting a song or gig deletes its files, the bytes when no one else has them; a ' +
  'retired song keeps them', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app, dir } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const stored = (bytes: Buffer) => existsSync(join(dir, 'files', sha(bytes).slice(0, 2),
    sha(bytes)))
  const shared = pdfFile('Shared')
  const own = pdfFile('Own')
  const doomed = insertSong(app, 'Doomed')
  const gig = await createGig(editor)
  await uploaded(editor, `/songs/${doomed}/files`, shared)
  await uploaded(editor, `/songs/${doomed}/files`, own)
  await uploaded(editor, `/gigs/${gig.id}/files`, shared)

  assert.equal((await editor.delete(`/songs/${doomed}`)).statusCode, 200)
  assert.ok(!stored(own))
  assert.ok(stored(shared), 'the gig still has it')
  assert.equal((await editor.delete(`/gigs/${gig.id}`)).statusCode, 204)
  assert.ok(!stored(shared))
  assert.equal(app.sqlite.prepare('SELECT count(*) FROM files').pluck().get(), 0)

  const played = insertSong(app, 'Played')
  const later = await createGig(editor)
  await putSetlist(editor, later.id, [[played]])
  const wav = wavFile(1)
  await uploaded(editor, `/songs/${played}/files`, wav)
  const retired = await editor.delete(`/songs/${played}`)
  assert.equal(json<{ retired: boolean }>(retired).retired, true)
  assert.ok(stored(wav))
  assert.equal((await editor.delete('/songs/9999')).statusCode, 404)
  assert.equal((await editor.delete('/gigs/9999')).statusCode, 404)
})

test("a gig's pack files: its own files and the setlist's sheets; recordings when asked for",
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const { app } = ctx
    const editor = await userClient(app, 'erika', 'editor')
    const member = await userClient(app, 'max')
    const played = insertSong(app, 'Played')
    const other = insertSong(app, 'Not in the setlist')
    const gig = await createGig(editor)
    await putSetlist(editor, gig.id, [[played]])
    const sheet = await upload(editor, `/songs/${played}/files`, pdfFile('Sheet'),
      { title: 'Sheet', kind: 'sheet' })
    const take = await uploaded(editor, `/songs/${played}/files`, wavFile(1))
    await upload(editor, `/songs/${other}/files`, pdfFile('Other'), { title: 'x', kind: 'sheet' })
    const plot = await upload(editor, `/gigs/${gig.id}/files`, pdfFile('Stage plot'),
      { title: 'Stage plot', kind: 'document' })
    const ids = (r: { json(): unknown }) =>
      (r.json() as { files: Array<{ id: number }> }).files.map((f) => f.id)
    const idOf = (r: { json(): unknown }) => (r.json() as { id: number }).id

    const pack = await member.get(`/gigs/${gig.id}/pack-files`)
    assert.equal(pack.statusCode, 200)
    assert.deepEqual(ids(pack), [idOf(sheet), idOf(plot)])
    assert.equal(json<{ bytes: number }>(pack).bytes,
      pdfFile('Sheet').length + pdfFile('Stage plot').length)
    const withTakes = await member.get(`/gigs/${gig.id}/pack-files?recordings=true`)
    assert.deepEqual(ids(withTakes), [idOf(sheet), take.id, idOf(plot)])
    assert.equal((await member.get('/gigs/9999/pack-files')).statusCode, 404)
    assert.equal((await anonymous(app).get(`/gigs/${gig.id}/pack-files`)).statusCode, 401)
  })
