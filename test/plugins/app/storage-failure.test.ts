import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import { openDatabase } from '#src/db/client.js'
import { buildBandExport } from '#src/repositories/band-export.js'
import { importBandExport } from '#src/repositories/band-import.js'
import { runCli } from '#src/cli.js'
import { PROBE_INTERVAL_MS, storageFailureCode } from '#src/storage/storage-health.js'
import {
  anonymous,
  client,
  createTestApp,
  createUser,
  PASSWORD,
  sessionClient
} from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'

// Every kind of write on storage that refuses to take it: nothing may be answered 2xx that is not
// stored. As root (CI) DATA_DIR is a small tmpfs that the test fills up, so commits fail as on a
// full disk (SQLITE_FULL when the write-ahead log cannot grow); otherwise PRAGMA max_page_count
// stops the database from growing: SQLite then refuses before the commit, and only writes that
// need a new page, so that run checks only that what was answered is stored
// (STORAGE_TEST_MODE=max_page_count runs it as root too).

const JWT_SECRET = 'test-secret-test-secret-test-secret-42'

interface Storage {
  dir: string
  mode: 'tmpfs' | 'max_page_count'
  cleanup(): void
}

function failingStorage (): Storage {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-full-'))
  if (process.getuid?.() === 0 && process.env.STORAGE_TEST_MODE !== 'max_page_count') {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', dir], {
        stdio: 'ignore'
      })
      return {
        dir,
        mode: 'tmpfs',
        cleanup () {
          execFileSync('umount', [dir])
          rmSync(dir, { recursive: true, force: true })
        }
      }
    } catch {
      // A container without the mount capability: the fallback below.
    }
  }
  const cleanup = () => rmSync(dir, { recursive: true, force: true })
  return { dir, mode: 'max_page_count', cleanup }
}

/** Fills the file system up to the last byte; returns a function that frees it again. */
function fillUp (dir: string): () => void {
  const file = join(dir, 'filler')
  const fd = openSync(file, 'w')
  for (const size of [1024 * 1024, 4096, 1]) {
    const block = Buffer.alloc(size, 1)
    try {
      for (;;) writeSync(fd, block)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
    }
  }
  closeSync(fd)
  return () => unlinkSync(file)
}

