import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import { seedDemo } from '#src/seed/index.js'
import { buildBandExport, type BandExport } from '#src/repositories/band-export.js'
import {
  BandImportError,
  importBandExport,
  readBandExport
} from '#src/repositories/band-import.js'
import { saveLogo } from '#plugins/app-config/repository.js'
import { prepareLogo } from '#src/documents/logo.js'
import { hashPassword } from '#src/auth/password.js'
import { createTestApp } from '#test/helpers.js'
import { twoColourPng } from '#test/image-fixtures.js'
import { createLibreStageDb, insertRows } from '#test/librestage-fixture.js'

// A band export file is hostile input. Its table and column names must be
// exactly those an export writes (SQLite's names are case-insensitive), every cell must fit its
// column, the logo is prepared as an upload, and what the import prints cannot steer a terminal.

const EVIL = '\u001b]52;c;ZXZpbA==\u0007Evil\u202eKing\u001b[2J'
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

async function cli (env: Record<string, string>, ...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function exported (t: { after(fn: () => unknown): void }) {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await seedDemo(ctx.app.db, { now: ctx.now() })
  const logo = prepareLogo(twoColourPng([200, 30, 30]))
  assert.ok(logo.ok)
  saveLogo(ctx.app.db, { ...logo, data: twoColourPng([200, 30, 30]) }, ctx.now())
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-import-hardening-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return { ctx, dir, doc: buildBandExport(ctx.app.sqlite, { now: ctx.now() }) }
}

const table = (d: any, name: string) => d.tables.find((x: any) => x.name === name)
const column = (d: any, name: string, col: string) =>
  table(d, name).columns.findIndex((c: any) => c.name === col)
const changed = (doc: BandExport, change: (d: any) => void) => {
  const copy = structuredClone(doc) as any
  change(copy)
  return copy
}

/** Imports into a new database: the refusal's message, and whether anything was written. */
function refusal (dir: string, name: string, document: unknown): { message: string; rows: number } {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.json`)
  writeFileSync(file, JSON.stringify(document))
  const target = openDatabase(join(dir, `${name.replace(/\W+/g, '-')}.db`))
  try {
    let message = ''
    try {
      importBandExport(target, readBandExport(file), { now: new Date() })
    } catch (error) {
      if (!(error instanceof BandImportError)) throw error
      message = error.message
    }
    const rows = target.sqlite
      .prepare(
        'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM songs) + ' +
          '(SELECT count(*) FROM sessions) + (SELECT count(*) FROM app_logo) AS n'
      )
      .get() as { n: number }
    return { message, rows: rows.n }
  } finally {
    target.close()
  }
}

test('band import: only the exact tables and columns an export writes (no planted login)', async (
  t
) => {
  const { dir, doc } = await exported(t)
  const hash = await hashPassword('a planted admin password 1234')
  const cases: Array<[string, unknown, RegExp]> = [
    [
      'Users with password hashes',
      changed(doc, (d) => {
        const users = table(d, 'users')
        users.name = 'Users'
        users.columns.push({ name: 'password_hash', type: 'text' })
        for (const row of users.rows) row.push(hash)
        d.sequences.Users = d.sequences.users
        delete d.sequences.users
      }),
      /unknown table "Users"/
    ],
    [
      'Sessions with a refresh token',
      changed(doc, (d) => {
        d.tables.push({
          name: 'Sessions',
          columns: [{ name: 'id', type: 'text' }],
          primaryKey: ['id'],
          rows: [['x']]
        })
      }),
      /unknown table "Sessions"/
    ],
    [
      'a password hash column in other case',
      changed(doc, (d) => {
        const users = table(d, 'users')
        users.columns.push({ name: 'Password_Hash', type: 'text' })
        for (const row of users.rows) row.push(hash)
      }),
      /unknown column users\."Password_Hash"/
    ],
    [
      'a table name in other case',
      changed(doc, (d) => { table(d, 'songs').name = 'SONGS' }),
      /unknown table "SONGS"/
    ],
    [
      'a column twice',
      changed(doc, (d) => {
        const songs = table(d, 'songs')
        songs.columns.push({ name: 'title', type: 'text' })
        for (const row of songs.rows) row.push('x')
      }),
      /column songs\.title appears twice/
    ]
  ]
  for (const [name, document, message] of cases) {
    const result = refusal(dir, name, document)
    assert.match(result.message, message, name)
    assert.equal(result.rows, 0, `${name}: nothing written`)
  }
})

test('band import: every cell is checked like API input, nothing half written', async (t) => {
  const { dir, doc } = await exported(t)
  const set = (name: string, col: string, value: unknown, row = 0) =>
    changed(doc, (d) => { table(d, name).rows[row][column(d, name, col)] = value })
  const config = (text: string) =>
    changed(doc, (d) => {
      const settings = table(d, 'app_settings')
      const value = (name: string) =>
        name === 'id' ? 1 : name === 'config' ? text : '2026-01-01T00:00:00.000Z'
      settings.rows = [settings.columns.map((c: any) => value(c.name))]
    })
  const cases: Array<[string, unknown, RegExp]> = [
    ['text in an integer', set('songs', 'duration_seconds', 'abc'),
      /table songs, row 1, column duration_seconds: "abc" is not an integer/],
    ['a fraction', set('songs', 'duration_seconds', 1.5), /duration_seconds: 1.5 is not an integer/],
    ['bad JSON', set('songs', 'composers', '["unclosed'), /column composers: .* is not JSON/],
    ['wrong JSON shape', set('songs', 'composers', '{"a":1}'), /column composers: the JSON does/],
    ['a script link', set('songs', 'links', '["javascript:alert(1)"]'), /column links: the JSON/],
    ['a date', set('gigs', 'date', '2026-02-31'), /column date: "2026-02-31" is not a date/],
    ['a time', set('gigs', 'start_time', '25:00'), /column start_time: "25:00" is not a time/],
    ['an instant', set('surveys', 'closes_at', 'abc'), /column closes_at: "abc" is not an RFC/],
    ['a local time', set('gig_schedule_items', 'at', '2026-01-01T10:00Z'),
      /column at: .* is not a local date-time/],
    ['an installation id', set('installation', 'uid', 'ab12\r\nATTACH:http://x'),
      /column uid: .* is not an installation id/],
    ['a sequence', changed(doc, (d) => { d.sequences.songs = 1e300 }),
      /sequence of table songs: 1e\+300 is not a row id/],
    ['a long title', set('songs', 'title', 'x'.repeat(5001)),
      /column title: 5001 characters, at most 5000/],
    ['an enum', set('songs', 'status', 'bogus'), /column status: "bogus" is not one of proposed/],
    ['a role', set('users', 'role', 'root'), /column role: "root" is not one of admin/],
    ['a boolean', set('songs', 'is_original', 2), /column is_original: 2 is not 0 or 1/],
    ['a number as text', set('songs', 'title', 42), /column title: 42 is not text/],
    ['a null', set('songs', 'title', null), /column title: may not be empty/],
    ['config', config('{"bandName":5}'),
      /column config: the app configuration is invalid: bandName/],
    ['config not JSON', config('{'), /column config: .* is not JSON/],
    ['a blob', set('app_logo', 'data', 'not base64!'), /column data: .* is not base64/],
    ['a logo that is HTML', set('app_logo', 'data', Buffer.from('<script>').toString('base64')),
      /table app_logo, row 1, column data: the logo must be a PNG or JPEG/]
  ]
  for (const [name, document, message] of cases) {
    const result = refusal(dir, name, document)
    assert.match(result.message, message, name)
    assert.equal(result.rows, 0, `${name}: nothing written`)
  }

  // Through the command line: a clear error, exit code 1, no stack trace.
  const file = join(dir, 'bad-json.json')
  writeFileSync(file, JSON.stringify(set('songs', 'composers', '["unclosed')))
  const run = await cli({ DATA_DIR: join(dir, 'cli') }, 'import', file)
  assert.equal(run.code, 1)
  assert.match(run.err, /^error: table songs, row 1, column composers: .* is not JSON/)
})

test('band import: the logo is prepared as an upload, never taken from the file', async (t) => {
  const { dir, doc } = await exported(t)
  const data = twoColourPng([200, 30, 30])
  const prepared = prepareLogo(data)
  assert.ok(prepared.ok)
  const huge = Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')
  const hostile = changed(doc, (d) => {
    const row = table(d, 'app_logo').rows[0]
    row[column(d, 'app_logo', 'mime_type')] = 'text/html'
    row[column(d, 'app_logo', 'watermark')] = huge
    row[column(d, 'app_logo', 'accent')] = '#zzzzzz'
    row[column(d, 'app_logo', 'prepared')] = 0
    row[column(d, 'app_logo', 'etag')] = '"forged"'
  })
  const file = join(dir, 'logo.json')
  writeFileSync(file, JSON.stringify(hostile))
  const target = openDatabase(join(dir, 'logo.db'))
  t.after(() => target.close())
  importBandExport(target, readBandExport(file), { now: new Date() })
  const row = target.sqlite.prepare('SELECT * FROM app_logo').get() as Record<string, unknown>
  assert.equal(row.mime_type, 'image/png')
  assert.equal(row.prepared, 1)
  assert.deepEqual(row.watermark, prepared.watermark)
  assert.equal(row.accent, prepared.accent)
  assert.notEqual(row.etag, '"forged"')
  assert.deepEqual(row.data, data)
  // An exact export imports back exactly (the preparation is deterministic).
  const again = buildBandExport(target.sqlite, { now: new Date(doc.exportedAt) })
  assert.deepEqual(table(again, 'app_logo'), table(doc, 'app_logo'))
})

test('imports print no terminal control or bidi characters', async (t) => {
  const { dir, doc } = await exported(t)
  const evil = changed(doc, (d) => {
    table(d, 'users').rows[0][column(d, 'users', 'display_name')] = EVIL
  })
  const file = join(dir, 'evil.json')
  writeFileSync(file, JSON.stringify(evil))
  const run = await cli({ DATA_DIR: join(dir, 'evil') }, 'import', file)
  assert.equal(run.code, 0, run.err)
  assert.match(run.out, /EvilKing/)
  assert.doesNotMatch(run.out, UNSAFE)
  // The name itself is stored as it was (it is data; the web app shows it as text).
  const moved = openDatabase(join(dir, 'evil', 'bandstand.db'))
  const stored = moved.sqlite.prepare('SELECT display_name FROM users WHERE id = ?')
    .get(table(evil, 'users').rows[0][0]) as { display_name: string }
  moved.close()
  assert.equal(stored.display_name, EVIL)

  // A refusal quoting a hostile table name.
  const named = changed(doc, (d) => { table(d, 'songs').name = `songs${EVIL}` })
  writeFileSync(file, JSON.stringify(named))
  const refused = await cli({ DATA_DIR: join(dir, 'refused') }, 'import', file)
  assert.equal(refused.code, 1)
  assert.match(refused.err, /unknown table/)
  assert.doesNotMatch(refused.err, UNSAFE)

  // The libreStage import: the report and the reset links.
  const source = join(dir, 'app.db')
  const db = createLibreStageDb(source)
  insertRows(db, 'users', [{
    id: 1,
    user_name: `anna${EVIL}`,
    user_pw: '$2b$12$Wq0dVbXK3PZ1mB6yK2n1UeQ0r0m5c2Jc1o6bY8n0pE3fQm7h2sWmS',
    user_group: 'user',
    email: null,
    clear_name: EVIL,
    musician: 1,
    is_singer: 0,
    mm_username: null,
    status: 'active'
  }])
  db.close()
  for (const args of [[], ['--json']]) {
    const imported = await cli({ DATA_DIR: join(dir, `ls${args.length}`) },
      'import-librestage', source, ...args)
    assert.equal(imported.code, 0, imported.err)
    assert.match(imported.out, /EvilKing/)
    assert.doesNotMatch(imported.out, UNSAFE)
  }
})

test('band import: a column added to the schema flows through without a rule for it', async (
  t
) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await seedDemo(ctx.app.db, { now: ctx.now() })
  const added = 'ALTER TABLE songs ADD COLUMN mood TEXT; ' +
    'ALTER TABLE users ADD COLUMN flag INTEGER NOT NULL DEFAULT 0'
  ctx.app.sqlite.exec(added)
  ctx.app.sqlite.exec("UPDATE songs SET mood = 'calm'; UPDATE users SET flag = 1")
  const doc = buildBandExport(ctx.app.sqlite, { now: ctx.now() })
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-import-added-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const target = openDatabase(join(dir, 'new.db'))
  t.after(() => target.close())
  target.sqlite.exec(added)
  importBandExport(target, doc, { now: ctx.now() })
  const again = buildBandExport(target.sqlite, { now: new Date(doc.exportedAt) })
  assert.deepEqual(table(again, 'songs'), table(doc, 'songs'))
  assert.deepEqual(table(again, 'users'), table(doc, 'users'))
  // Checked by its declared type all the same; a database without the column refuses it.
  const wrong = changed(doc, (d) => { table(d, 'users').rows[0][column(d, 'users', 'flag')] = 'x' })
  const other = openDatabase(join(dir, 'other.db'))
  t.after(() => other.close())
  other.sqlite.exec(added)
  assert.throws(
    () => importBandExport(other, wrong, { now: ctx.now() }),
    /table users, row 1, column flag: "x" is not an integer/
  )
  assert.match(refusal(dir, 'older', doc).message, /unknown column users\."flag"/)
})
