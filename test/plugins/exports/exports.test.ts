import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import XLSX from 'xlsx'
import {
  anonymous,
  countStatements,
  createTestApp,
  createUser,
  json,
  sessionClient,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { parseCsv } from '#test/export-fixtures.js'
import { seedDemo } from '#src/seed/index.js'
import { saveLogo } from '#plugins/app-config/repository.js'
import { prepareLogo } from '#src/documents/logo.js'
import { twoColourPng } from '#test/image-fixtures.js'
import { openDatabase } from '#src/db/client.js'
import {
  buildBandExport,
  EXCLUDED_TABLES,
  ExportTooLarge,
  type BandExport
} from '#src/repositories/band-export.js'
import { importBandExport } from '#src/repositories/band-import.js'

test('gig setlist as CSV (BOM, ;, header, umlauts, no formulas) and plain text', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const a = insertSong(ctx.app, 'Schön ist die Welt', { key: 'F', leadSinger: 'Jörg' })
  const b = insertSong(ctx.app, '@home; "live"')
  const c = insertSong(ctx.app, 'Zugabe')
  const gig = await createGig(editor, { name: 'Kirchweih Übersee', startTime: '20:00' })
  const setlist = await putSetlist(editor, gig.id, [[a, b], [c]])
  // the live record: the second song skipped, the first rated
  const [first, second] = setlist.sets[0].entries
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: first.id, status: 'played', rating: 3 })
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: second.id, status: 'skipped' })

  const csv = await mia.get(`/gigs/${gig.id}/setlist.csv`)
  assert.equal(csv.statusCode, 200)
  assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8')
  assert.match(
    String(csv.headers['content-disposition']),
    /^attachment; filename="Setlist-2026-07-04-Kirchweih-Uebersee.csv"; filename\*=UTF-8''/
  )
  const rows = parseCsv(csv.rawPayload)
  assert.deepEqual(rows[0], [
    'Set',
    'Nr.',
    'Beginn',
    'Titel',
    'Interpret',
    'Tonart',
    'Gesang',
    'Dauer',
    'Notizen',
    'Status',
    'Eingefügt',
    'Bewertung',
    'Transponierung',
    'Kapo',
    'Chart'
  ])
  assert.deepEqual(rows[1], [
    'Set 1',
    '1',
    '20:00',
    'Schön ist die Welt',
    'Test Artist',
    'F-Dur',
    'Jörg',
    '0:03:20',
    '',
    'gespielt',
    '',
    '3',
    '0',
    '',
    ''
  ])
  assert.equal(rows[2]![3], '\'@home; "live"', 'formula-looking text is neutralised, ; quoted')
  assert.equal(rows[2]![9], 'ausgelassen')
  assert.deepEqual(rows[3]!.slice(0, 4), ['Set 2', '3', '20:13', 'Zugabe'])
  assert.equal(rows.length, 4)
  // A spreadsheet reader sees the same cells, umlauts intact (SheetJS honours the BOM as Excel
  // does; our own file, not an upload).
  const sheet = XLSX.read(csv.rawPayload, { type: 'buffer', FS: ';' })
  const cells = XLSX.utils.sheet_to_json<string[]>(sheet.Sheets[sheet.SheetNames[0]!]!, {
    header: 1,
    raw: false
  })
  assert.equal(cells[1]![3], 'Schön ist die Welt')
  assert.equal(cells[1]![6], 'Jörg')
  assert.equal(cells[0]![10], 'Eingefügt')

  const txt = await mia.get(`/gigs/${gig.id}/setlist.txt`)
  assert.equal(txt.statusCode, 200)
  assert.equal(txt.headers['content-type'], 'text/plain; charset=utf-8')
  const lines = txt.body.split('\n')
  assert.equal(lines[0], 'Kirchweih Übersee')
  assert.match(lines[1]!, /^Sa, 04\.07\.2026 · Beginn 20:00$/)
  assert.match(txt.body, /Set 1 {2}20:00–20:03/)
  assert.match(txt.body, / {2}1\. 20:00 {2}Schön ist die Welt – Test Artist {2}\[F-Dur, Jörg\] {2}3:20/)
  assert.match(txt.body, /2\. 20:03 .* \(ausgelassen\)/)
  assert.match(txt.body, /Pause 10 min/)
  assert.match(txt.body, /Gesamt: .* · 3 Titel in 2 Sets/)

  for (const kind of ['csv', 'txt']) {
    assert.equal(json<ErrorResponseBody>(
      await mia.get(`/gigs/999/setlist.${kind}`)).code, 'GIG_NOT_FOUND')
    const anon = await anonymous(ctx.app).get(`/gigs/${gig.id}/setlist.${kind}`)
    assert.equal(anon.statusCode, 401)
    assert.equal((await mia.get(`/gigs/abc/setlist.${kind}`)).statusCode, 400)
  }
})

