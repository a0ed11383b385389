import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import {
  existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import type { BandExport } from '#src/repositories/band-export.js'
import { createTestApp, json, userClient } from '#test/helpers.js'
import { insertSong } from '#test/gig-fixtures.js'
import { htmlFile, pdfFile, upload, wavFile } from '#test/file-fixtures.js'
import { rawZip, type RawEntry } from '#test/archive-fixtures.js'

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const DOCUMENT = 'bandstand-export.json'

test('hostile or broken archives are refused with a message and leave nothing behind',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-archive-refusals-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'erika', 'editor')
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const pdf = pdfFile('Sheet')
    const song = insertSong(ctx.app, 'Song')
    const r = await upload(editor, `/songs/${song}/files`, pdf, { title: 'Sheet', kind: 'sheet' })
    assert.equal(r.statusCode, 201)
    const doc = json<BandExport>(await admin.get('/admin/export?format=json'))
    /** The document with its one file row changed. */
    const withFile = (change: Record<string, unknown>): Buffer => {
      const table = doc.tables.find((t) => t.name === 'files')!
      const row = [...table.rows[0]!]
      for (const [column, value] of Object.entries(change)) {
        row[table.columns.findIndex((c) => c.name === column)] = value as string
      }
      const tables = doc.tables.map((t) => (t === table ? { ...t, rows: [row] } : t))
      return Buffer.from(JSON.stringify({ ...doc, tables }))
    }
    const document: RawEntry = { name: DOCUMENT, data: Buffer.from(JSON.stringify(doc)), method: 8 }
    const content: RawEntry = { name: `files/${sha(pdf)}`, data: pdf }

    let n = 0
    const refused = async (archive: Buffer, message: RegExp, env: Record<string, string> = {}) => {
      const file = join(dir, `archive-${++n}.zip`)
      writeFileSync(file, archive)
      const target = join(dir, `target-${n}`)
      const run = await runCli(['import', file], { DATA_DIR: target, ...env }, {
        out: () => {},
        err: (line) => assert.match(line, message)
      })
      assert.equal(run, 1, String(message))
      const files = join(target, 'files')
      const left = existsSync(files)
        ? readdirSync(files, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
        : []
      assert.deepEqual(left.map((e) => e.name), [], `${String(message)}: no file left`)
      const handle = openDatabase(join(target, 'bandstand.db'))
      const songs = handle.sqlite.prepare('SELECT count(*) FROM songs').pluck().get()
      const rows = handle.sqlite.prepare('SELECT count(*) FROM files').pluck().get()
      handle.close()
      assert.deepEqual([songs, rows], [0, 0], `${String(message)}: no row written`)
    }

    // Names: an allowlist, so a path never reaches the file system; none twice.
    for (const name of ['../evil', 'files/../../evil', '/etc/passwd', 'files/ABC', 'notes.txt']) {
      await refused(rawZip([document, { name, data: pdf }]), /has no place in it/)
    }
    await refused(rawZip([document, content, content]), /the entry files\/\w+ appears twice/)
    // Contents: the hash is the name; a bomb stops at the largest file an upload takes.
    await refused(rawZip([document, { ...content, data: wavFile(1) }]),
      /files\/\w+: its content's SHA-256 is \w+/)
    const bomb = { ...content, data: Buffer.alloc(61 * 1024 * 1024), method: 8 }
    await refused(rawZip([document, bomb]), /expands to more than 60 MB/)
    await refused(rawZip([document, { ...content, crc: 1234 }]), /checksum mismatch/)
    const large = pdfFile('Large', 21 * 1024 * 1024)
    await refused(rawZip([{ ...document, data: withFile({ sha256: sha(large) }) },
      { name: `files/${sha(large)}`, data: large }]), /has 21 MB; a file of its type may have 20 MB/)
    await refused(rawZip([document, { ...content, method: 12 }]),
      /compression method 12 is not read/)
    const html = htmlFile()
    await refused(rawZip([{ ...document, data: withFile({ sha256: sha(html) }) },
      { name: `files/${sha(html)}`, data: html }]), /HTML, SVG or XML markup/)
    await refused(rawZip([document, content]), /FILES_QUOTA_MB/, { FILES_QUOTA_MB: '0' })
    // The document: present, JSON, its rows fit (a file of a song that is not there: the
    // transaction fails after the files were written, and they go again).
    await refused(rawZip([content]), /holds no bandstand-export\.json/)
    await refused(rawZip([{ ...document, data: Buffer.from('{"format": ') }, content]),
      /bandstand-export\.json is not JSON/)
    await refused(rawZip([{ ...document, data: withFile({ song_id: 9999 }) }, content]),
      /do not fit together/)
    await refused(rawZip([{ ...document, data: withFile({ sha256: 'x/../y' }) }, content]),
      /column sha256: "x\/\.\.\/y" is not a SHA-256/)
    // The zip itself.
    const whole = rawZip([document, content])
    await refused(whole.subarray(0, whole.length - 10), /no zip central directory found/)
    const zip64 = Buffer.from(whole)
    zip64.writeUInt16LE(0xffff, zip64.length - 22 + 10)
    await refused(zip64, /zip64 archives are not read/)
    const more = Buffer.from(whole)
    more.writeUInt16LE(3, more.length - 22 + 10)
    await refused(more, /broken central directory/)
    const cut = Buffer.from(whole)
    cut.writeUInt32LE(cut.length, cut.length - 22 + 16)
    await refused(cut, /broken central directory/)
    // The document's deflated bytes overwritten: zlib refuses them.
    const damaged = rawZip([{ ...document, data: Buffer.from('not deflated at all') }, content])
    damaged.fill(0xff, 30 + DOCUMENT.length, 40 + DOCUMENT.length)
    await refused(damaged, /not a readable band export archive: bandstand-export\.json: /)
    // The central directory's fields, each made to lie.
    const lying = (field: number, value: number, size = 4) => {
      const zip = rawZip([document, content])
      const at = zip.readUInt32LE(zip.length - 22 + 16) + 46 + DOCUMENT.length + field
      if (size === 2) zip.writeUInt16LE(value, at)
      else zip.writeUInt32LE(value, at)
      return zip
    }
    await refused(lying(8, 0x801, 2), /encrypted/)
    await refused(lying(42, 1), /files\/\w+: no entry at its offset/)
    await refused(lying(20, 0x7fffffff), /files\/\w+: cut short/)
    const empty = Buffer.alloc(0)
    await refused(rawZip([{ ...document, data: withFile({ sha256: sha(empty) }) },
      { name: `files/${sha(empty)}`, data: empty }]), /is empty/)
    // Over 4 GiB (a sparse file: nothing is written): refused before reading on.
    const huge = join(dir, 'huge.zip')
    writeFileSync(huge, rawZip([document]))
    truncateSync(huge, 0x100000000 + 10)
    const big = await runCli(['import', huge], { DATA_DIR: join(dir, 'huge') }, {
      out: () => {},
      err: (line) => assert.match(line, /it has 4294967306 bytes; an archive takes at most/)
    })
    assert.equal(big, 1)
    const none = await runCli(['import', join(dir, 'none.zip')], { DATA_DIR: join(dir, 'none') }, {
      out: () => {},
      err: (line) => assert.match(line, /cannot read .*none\.zip: ENOENT/)
    })
    assert.equal(none, 1)
  })

test('an archive read against its document: contents no row names and rows without the ' +
  'column sha256', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-archive-refusals-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  insertSong(ctx.app, 'Song')
  const doc = json<BandExport>(await admin.get('/admin/export?format=json'))
  const pdf = pdfFile('Stray')
  // An export of a Bandstand before files: no files table at all.
  const before = { ...doc, tables: doc.tables.filter((t) => t.name !== 'files') }
  const file = join(dir, 'before.zip')
  writeFileSync(file, rawZip([
    { name: DOCUMENT, data: Buffer.from(JSON.stringify(before)) },
    { name: `files/${sha(pdf)}`, data: pdf }
  ]))
  const out: string[] = []
  const run = await runCli(['import', file], { DATA_DIR: join(dir, 'before') }, {
    out: (line) => out.push(line),
    err: (line) => assert.fail(line)
  })
  assert.equal(run, 0)
  assert.ok(out.includes('  1 file(s) of the archive no row names: left out'), out.join('\n'))
  assert.ok(!existsSync(join(dir, 'before', 'files', sha(pdf).slice(0, 2))), 'not unpacked')

  const files = doc.tables.find((t) => t.name === 'files')!
  const withoutHash = {
    ...doc,
    tables: doc.tables.map((t) => t === files
      ? { ...t, columns: t.columns.filter((c) => c.name !== 'sha256'), rows: [] }
      : t)
  }
  const plain = join(dir, 'no-hash.json')
  writeFileSync(plain, JSON.stringify(withoutHash))
  const refused = await runCli(['import', plain], { DATA_DIR: join(dir, 'no-hash') }, {
    out: () => {},
    err: (line) => assert.match(line, /table files: the column sha256 is missing/)
  })
  assert.equal(refused, 1)
})
