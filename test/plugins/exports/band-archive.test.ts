import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { unzipSync } from 'fflate'
import { runCli } from '#src/cli.js'
import type { BandExport } from '#src/repositories/band-export.js'
import { anonymous, createTestApp, json, userClient, type Client } from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { pdfFile, upload, wavFile } from '#test/file-fixtures.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const timeless = (doc: BandExport) => ({ ...doc, exportedAt: '' })

async function cli (env: Record<string, string>, ...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function uploaded (client: Client, url: string, content: Buffer, kind: string) {
  const r = await upload(client, url, content, { title: `A ${kind}`, kind })
  assert.equal(r.statusCode, 201, r.body)
  return json<{ id: number, file: { url: string } }>(r)
}

test('the band export is an archive with the files; imported into a new DATA_DIR they are ' +
  'served byte for byte', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-band-archive-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { app } = ctx
  const editor = await userClient(app, 'erika', 'editor')
  const admin = await userClient(app, 'boss', 'admin')
  const sheet = pdfFile('Lead sheet', 40_000)
  const demo = wavFile(2)
  const first = insertSong(app, 'First')
  const second = insertSong(app, 'Second')
  const gig = await createGig(editor)
  const sheetFile = await uploaded(editor, `/songs/${first}/files`, sheet, 'sheet')
  await uploaded(editor, `/songs/${second}/files`, sheet, 'sheet')
  const demoFile = await uploaded(editor, `/gigs/${gig.id}/files`, demo, 'recording')

  const res = await admin.get('/admin/export')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/zip')
  assert.match(String(res.headers['content-disposition']), /Bandstand-Export-[\d-]+\.zip/)
  const entries = unzipSync(res.rawPayload)
  assert.deepEqual(Object.keys(entries).sort(),
    ['bandstand-export.json', `files/${sha(demo)}`, `files/${sha(sheet)}`].sort(),
    'the document, and each content once')
  assert.deepEqual(Buffer.from(entries[`files/${sha(sheet)}`]!), sheet)
  assert.deepEqual(Buffer.from(entries[`files/${sha(demo)}`]!), demo)
  const doc = JSON.parse(Buffer.from(entries['bandstand-export.json']!).toString('utf8'))
  const plain = json<BandExport>(await admin.get('/admin/export?format=json'))
  assert.deepEqual(timeless(doc), timeless(plain), 'the archive holds the JSON export')
  // The older path stays JSON by default for the scripts using it; it gives the archive on asking.
  const old = await admin.get('/exports/band')
  assert.equal(old.headers['content-type'], 'application/json; charset=utf-8')
  const oldZip = await admin.get('/exports/band?format=zip')
  assert.equal(oldZip.headers['content-type'], 'application/zip')
  // The archive goes out as it is (its files are compressed already); the JSON compressed.
  const gzip = { 'accept-encoding': 'gzip' }
  assert.equal((await admin.get('/admin/export', gzip)).headers['content-encoding'], undefined)
  assert.equal((await admin.get('/admin/export?format=json', gzip)).headers['content-encoding'],
    'gzip')
  assert.equal((await admin.get('/admin/export?format=tar')).statusCode, 400)
  assert.equal((await editor.get('/admin/export')).statusCode, 403)
  assert.equal((await anonymous(app).get('/admin/export')).statusCode, 401)

  // The command line writes the same archive (owner only, never over a file).
  const file = join(dir, 'band.zip')
  const exported = await cli({ DATA_DIR: ctx.dir }, 'export', file)
  assert.equal(exported.code, 0, exported.err)
  assert.match(exported.out, /band export written to .*band\.zip \(\d+ tables, \d+ rows, 2 files\)/)
  assert.equal(statSync(file).mode & 0o777, 0o600)
  assert.equal((await cli({ DATA_DIR: ctx.dir }, 'export', file)).code, 1)
  assert.deepEqual(Object.keys(unzipSync(readFileSync(file))).sort(), Object.keys(entries).sort())

  const target = join(dir, 'new')
  const imported = await cli({ DATA_DIR: target }, 'import', file)
  assert.equal(imported.code, 0, imported.err)
  assert.doesNotMatch(imported.out, /left out/)
  const moved = await createTestApp({ dataDir: target, databaseFile: join(target, 'bandstand.db') })
  t.after(() => moved.close())
  const member = await userClient(moved.app, 'newcomer')
  for (const [file, bytes] of [[sheetFile, sheet], [demoFile, demo]] as const) {
    const download = await member.get(file.file.url)
    assert.equal(download.statusCode, 200)
    assert.deepEqual(download.rawPayload, bytes)
  }
  const range = await member.get(demoFile.file.url, { range: 'bytes=100-199' })
  assert.equal(range.statusCode, 206)
  assert.deepEqual(range.rawPayload, demo.subarray(100, 200))
  const movedAdmin = await userClient(moved.app, 'chief', 'admin')
  const again = json<BandExport>(await movedAdmin.get('/admin/export?format=json'))
  const withoutUsers = (d: BandExport) =>
    timeless({ ...d, tables: d.tables.filter((t) => t.name !== 'users'), sequences: {} })
  assert.deepEqual(withoutUsers(again), withoutUsers(plain), 'the same rows came back')
})

