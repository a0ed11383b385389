import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, migrate } from '#src/db/orm.js'
import {
  backupDue,
  backupFileName,
  backupNow,
  listBackups,
  writeBackup
} from '#src/storage/backup.js'
import { runCli } from '#src/cli.js'
import { migrationsFolder, openDatabase } from '#src/db/client.js'
import { createTestApp } from '#test/helpers.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'bandstand-backups-'))
const DAY = 24 * 60 * 60 * 1000

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

const songTitles = (file: string) => {
  const copy = new Database(file, { readonly: true })
  try {
    const rows = copy.prepare('select title from songs order by title').all()
    return (rows as Array<{ title: string }>).map((row) => row.title)
  } finally {
    copy.close()
  }
}

test('writeBackup: a whole, checked, private copy without side files; never over a file',
  (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const handle = openDatabase(join(dir, 'bandstand.db'))
    t.after(() => handle.close())
    handle.sqlite.exec(
      'insert into songs (title, status, created_at, updated_at) ' +
        "values ('Kept', 'active', 'x', 'x')"
    )
    const target = join(dir, 'copy.db')
    writeBackup(handle.sqlite, target)
    assert.equal(statSync(target).mode & 0o777, 0o600)
    assert.deepEqual(songTitles(target), ['Kept'])
    assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith('copy') ||
      name.includes('partial')), ['copy.db'], 'no -wal, -shm or partial file')
    // The copy is in rollback-journal mode: copying it back needs no side file.
    assert.equal(readFileSync(target)[18], 1)
    assert.throws(() => writeBackup(handle.sqlite, target), /exists/)
    // A backup that fails half way (here: the directory is missing) leaves nothing.
    assert.throws(() => writeBackup(handle.sqlite, join(dir, 'missing', 'copy.db')))
    assert.ok(!existsSync(join(dir, 'missing')))
  })

test('backupNow prunes to BACKUP_KEEP, backupDue after a day; db:backup without a file uses ' +
  'BACKUP_DIR', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const backupDir = join(dir, 'backups')
  const settings = { dir: backupDir, keep: 3 }
  const handle = openDatabase(join(dir, 'bandstand.db'))
  const start = Date.parse('2026-11-01T03:00:00Z')
  assert.ok(backupDue(settings, new Date(start)), 'due without any backup')
  for (let day = 0; day < 5; day++) backupNow(handle.sqlite, settings, new Date(start + day * DAY))
  // A partial file of a crashed backup is removed at the next prune.
  writeFileSync(join(backupDir, '.bandstand-20261101T030000Z.db.partial-999999'), 'half')
  backupNow(handle.sqlite, settings, new Date(start + 5 * DAY))
  handle.close()
  assert.deepEqual(listBackups(backupDir), [3, 4, 5].map((day) =>
    backupFileName(new Date(start + day * DAY))))
  assert.deepEqual(readdirSync(backupDir).filter((name) => name.includes('partial')), [])
  assert.ok(!backupDue(settings, new Date(start + 5 * DAY + DAY - 1000)))
  assert.ok(backupDue(settings, new Date(start + 6 * DAY)))

  const env = { DATA_DIR: dir, BACKUP_DIR: backupDir, BACKUP_KEEP: '3' }
  const cli = io()
  assert.equal(await runCli(['db:backup'], env, cli.io), 0, cli.err.join('\n'))
  assert.match(cli.out.join('\n'), /backup written to .*backups\/bandstand-\d{8}T\d{6}Z\.db .*ok/)
  assert.equal(listBackups(backupDir).length, 3)
  const missing = io()
  assert.equal(await runCli(['db:backup'], { DATA_DIR: dir }, missing.io), 64)
  assert.match(missing.err.join('\n'), /missing <file> \(or set BACKUP_DIR, in DATA_DIR\/bandstand.env/)
})

test('the server backs up at start when due, not again the same day', async (t) => {
  const backupDir = tempDir()
  t.after(() => rmSync(backupDir, { recursive: true, force: true }))
  const env = { BACKUP_DIR: backupDir, BACKUP_KEEP: '14' }
  const first = await createTestApp({}, env)
  t.after(() => first.close())
  assert.equal(listBackups(backupDir).length, 1)
  const second = await createTestApp({}, env)
  t.after(() => second.close())
  assert.equal(listBackups(backupDir).length, 1, 'the newest is less than a day old')
})

test('a migration is preceded by a backup of the database as it was', (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  // The database as the previous version left it: all migrations but the last.
  const older = join(dir, 'older-migrations')
  cpSync(migrationsFolder, older, { recursive: true })
  const journalFile = join(older, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'))
  const last = journal.entries.pop()
  writeFileSync(journalFile, JSON.stringify(journal))
  const databaseFile = join(dir, 'bandstand.db')
  const sqlite = new Database(databaseFile)
  migrate(drizzle(sqlite), { migrationsFolder: older })
  sqlite.exec(
    "insert into songs (title, status, created_at, updated_at) values ('Old', 'active', 'x', 'x')"
  )
  sqlite.close()

  const backupDir = join(dir, 'backups')
  const handle = openDatabase(databaseFile, { backup: { dir: backupDir, keep: 14 } })
  t.after(() => handle.close())
  assert.equal(handle.migrations.applied, 1)
  assert.ok(handle.preMigrationBackup?.endsWith('-pre-migration.db'), handle.preMigrationBackup!)
  const copy = new Database(handle.preMigrationBackup!, { readonly: true })
  const hashes = copy.prepare('select count(*) as n from __drizzle_migrations').get() as
    { n: number }
  copy.close()
  assert.equal(hashes.n, journal.entries.length, `the backup is from before ${last.tag}`)
  assert.deepEqual(songTitles(handle.preMigrationBackup!), ['Old'])

  // Opened again: nothing pending, no further backup.
  handle.close()
  const again = openDatabase(databaseFile, { backup: { dir: backupDir, keep: 14 } })
  again.close()
  assert.equal(again.migrations.applied, 0)
  assert.equal(listBackups(backupDir).length, 1)
})