test('a season’s setlists as one JSON document, in a constant number of statements', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const songs = insertSongs(ctx.app, 4)
  const spring = await createGig(editor, { name: 'Frühling', date: '2026-04-01' })
  const summer = await createGig(editor, { name: 'Sommer', date: '2026-07-01' })
  await createGig(editor, { name: 'Abgelehnt', date: '2026-05-01', status: 'declined' })
  await createGig(editor, { name: 'Nächstes Jahr', date: '2027-01-01' })
  await putSetlist(editor, spring.id, [[songs[0]!], [songs[1]!]])
  await putSetlist(editor, summer.id, [[songs[2]!, songs[3]!]])

  const { result, statements } = await countStatements(ctx.app, () =>
    mia.get('/exports/seasons/2026')
  )
  assert.equal(result.statusCode, 200)
  assert.match(String(result.headers['content-disposition']), /Setlists-2026\.json/)
  const doc = json<Ok<'/exports/seasons/{year}', 'get'>>(result)
  assert.equal(doc.format, 'bandstand-season-setlists')
  assert.equal(doc.formatVersion, 1)
  assert.equal(doc.season, 2026)
  assert.deepEqual(
    doc.gigs.map((g: any) => g.gig.name),
    ['Frühling', 'Sommer']
  )
  assert.deepEqual(doc.gigs[0]!.setlist, json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await mia.get(`/gigs/${spring.id}/setlist`)))
  assert.deepEqual(doc.gigs[1]!.setlist, json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await mia.get(`/gigs/${summer.id}/setlist`)))
  // more gigs, the same statements
  for (let i = 0; i < 5; i++) {
    const gig = await createGig(editor, { name: `Mehr ${i}`, date: '2026-09-01' })
    await putSetlist(editor, gig.id, [[songs[0]!]])
  }
  const more = await countStatements(ctx.app, () => mia.get('/exports/seasons/2026'))
  assert.equal(json<Ok<'/exports/seasons/{year}', 'get'>>(more.result).gigs.length, 7)
  assert.equal(more.statements, statements)

  assert.deepEqual(json<Ok<'/exports/seasons/{year}', 'get'>>(
    await mia.get('/exports/seasons/1999')).gigs, [])
  assert.equal((await mia.get('/exports/seasons/12')).statusCode, 400)
  assert.equal((await mia.get('/exports/seasons/abc')).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get('/exports/seasons/2026')).statusCode, 401)
})

test('full band export: complete, no secrets, deterministic, restores exactly', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await seedDemo(ctx.app.db, { now: ctx.now() })
  const admin = sessionClient(ctx.app, await createUser(ctx.app, 'boss', 'admin'))
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const gigId = json<Ok<'/gigs', 'get'>>(await editor.get('/gigs'))[0]!.id
  await editor.post(`/gigs/${gigId}/checklist`, {
    title: 'Kabeltrommel',
    assigneeId: editor.user.id
  })
  await editor.post('/repertoire', { name: 'Standard', fromGigId: gigId })
  await editor.post('/repertoire', { name: 'Gelöscht' })
  await editor.delete(`/repertoire/${json<Ok<'/repertoire', 'get'>>(
    await editor.get('/repertoire'))[0]!.id}`)
  // A real logo, stored as an upload stores it: the import prepares it again.
  const logoData = twoColourPng([200, 30, 30])
  const prepared = prepareLogo(logoData)
  assert.ok(prepared.ok)
  saveLogo(ctx.app.db, { ...prepared, data: logoData }, ctx.now())

  const res = await admin.get('/admin/export?format=json')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.match(
    String(res.headers['content-disposition']),
    /Bandstand-Export-\d{4}-\d{2}-\d{2}\.json/
  )
  const doc = json<BandExport>(res)
  assert.equal(doc.format, 'bandstand-band-export')
  assert.equal(doc.formatVersion, 1)
  assert.match(doc.schemaVersion, /^\d{4}_/)

  // complete: every table of the database is exported or excluded with a reason
  const tables = (
    ctx.app.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as Array<{ name: string }>
  ).map((r) => r.name)
  const exported = doc.tables.map((table) => table.name)
  for (const name of tables) {
    assert.ok(exported.includes(name) !== Object.hasOwn(EXCLUDED_TABLES, name), name)
  }
  assert.ok(exported.includes('gig_checklist_items') && exported.includes('repertoire_entries'))
  // parents before children
  assert.ok(exported.indexOf('users') < exported.indexOf('gigs') ||
    exported.indexOf('gigs') < exported.indexOf('setlist_entries'))
  assert.ok(exported.indexOf('songs') < exported.indexOf('setlist_entries'))
  assert.ok(exported.indexOf('repertoire_sets') < exported.indexOf('repertoire_entries'))
  // no secrets: no password hash, no token hash, no session
  const users = doc.tables.find((table) => table.name === 'users')!
  assert.ok(!users.columns.some((c) => c.name === 'password_hash'))
  assert.ok(!/scrypt\$|"refresh_hash"|"token_hash"/.test(res.body), 'no hashes anywhere')
  assert.ok(users.rows.length >= 8)
  // rows by primary key; the logo as base64
  const ids = users.rows.map((row) => row[0] as number)
  assert.deepEqual(ids, [...ids].sort((x, y) => x - y))
  const logo = doc.tables.find((table) => table.name === 'app_logo')!
  const logoBase64 = logoData.toString('base64')
  assert.equal(logo.rows[0]![logo.columns.findIndex((c) => c.name === 'data')], logoBase64)
  assert.ok(doc.sequences.repertoire_setlists! > 1, 'the deleted list’s id stays used')

  // deterministic: a second export differs only in its time (and /exports/band is the same
  // handler at its older path)
  const again = json<BandExport>(await admin.get('/exports/band'))
  assert.deepEqual({ ...again, exportedAt: '' }, { ...doc, exportedAt: '' })

  // an import into an empty database restores it exactly
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-export-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const handle = openDatabase(join(dir, 'restored.db'))
  importBandExport(handle, doc, { now: ctx.now() })
  const restored = buildBandExport(handle.sqlite, { now: new Date(doc.exportedAt) })
  handle.close()
  assert.deepEqual(restored, doc)

  // limits: over HTTP the document is built in memory, so large databases are refused
  assert.throws(
    () => buildBandExport(ctx.app.sqlite, { now: ctx.now(), maxBytes: 4096 }),
    ExportTooLarge
  )
  for (const url of ['/admin/export', '/exports/band']) {
    assert.equal((await editor.get(url)).statusCode, 403)
    assert.equal((await anonymous(ctx.app).get(url)).statusCode, 401)
  }
})
