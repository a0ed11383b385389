import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import {
  existsSync,
  readdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  copyFileSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import { buildBandExport } from '#src/repositories/band-export.js'
import type { LibreStageReport } from '#src/librestage/report.js'
import { LibreStageImportError, readLibreStage } from '#src/librestage/source.js'
import { verifyPassword } from '#src/auth/password.js'
import { buildDemoReplica, createLibreStageDb } from '#test/librestage-fixture.js'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

function setup (t: { after(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-cli-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const source = join(dir, 'app.db')
  buildDemoReplica(source)
  const data = join(dir, 'data')
  const env = { DATA_DIR: data, PUBLIC_URL: 'https://band.example' }
  const cli = async (...args: string[]) => {
    const run = io()
    const code = await runCli(args, env, run.io)
    return { code, out: run.out.join('\n'), err: run.err.join('\n') }
  }
  /** The Bandstand database's content (the export without its time). */
  const content = () => {
    const handle = openDatabase(join(data, 'bandstand.db'))
    try {
      return { ...buildBandExport(handle.sqlite, { now: new Date(0) }), exportedAt: '' }
    } finally {
      handle.close()
    }
  }
  return { dir, source, data, cli, content }
}

test('--dry-run writes nothing and reports what the import does; --json', async (t) => {
  const { source, data, cli, content } = setup(t)

  // On a DATA_DIR without a database, a dry run does not even create one.
  const dry = await cli('import-librestage', source, '--dry-run', '--json')
  assert.equal(dry.code, 0, dry.err)
  assert.ok(!existsSync(join(data, 'bandstand.db')), 'no database created')
  const dryReport = JSON.parse(dry.out) as LibreStageReport
  assert.equal(dryReport.dryRun, true)
  assert.deepEqual(dryReport.resetLinks, [])

  assert.equal((await cli('db:migrate')).code, 0)
  const before = content()
  const again = await cli('import-librestage', source, '--dry-run')
  assert.equal(again.code, 0)
  assert.match(again.out, /DRY RUN, nothing written/)
  assert.match(again.out, /4 members log in with their libreStage password/)
  assert.match(again.out, /A real import prints 0 reset links .*with --reset-links one per active/s)
  assert.deepEqual(content(), before, 'the database is unchanged')

  const real = await cli('import-librestage', source, '--json', '--reset-links')
  assert.equal(real.code, 0, real.err)
  const report = JSON.parse(real.out) as LibreStageReport
  assert.deepEqual(
    { ...report, dryRun: true, resetLinks: [] },
    dryReport,
    'the dry run reported exactly what the import did'
  )
  assert.equal(report.resetLinks.length, 4)
  assert.ok(report.resetLinks.every((l) => l.url.startsWith('https://band.example/app/')))
  const expires = new Date(report.resetLinks[0]!.expiresAt).getTime() - Date.now()
  assert.ok(expires > 71 * 3600_000 && expires <= 72 * 3600_000, 'import links live 72 hours')
})

test('the text report: per table, not imported, users, reset links', async (t) => {
  const { source, cli } = setup(t)
  const run = await cli('import-librestage', source)
  assert.equal(run.code, 0, run.err)
  assert.match(run.out, /^set_songs +33 +33 +0 {2}setlist_entries, repertoire_entries$/m)
  assert.match(run.out, /^users +5 +5 +0 {2}users$/m)
  assert.doesNotMatch(run.out, /user_pw/, 'the passwords are kept')
  assert.doesNotMatch(run.out, /Skipped:/, 'nothing skipped')
  assert.match(
    run.out,
    /table refresh_tokens: 2 rows — the phones and browsers logged in to libreStage/
  )
  assert.match(run.out, /dieter: Dieter Hahn, member, inactive/)
  assert.match(run.out, /4 members log in with their libreStage password and the username above/)
  assert.doesNotMatch(run.out, /reset-password#token=/, 'no reset links without --reset-links')
})

test('--reset-links: a link per active member, as before', async (t) => {
  const { source, cli } = setup(t)
  const run = await cli('import-librestage', source, '--reset-links')
  assert.equal(run.code, 0, run.err)
  assert.match(run.out, /anna \(Anna Schäfer\): https:\/\/band\.example\/app\/reset-password#token=/)
  assert.equal(run.out.match(/reset-password#token=/g)?.length, 4)
  assert.doesNotMatch(run.out, /dieter \(Dieter Hahn\): https/, 'no link for an inactive user')
})

test('refuses a database with band data unless --force, which merges users by name', async (t) => {
  const { source, data, cli, content } = setup(t)
  assert.equal(
    (await cli('user:create', 'admin', '--role', 'admin', '--password', 'the first boss of it all'))
      .code,
    0
  )
  // Only the first admin: still empty for an import.
  const dry = await cli('import-librestage', source, '--dry-run')
  assert.equal(dry.code, 0, dry.err)

  assert.equal((await cli('user:create', 'zoe', '--password', 'she plays the tuba loudly')).code, 0)
  const before = content()
  const refused = await cli('import-librestage', source)
  assert.equal(refused.code, 1)
  assert.match(refused.err, /already holds band data.*--force/s)
  assert.deepEqual(content(), before, 'nothing written')

  const forced = await cli('import-librestage', source, '--force', '--json')
  assert.equal(forced.code, 0, forced.err)
  const report = JSON.parse(forced.out) as LibreStageReport
  const admin = report.users.find((u) => u.sourceUsername === 'admin')!
  assert.equal(admin.merged, true)
  assert.ok(!report.resetLinks.some((l) => l.username === 'admin'), 'the admin keeps a password')
  const handle = openDatabase(join(data, 'bandstand.db'))
  t.after(() => handle.close())
  const users = handle.sqlite
    .prepare('SELECT username, role, password_hash AS hash FROM users ORDER BY id')
    .all() as Array<{ username: string; role: string; hash: string }>
  assert.deepEqual(
    users.map((u) => u.username),
    ['admin', 'zoe', 'anna', 'bernd', 'carla', 'dieter']
  )
  assert.ok(await verifyPassword('the first boss of it all', users[0]!.hash))
  const votes = handle.sqlite
    .prepare('SELECT count(*) FROM song_votes WHERE user_id = 1')
    .pluck()
    .get()
  assert.equal(votes, 1, "the libreStage admin's vote is the Bandstand admin's")
})

test('a broken, foreign or missing file: a clear error, Bandstand untouched', async (t) => {
  const { dir, source, data, cli, content } = setup(t)
  assert.equal((await cli('db:migrate')).code, 0)
  const db = join(data, 'bandstand.db')
  const bytes = sha256(db)
  const before = content()
  const sourceBytes = sha256(source)

  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['missing.db', () => {}, /does not exist/],
    ['text.db', (f) => writeFileSync(f, 'song;artist\nHey Jude;Beatles\n'), /not an SQLite database/],
    ['empty.db', (f) => writeFileSync(f, ''), /not an SQLite database/],
    [
      'truncated.db',
      (f) => {
        copyFileSync(source, f)
        truncateSync(f, 8192)
      },
      /damaged/
    ],
    ['bandstand.db', (f) => copyFileSync(db, f), /not a libreStage database.*missing tables.*alembic_version/s],
    [
      'no-alembic.db',
      (f) => {
        const x = createLibreStageDb(f)
        x.exec('DROP TABLE alembic_version')
        x.close()
      },
      /missing table alembic_version$/
    ],
    [
      'no-column.db',
      (f) => {
        const x = createLibreStageDb(f)
        x.exec('ALTER TABLE songs DROP COLUMN ytlink; ALTER TABLE gigs DROP COLUMN venue')
        x.close()
      },
      /missing columns songs\.ytlink, gigs\.venue|missing columns gigs\.venue, songs\.ytlink/
    ],
    [
      'two-versions.db',
      (f) => {
        const x = createLibreStageDb(f)
        x.exec("INSERT INTO alembic_version VALUES ('0000000000aa')")
        x.close()
      },
      /alembic_version holds 2 rows/
    ],
    [
      'running.db',
      (f) => {
        copyFileSync(source, f)
        writeFileSync(`${f}-wal`, 'x')
      },
      /still running/
    ]
  ]
  for (const [name, make, message] of cases) {
    const file = join(dir, name)
    make(file)
    const run = await cli('import-librestage', file)
    assert.equal(run.code, 1, name)
    assert.match(run.err, message, name)
    assert.ok(!/\n\s+at /.test(run.err), `${name}: a message, not a stack trace`)
  }
  assert.equal(sha256(db), bytes, "Bandstand's database: the same bytes")
  assert.ok(!existsSync(`${db}-wal`) || readFileSync(`${db}-wal`).length === 0)
  assert.deepEqual(content(), before, 'and the same rows')
  assert.equal(sha256(source), sourceBytes)
})

test('limits: a source past the size or row limit is refused, naming the limit', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-limits-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'app.db')
  buildDemoReplica(file)
  const limits = { maxSourceBytes: 256 * 1024 * 1024, maxRowsPerTable: 100_000 }
  assert.ok(readLibreStage(file, limits).rows.set_songs.length === 33)
  assert.throws(
    () => readLibreStage(file, { ...limits, maxSourceBytes: 64 * 1024 }),
    (error: Error) =>
      error instanceof LibreStageImportError && /at most 65536 bytes/.test(error.message)
  )
  assert.throws(
    () => readLibreStage(file, { ...limits, maxRowsPerTable: 30 }),
    (error: Error) =>
      error instanceof LibreStageImportError &&
      /table (rehearsal_song|set_songs) has (72|33) rows; the import takes at most 30/.test(
        error.message
      )
  )
  // The limit counts every table, also those the import leaves out.
  const db = new Database(file)
  db.exec(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120) ' +
      'INSERT INTO token_blacklist (token_hash, blacklisted_at, expires_at) ' +
      "SELECT 'h' || i, '2026-01-01', '2026-01-02' FROM n"
  )
  db.close()
  assert.throws(
    () => readLibreStage(file, { ...limits, maxRowsPerTable: 100 }),
    /table token_blacklist has 121 rows/
  )
})

test('a libreStage database in WAL mode is read without a file written beside it', async (t) => {
  const { dir, source, cli } = setup(t)
  const db = new Database(source)
  db.pragma('journal_mode = WAL')
  db.close()
  const bytes = sha256(source)
  const run = await cli('import-librestage', source, '--dry-run')
  assert.equal(run.code, 0, run.err)
  assert.equal(sha256(source), bytes)
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.startsWith('app.db')),
    ['app.db'],
    'no -wal or -shm file created beside the source'
  )
})