test('a plain JSON export imports without the bytes: its file rows are left out with a line ' +
  'each; a file missing on disk is left out of the archive with a log line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-band-archive-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const lines: Array<{ level: number, msg: string, sha256?: string }> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
      done()
    }
  })
  const ctx = await createTestApp({}, {}, { logger: { level: 'warn', stream } })
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'erika', 'editor')
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const song = insertSong(ctx.app, 'Song')
  const kept = pdfFile('Kept')
  const lost = pdfFile('Lost')
  await uploaded(editor, `/songs/${song}/files`, kept, 'sheet')
  const lostFile = await uploaded(editor, `/songs/${song}/files`, lost, 'document')

  const jsonFile = join(dir, 'band.json')
  const written = await cli({ DATA_DIR: ctx.dir }, 'export', jsonFile)
  assert.match(written.out, /without the bytes of 2 file\(s\): export to a \.zip/)
  const fromJson = await cli({ DATA_DIR: join(dir, 'from-json') }, 'import', jsonFile)
  assert.equal(fromJson.code, 0, fromJson.err)
  assert.equal([...fromJson.out.matchAll(/its bytes are not in the export; left out/g)].length, 2)

  unlinkSync(join(ctx.dir, 'files', sha(lost).slice(0, 2), sha(lost)))
  const res = await admin.get('/admin/export')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(Object.keys(unzipSync(res.rawPayload)).sort(),
    ['bandstand-export.json', `files/${sha(kept)}`])
  const logged = lines.find((l) => l.msg.startsWith('file missing on disk: left out'))
  assert.equal(logged?.sha256, sha(lost))
  const zipFile = join(dir, 'band.zip')
  writeFileSync(zipFile, res.rawPayload)
  const cliZip = await cli({ DATA_DIR: ctx.dir }, 'export', join(dir, 'cli.zip'))
  assert.match(cliZip.out, /1 files\)\n {2}missing on disk, left out: DATA_DIR\/files\//)
  const fromZip = await cli({ DATA_DIR: join(dir, 'from-zip') }, 'import', zipFile)
  assert.equal(fromZip.code, 0, fromZip.err)
  assert.match(fromZip.out, new RegExp(`file ${lostFile.id} \\("A document"\\): its bytes are ` +
    'not in the export; left out'))
  assert.equal([...fromZip.out.matchAll(/left out/g)].length, 1)
})

test('an archive over the zip format’s 4 GiB is refused before a byte is sent', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const song = insertSong(ctx.app, 'Song')
  // Rows as if the band had 5 GB of files (the quota allows what FILES_QUOTA_MB says).
  const insert = ctx.app.sqlite.prepare('INSERT INTO files (song_id, kind, title, file_name, ' +
    "mime_type, sha256, bytes, created_at) VALUES (?, 'recording', 'Take', 'take.wav', " +
    "'audio/wav', ?, ?, '2026-11-01T10:00:00.000Z')")
  for (const n of [1, 2]) insert.run(song, String(n).repeat(64), 2_500_000_000)
  const res = await admin.get('/admin/export')
  assert.equal(res.statusCode, 409)
  assert.equal(res.json().code, 'EXPORT_TOO_LARGE')
  assert.match(res.json().message, /a zip takes at most 4294967295 .*backup/)
  assert.equal((await admin.get('/admin/export?format=json')).statusCode, 200)
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-band-archive-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const run = await cli({ DATA_DIR: ctx.dir }, 'export', join(dir, 'band.zip'))
  assert.equal(run.code, 1)
  assert.match(run.err, /a zip takes at most/)
})
