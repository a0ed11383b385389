import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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
    const cut = Buffer.from(whole)
    cut.writeUInt32LE(cut.length, cut.length - 22 + 16)
    await refused(cut, /broken central directory/)
    // The document's deflated bytes overwritten: zlib refuses them.
    const damaged = rawZip([{ ...document, data: Buffer.from('not deflated at all') }, content])
    damaged.fill(0xff, 30 + DOCUMENT.length, 40 + DOCUMENT.length)
    await refused(damaged, /not a readable band export archive: bandstand-export\.json: /)
  })