/** No write may find room: the write-ahead log is emptied first (it would be reused). */
function refuseWrites (storage: Storage, connections: Database.Database[]): () => void {
  for (const sqlite of connections) sqlite.pragma('wal_checkpoint(TRUNCATE)')
  if (storage.mode === 'tmpfs') return fillUp(storage.dir)
  const limits = connections.map((sqlite) => {
    const before = sqlite.pragma('max_page_count', { simple: true }) as number
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`)
    return () => sqlite.pragma(`max_page_count = ${before}`)
  })
  return () => limits.forEach((reset) => reset())
}

test('no write is acknowledged that is not stored: create, update, delete, login, refresh, ' +
  'logout, setlist save, live tap, import', async (t) => {
  const storage = failingStorage()
  t.diagnostic(`storage: ${storage.mode}`)
  const dataDir = join(storage.dir, 'data')
  const importDir = join(storage.dir, 'import')
  mkdirSync(dataDir)
  const logged: Array<{ level: number; msg: string; sqliteCode?: string }> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      logged.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
      done()
    }
  })
  const ctx = await createTestApp(
    { dataDir, databaseFile: join(dataDir, 'bandstand.db'), minFreeMb: 1 },
    {},
    { logger: { level: 'error', stream } }
  )
  const importTarget = openDatabase(join(importDir, 'bandstand.db'))
  const exportFile = join(mkdtempSync(join(tmpdir(), 'bandstand-export-')), 'band.json')
  t.after(() => {
    importTarget.close()
    return ctx.close().finally(() => {
      storage.cleanup()
      rmSync(join(exportFile, '..'), { recursive: true, force: true })
    })
  })
  const { app } = ctx

  // The band before: an editor logged in for real (a refresh token), songs, a gig with a setlist.
  const editorUser = await createUser(app, 'erika', 'editor')
  const editor = client(app, editorUser)
  assert.equal((await editor.post('/login', { username: 'erika', password: PASSWORD }))
    .statusCode, 200)
  const kept = insertSong(app, 'Kept title')
  const doomed = insertSong(app, 'Not deleted')
  const played = insertSong(app, 'Third')
  const gig = await createGig(editor)
  const setlist = await putSetlist(editor, gig.id, [[kept, played]])
  const entryId = setlist.sets[0].entries[0].id as number
  writeFileSync(exportFile, JSON.stringify(buildBandExport(app.sqlite, { now: ctx.now() })))
  const sessionsBefore = app.sqlite.prepare('SELECT count(*) FROM sessions').pluck().get()
  const leaving = sessionClient(app, editorUser)

  const free = refuseWrites(storage, [app.sqlite, importTarget.sqlite])
  const answers: Record<string, number> = {}
  const answer = async (kind: string, response: Promise<{ statusCode: number, json(): any }>) => {
    const r = await response
    answers[kind] = r.statusCode
    if (r.statusCode >= 300) assert.equal(r.json().code, 'STORAGE_FAILED', kind)
  }
  await answer('create', editor.post('/songs', { title: 'Lost song' }))
  await answer('update', editor.patch(`/songs/${kept}`, { title: 'Changed title' }))
  await answer('delete', editor.delete(`/songs/${doomed}`))
  const secondLogin = client(app, editorUser)
  await answer('login', secondLogin.post('/login', { username: 'erika', password: PASSWORD }))
  const refreshed = client(app, editorUser, editor.jar)
  await answer('refresh', refreshed.post('/refresh'))
  await answer('logout', leaving.post('/logout'))
  await answer('live tap', editor.put(`/gigs_lm/${gig.id}/`, { entryId, status: 'played' }))
  // The same entries (ids kept) in a renamed set with a note: a change of every table involved.
  await answer('setlist save', editor.put(`/gigs/${gig.id}/setlist`, {
    version: setlist.version,
    sets: [{
      id: setlist.sets[0].id,
      name: 'Renamed set',
      entries: [{ id: entryId, songId: kept, notes: 'a note' }, { songId: played }]
    }]
  }))
  const health = await anonymous(app).get('/health')

  let importError: unknown
  let cliCode: number | undefined
  if (storage.mode === 'tmpfs') {
    // The command line, on a database it finds migrated (the test holds it open meanwhile).
    const err: string[] = []
    const code = await runCli(['import', exportFile], { DATA_DIR: importDir, JWT_SECRET }, {
      out: () => {},
      err: (line) => err.push(line)
    })
    cliCode = code
    answers.import = code === 0 ? 200 : 503
    if (code !== 0) {
      // The full disk refuses either the DATA_DIR lock (exit 78, a start problem) or the
      // import's commit (exit 1): one line saying so either way.
      assert.equal(err.length, 1, err.join('\n'))
      if (code === 78) {
        assert.match(err[0]!, /^error: \S+bandstand\.lock: no space left on the device/)
      } else {
        assert.equal(code, 1)
        assert.match(err[0]!, /^error: the database could not be written \(SQLITE_FULL: /)
      }
    }
  }
  // Without a tmpfs, and when the full disk refused the CLI's lock before the import began, the
  // import's own commit is made to fail in-process.
  if (storage.mode !== 'tmpfs' || cliCode === 78) {
    try {
      const document = JSON.parse(readFileSync(exportFile, 'utf8'))
      importBandExport(importTarget, document, { now: ctx.now() })
      answers.import = 200
    } catch (error) {
      importError = error
      answers.import = 503
    }
  }
  free()

  t.diagnostic(`answers while storage refused writes: ${JSON.stringify(answers)}`)
  // Every refusal of the server is logged at error level with the SQLite code.
  const refusals = Object.entries(answers).filter(([kind, status]) => kind !== 'import' &&
    status === 503).length
  const failures = logged.filter((l) => l.msg === 'write failed: the data could not be stored')
  assert.equal(failures.length, refusals, JSON.stringify(logged))
  assert.ok(failures.every((l) => l.level === 50 && l.sqliteCode === 'SQLITE_FULL'))
  if (storage.mode === 'tmpfs') {
    // A full disk refuses every one of them.
    for (const [kind, status] of Object.entries(answers)) assert.equal(status, 503, kind)
    assert.equal(health.statusCode, 503)
    const reasons = health.json().reasons as string[]
    const has = (pattern: RegExp) =>
      assert.ok(reasons.some((r) => pattern.test(r)), String(reasons))
    has(/^\d+ MB free in DATA_DIR, below MIN_FREE_MB/)
    has(/^the last write failed \(SQLITE_FULL/)
    has(/^the database cannot be written \(SQLITE_FULL\)$/)
    assert.equal(storageFailureCode(importError), cliCode === 78 ? 'SQLITE_FULL' : undefined)
  } else if (importError) {
    // Writes that find room in the pages the database has succeed: only what was answered is
    // checked below.
    assert.equal(storageFailureCode(importError), 'SQLITE_FULL')
  }

  // What a restart finds: a connection of its own, reading the files.
  const disk = new Database(join(dataDir, 'bandstand.db'), { readonly: true })
  const one = <T>(sql: string, ...params: unknown[]) =>
    disk.prepare(sql).pluck().get(...params) as T
  const stored = (kind: string) => (answers[kind] ?? 0) < 300
  assert.equal(one<number>("SELECT count(*) FROM songs WHERE title = 'Lost song'"),
    stored('create') ? 1 : 0, 'create')
  assert.equal(one<string>('SELECT title FROM songs WHERE id = ?', kept),
    stored('update') ? 'Changed title' : 'Kept title', 'update')
  assert.equal(one<number>('SELECT count(*) FROM songs WHERE id = ?', doomed),
    stored('delete') ? 0 : 1, 'delete')
  assert.equal(one<number>('SELECT count(*) FROM sessions'),
    (sessionsBefore as number) + 1 + (stored('login') ? 1 : 0), 'login')
  assert.equal(one<number>('SELECT count(*) FROM sessions WHERE revoked_at IS NOT NULL'),
    stored('logout') ? 1 : 0, 'logout')
  assert.equal(one<number>('SELECT setlist_version FROM gigs WHERE id = ?', gig.id),
    setlist.version + (stored('setlist save') ? 1 : 0), 'setlist save')
  assert.equal(one<string>('SELECT name FROM setlist_sets WHERE id = ?', setlist.sets[0].id),
    stored('setlist save') ? 'Renamed set' : 'Set 1', 'setlist save')
  assert.equal(one<string | null>('SELECT notes FROM setlist_entries WHERE id = ?', entryId),
    stored('setlist save') ? 'a note' : null, 'setlist save')
  assert.equal(one<string>('SELECT status FROM setlist_entries WHERE id = ?', entryId),
    stored('live tap') ? 'played' : 'planned', 'live tap')
  disk.close()
  const importDisk = new Database(join(importDir, 'bandstand.db'), { readonly: true })
  const imported = importDisk.prepare('SELECT count(*) FROM songs').pluck().get()
  importDisk.close()
  assert.equal(imported, stored('import') ? 3 : 0, 'import')

  // A refresh that was refused left the session as it was: its token still renews it once.
  if (!stored('refresh')) {
    assert.equal((await refreshed.post('/refresh')).statusCode, 200, 'the session survived')
  }
  // Writes work again, and /health says so.
  assert.equal((await editor.post('/songs', { title: 'After the disk was freed' })).statusCode, 201)
  ctx.advance(PROBE_INTERVAL_MS) // the failed probe stands for its interval
  const healthy = await anonymous(app).get('/health')
  assert.equal(healthy.statusCode, 200, healthy.body)
})
