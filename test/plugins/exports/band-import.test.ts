import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import { saveLogo } from '#plugins/app-config/repository.js'
import { prepareLogo } from '#src/documents/logo.js'
import { twoColourPng } from '#test/image-fixtures.js'
import { seedDemo } from '#src/seed/index.js'
import { buildBandExport, type BandExport } from '#src/repositories/band-export.js'
import {
  BandImportError,
  importBandExport,
  readBandExport
} from '#src/repositories/band-import.js'
import { UNUSABLE_PASSWORD_HASH, verifyPassword } from '#src/auth/password.js'
import {
  anonymous, createTestApp, json, login, PASSWORD, userClient, type Ok
} from '#test/helpers.js'
import { buildDemoReplica } from '#test/librestage-fixture.js'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}
async function cli (env: Record<string, string>, ...args: string[]) {
  const run = io()
  const code = await runCli(args, env, run.io)
  return { code, out: run.out.join('\n'), err: run.err.join('\n') }
}
const timeless = (doc: BandExport) => ({ ...doc, exportedAt: '' })

test('export → import into an empty database → export again gives the same document', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-band-import-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  // A band with everything: the demo data, a libreStage import on top (its record and reset
  // links), a checklist, a repertoire list, a deleted one (its id stays used), a logo.
  await seedDemo(ctx.app.db, { now: ctx.now() })
  buildDemoReplica(join(dir, 'app.db'))
  const librestage = join(dir, 'app.db')
  const imported = await cli({ DATA_DIR: ctx.dir }, 'import-librestage', librestage, '--force')
  assert.equal(imported.code, 0, imported.err)
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const gigId = json<Ok<'/gigs', 'get'>>(await editor.get('/gigs'))[0]!.id
  const item = { title: 'Kabeltrommel', assigneeId: editor.user.id }
  await editor.post(`/gigs/${gigId}/checklist`, item)
  const gone = json<Ok<'/repertoire', 'post'>>(
    await editor.post('/repertoire', { name: 'Weg damit' }))
  await editor.delete(`/repertoire/${gone.id}`)
  const logoData = twoColourPng([30, 30, 200])
  const logo = prepareLogo(logoData)
  assert.ok(logo.ok)
  saveLogo(ctx.app.db, { ...logo, data: logoData }, ctx.now())

  // A chart (CRLF, umlauts) and a gig's transposition move along.
  const chart = '{title: Über}\r\n[H7]Grüße [*Rit.]\r\n'
  const songId = json<Ok<'/songs', 'get'>>(await editor.get('/songs'))[0]!.id
  assert.equal((await editor.patch(`/songs/${songId}`, { chart })).statusCode, 200)
  const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gigId}/setlist`))
  setlist.sets[0]!.entries[0]!.transpose = -3
  setlist.sets[0]!.entries[0]!.capo = 4
  const body = {
    version: setlist.version,
    sets: setlist.sets.map((s: any) => ({
      id: s.id,
      name: s.name,
      entries: s.entries.map((e: any) => ({
        id: e.id, songId: e.songId, transpose: e.transpose, capo: e.capo
      }))
    }))
  }
  assert.equal((await editor.put(`/gigs/${gigId}/setlist`, body)).statusCode, 200)

  // A gig's money and a payment move along, to the cent.
  const money = {
    version: 0,
    fee: {
      amountCents: 123456,
      currency: 'EUR',
      paid: true,
      paidAt: '2026-06-21',
      receivedBy: { userId: editor.user.id },
      invoiceNumber: 'R-17'
    },
    expenses: [{ paidBy: { name: 'Verleih' }, title: 'PA', amountCents: 20001 }],
    rules: {
      players: [editor.user.id],
      fixed: [],
      percentages: [{ to: { name: 'Bandkasse' }, percent: 12.5 }]
    }
  }
  assert.equal((await editor.put(`/gigs/${gigId}/money`, money)).statusCode, 200)
  const payment = { from: { userId: editor.user.id }, to: { name: 'Bandkasse' }, amountCents: 500 }
  assert.equal((await editor.post('/money/payments', payment)).statusCode, 201)
  const moneyBefore = json(await editor.get(`/gigs/${gigId}/money`))
  const balancesBefore = json(await editor.get('/money/balances'))

  const admin = await userClient(ctx.app, 'boss', 'admin')
  const file = join(dir, 'band.json')
  const exported = await cli({ DATA_DIR: ctx.dir }, 'export', file)
  assert.equal(exported.code, 0, exported.err)
  assert.match(exported.out, /band export written to .*band\.json \(\d+ tables, \d+ rows\)/)
  assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner only')
  assert.equal((await cli({ DATA_DIR: ctx.dir }, 'export', file)).code, 1, 'never overwrites')
  const doc = JSON.parse(readFileSync(file, 'utf8')) as BandExport
  assert.deepEqual(
    timeless(json<BandExport>(await admin.get('/admin/export?format=json'))),
    timeless(doc),
    'the command line and GET /admin/export give the same document'
  )

  const target = join(dir, 'new')
  const env = { DATA_DIR: target, PUBLIC_URL: 'https://new.band.example' }
  const restored = await cli(env, 'import', file)
  assert.equal(restored.code, 0, restored.err)
  assert.match(restored.out, /^imported \d+ rows in \d+ tables/)
  const again = join(dir, 'again.json')
  assert.equal((await cli(env, 'export', again)).code, 0)
  const second = JSON.parse(readFileSync(again, 'utf8')) as BandExport
  assert.deepEqual(timeless(second), timeless(doc))
  assert.ok(second.sequences.repertoire_setlists! >= gone.id, 'the deleted list’s id stays used')

  // Passwords are not exported: every user has an unusable hash until their link is used; one
  // link per active user.
  const handle = openDatabase(join(target, 'bandstand.db'))
  const users = handle.sqlite
    .prepare('SELECT username, status, password_hash AS hash FROM users')
    .all() as Array<{ username: string; status: string; hash: string }>
  handle.close()
  assert.ok(users.every((u) => u.hash === UNUSABLE_PASSWORD_HASH))
  assert.equal(await verifyPassword(PASSWORD, UNUSABLE_PASSWORD_HASH), false)
  const links = [...restored.out.matchAll(/^ {2}(\S+) \(.*\): (https:\/\/new\.band\.example\S+)$/gm)]
  assert.deepEqual(
    links.map((m) => m[1]).sort(),
    users.filter((u) => u.status === 'active').map((u) => u.username).sort()
  )

  // On the new server: the old password fails, the link sets a new one.
  const moved = await createTestApp({ databaseFile: join(target, 'bandstand.db') })
  t.after(() => moved.close())
  const guest = anonymous(moved.app)
  const oldLogin = await guest.post('/login', { username: 'eddie', password: PASSWORD })
  assert.equal(oldLogin.statusCode, 401)
  const eddieLink = links.find((m) => m[1] === 'eddie')![2]!
  const token = eddieLink.split('#token=')[1]
  assert.equal(
    (await guest.post('/password-reset', { token, newPassword: 'a fresh start on the new box' }))
      .statusCode,
    204
  )
  const eddie = await login(
    moved.app,
    { id: 0, username: 'eddie', role: 'editor' },
    'a fresh start on the new box'
  )
  assert.equal(json<Ok<'/gigs', 'get'>>(
    await eddie.get('/gigs')).length, json<Ok<'/gigs', 'get'>>(await editor.get('/gigs')).length)
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(await eddie.get(`/songs/${songId}`)).chart, chart)
  const eddieMoney = json<Ok<'/gigs/{id}/money', 'get'>>(await eddie.get(`/gigs/${gigId}/money`))
  assert.deepEqual({ ...eddieMoney, myShareCents: 0 },
    { ...(moneyBefore as typeof eddieMoney), myShareCents: 0 })
  assert.deepEqual(json(await eddie.get('/money/balances')), balancesBefore)
  const moved0 = json<Ok<'/gigs/{id}/charts', 'get'>>(
    await eddie.get(`/gigs/${gigId}/charts`)).charts[0]
  assert.deepEqual([moved0!.transpose, moved0!.capo], [-3, 4])
})

test('band import: refuses band data, replaces a first admin, refuses broken files', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-band-import-bad-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await seedDemo(ctx.app.db, { now: ctx.now() })
  const doc = buildBandExport(ctx.app.sqlite, { now: ctx.now() })
  const file = join(dir, 'band.json')
  writeFileSync(file, JSON.stringify(doc))

  // A database with band data: refused, unchanged.
  const full = await cli({ DATA_DIR: ctx.dir }, 'import', file)
  assert.equal(full.code, 1)
  assert.match(full.err, /already holds band data.*new DATA_DIR/)

  // A database with only the first admin (the server was started once): the export replaces it.
  const fresh = join(dir, 'fresh')
  assert.equal(
    (
      await cli(
        { DATA_DIR: fresh },
        ...['user:create', 'admin', '--role', 'admin', '--password', 'just the first boss here']
      )
    ).code,
    0
  )
  const replaced = await cli({ DATA_DIR: fresh }, 'import', file)
  assert.equal(replaced.code, 0, replaced.err)
  const handle = openDatabase(join(fresh, 'bandstand.db'))
  assert.deepEqual(
    timeless(buildBandExport(handle.sqlite, { now: ctx.now() })),
    timeless(doc)
  )
  handle.close()

  // Broken documents: each refused with a message, and nothing written.
  const broken = (change: (d: any) => void) => {
    const copy = structuredClone(doc) as any
    change(copy)
    return copy
  }
  const table = (d: any, name: string) => d.tables.find((x: any) => x.name === name)
  const cases: Array<[string, unknown, RegExp]> = [
    ['not an export', { hello: 1 }, /not a Bandstand band export/],
    ['newer format', broken((d) => { d.formatVersion = 2 }), /version 2.*update Bandstand first/],
    ['unknown schema', broken((d) => { d.schemaVersion = '0099_future' }), /update Bandstand first/],
    ['malformed', broken((d) => { d.tables[0].rows = 'x' }), /malformed at \/tables\/0\/rows/],
    ['a boolean cell', broken((d) => { table(d, 'users').rows[0][0] = true }), /malformed/],
    ['unknown table', broken((d) => { d.tables.push({ name: 'mystery', columns: [], primaryKey: [], rows: [] }) }), /unknown table "mystery"/],
    ['excluded table', broken((d) => { d.tables.push({ name: 'sessions', columns: [], primaryKey: [], rows: [] }) }), /never imported/],
    ['unknown column', broken((d) => { table(d, 'songs').columns.push({ name: 'lyrics', type: 'text' }) }), /unknown column songs\."lyrics"/],
    ['password hashes', broken((d) => { table(d, 'users').columns.push({ name: 'password_hash', type: 'text' }) }), /users\.password_hash is never imported/],
    ['row width', broken((d) => { table(d, 'songs').rows[0].pop() }), /table songs, row 1/],
    ['duplicate ids', broken((d) => { const s = table(d, 'songs'); s.rows.push([...s.rows[0]]) }), /table songs: UNIQUE constraint failed/],
    [
      'a dangling reference',
      broken((d) => {
        const entries = table(d, 'setlist_entries')
        entries.rows[0][entries.columns.findIndex((c: any) => c.name === 'song_id')] = 99999
      }),
      /do not fit together/
    ]
  ]
  for (const [name, document, message] of cases) {
    const target = openDatabase(join(dir, `${name}.db`))
    try {
      assert.throws(
        () => importBandExport(target, readBack(dir, document), { now: ctx.now() }),
        (error: Error) => error instanceof BandImportError && message.test(error.message),
        name
      )
      const rows = target.sqlite
        .prepare(
          'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM songs) + ' +
            '(SELECT count(*) FROM setlist_entries) AS n'
        )
        .get() as { n: number }
      assert.equal(rows.n, 0, `${name}: nothing written`)
    } finally {
      target.close()
    }
  }
  writeFileSync(join(dir, 'text.json'), 'not json at all')
  assert.throws(() => readBandExport(join(dir, 'text.json')), /is not JSON/)
  assert.throws(() => readBandExport(file, 1024), /an import takes at most 1024/)
  assert.throws(() => readBandExport(join(dir, 'missing.json')), /cannot read/)
})

/** Writes the document to a file and reads it back as the command line does. */
function readBack (dir: string, document: unknown): BandExport {
  const file = join(dir, 'case.json')
  writeFileSync(file, JSON.stringify(document))
  return readBandExport(file)
}
