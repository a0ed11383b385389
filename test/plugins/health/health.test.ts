import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import Database from 'better-sqlite3'
import {
  PROBE_INTERVAL_MS, StorageHealth, storageFailureCode
} from '#src/storage/storage-health.js'
import { APP_VERSION } from '#src/version.js'
import { buildApp } from '#src/app.js'
import { anonymous, createTestApp, userClient, type TestContext } from '#test/helpers.js'

interface HealthBody {
  status: string
  database: string
  reasons: string[]
  version: string
  commit: string
}

async function health (ctx: TestContext) {
  const response = await anonymous(ctx.app).get('/health')
  return { statusCode: response.statusCode, body: response.json() as HealthBody }
}

/** The write probes /health made: the probe writes the header's user_version back. */
function countProbes (ctx: TestContext): () => number {
  let probes = 0
  ctx.app.dbTrace.listener = (statement) => {
    if (/^PRAGMA user_version = \d+$/.test(statement)) probes++
  }
  return () => probes
}

test('/health: ok, unauthenticated, with version and commit', async (t) => {
  const ctx = await createTestApp({ minFreeMb: 0 })
  t.after(() => ctx.close())
  const { statusCode, body } = await health(ctx)
  assert.equal(statusCode, 200)
  assert.deepEqual(body, {
    status: 'ok',
    database: 'ok',
    reasons: [],
    version: APP_VERSION,
    commit: body.commit
  })
  assert.match(body.commit, /^([0-9a-f]{7,40}|unknown)$/)
})

test('/health: 503 when DATA_DIR has less free space than MIN_FREE_MB', async (t) => {
  // No test machine has 10 TB free.
  const ctx = await createTestApp({}, { MIN_FREE_MB: '9999999' })
  t.after(() => ctx.close())
  assert.equal(ctx.config.minFreeMb, 9999999)
  const { statusCode, body } = await health(ctx)
  assert.equal(statusCode, 503)
  assert.equal(body.status, 'degraded')
  assert.equal(body.database, 'ok')
  assert.equal(body.reasons.length, 1)
  assert.match(body.reasons[0]!, /^\d+ MB free in DATA_DIR, below MIN_FREE_MB \(9999999 MB\)$/)
})

test('/health probes writing at most every 30 s and answers 503 while it fails', async (t) => {
  const ctx = await createTestApp({ minFreeMb: 0 })
  t.after(() => ctx.close())
  const probes = countProbes(ctx)
  assert.equal((await health(ctx)).statusCode, 200)
  assert.equal(probes(), 1)
  // The database refuses writes from now on (as a read-only file or directory would).
  ctx.app.sqlite.pragma('query_only = ON')
  assert.equal((await health(ctx)).statusCode, 200, 'no probe before the interval has passed')
  assert.equal(probes(), 1)
  ctx.advance(PROBE_INTERVAL_MS)
  const failing = await health(ctx)
  assert.equal(failing.statusCode, 503)
  assert.equal(failing.body.database, 'not writable')
  assert.deepEqual(failing.body.reasons, ['the database cannot be written (SQLITE_READONLY)'])
  assert.equal(probes(), 2)
  ctx.app.sqlite.pragma('query_only = OFF')
  assert.equal((await health(ctx)).statusCode, 503, 'the failed probe stands for its interval')
  ctx.advance(PROBE_INTERVAL_MS)
  assert.equal((await health(ctx)).statusCode, 200)
  assert.equal(probes(), 3)
  // The probe changes no row: revisions (and the ETags made of them) stay.
  const before = ctx.app.dbRevision()
  ctx.advance(PROBE_INTERVAL_MS)
  await health(ctx)
  assert.equal(ctx.app.dbRevision(), before)
})

test('a failed write: 503 STORAGE_FAILED, logged with the SQLite code, /health 503 until a ' +
  'write succeeds', async (t) => {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((l) => JSON.parse(l)))
      done()
    }
  })
  const ctx = await createTestApp({ minFreeMb: 0 }, {}, { logger: { level: 'error', stream } })
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'erika', 'editor')
  assert.equal((await health(ctx)).statusCode, 200)
  ctx.app.sqlite.pragma('query_only = ON')
  const refused = await editor.post('/songs', { title: 'Not stored' })
  assert.equal(refused.statusCode, 503)
  assert.equal(refused.json().code, 'STORAGE_FAILED')
  assert.match(refused.json().message, /could not be stored \(SQLITE_READONLY\)/)
  const logged = lines.find((l) => l.msg === 'write failed: the data could not be stored')
  assert.ok(logged, JSON.stringify(lines))
  assert.equal(logged.level, 50, 'error level')
  assert.equal(logged.sqliteCode, 'SQLITE_READONLY')
  assert.doesNotMatch(JSON.stringify(lines), /Not stored/, 'the statement values are not logged')

  const degraded = await health(ctx)
  assert.equal(degraded.statusCode, 503)
  assert.equal(degraded.body.database, 'ok', 'the probe is not due yet')
  assert.equal(degraded.body.reasons.length, 1)
  assert.match(degraded.body.reasons[0]!, /^the last write failed \(SQLITE_READONLY at \d{4}-/)

  ctx.app.sqlite.pragma('query_only = OFF')
  const songs = (await editor.get('/songs')).json() as Array<{ title: string }>
  assert.equal(songs.length, 0)
  assert.equal((await health(ctx)).statusCode, 503, 'a read does not clear a failed write')
  assert.equal((await editor.post('/songs', { title: 'Stored' })).statusCode, 201)
  assert.equal((await health(ctx)).statusCode, 200)
})

test('a successful write probe with enough free space clears a failed write', async (t) => {
  const ctx = await createTestApp({ minFreeMb: 0 })
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'erika', 'editor')
  assert.equal((await health(ctx)).statusCode, 200, 'probed')
  ctx.app.sqlite.pragma('query_only = ON')
  assert.equal((await editor.post('/songs', { title: 'Not stored' })).statusCode, 503)
  ctx.app.sqlite.pragma('query_only = OFF')
  assert.equal((await health(ctx)).statusCode, 503)
  ctx.advance(PROBE_INTERVAL_MS)
  assert.equal((await health(ctx)).statusCode, 200)
})

test('a start on a database that refuses writes: the session pruning is logged and reported, ' +
  'the server starts', async (t) => {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((l) => JSON.parse(l)))
      done()
    }
  })
  const first = await createTestApp({ minFreeMb: 0 })
  t.after(() => first.close())
  const app = await buildApp({
    config: first.config,
    clock: first.now,
    createFirstAdmin: false,
    logger: { level: 'error', stream }
  })
  t.after(() => app.close())
  app.sqlite.pragma('query_only = ON') // before onReady, where the pruning runs
  await app.ready()
  const pruning = lines.find((l) => String(l.msg).startsWith('pruning ended sessions failed'))
  assert.equal(pruning?.sqliteCode, 'SQLITE_READONLY', JSON.stringify(lines))
  const response = await app.inject('/health')
  assert.equal(response.statusCode, 503)
  assert.ok((response.json() as HealthBody).reasons
    .some((r) => r.startsWith('the last write failed (SQLITE_READONLY')))
})

test('storage failures are told from other errors by their SQLite code, also wrapped', () => {
  const sqlite = (code: string) => Object.assign(new Error(code), { code })
  const wrapped = (cause: Error) => new Error('Failed query: …', { cause })
  for (const code of ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC',
    'SQLITE_READONLY', 'SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN', 'SQLITE_CORRUPT',
    'SQLITE_NOTADB', 'SQLITE_PERM']) {
    assert.equal(storageFailureCode(sqlite(code)), code)
    assert.equal(storageFailureCode(wrapped(sqlite(code))), code)
  }
  for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_BUSY', 'SQLITE_ERROR', 'SQLITE_FULLX',
    'ENOSPC']) {
    assert.equal(storageFailureCode(wrapped(sqlite(code))), undefined, code)
  }
  assert.equal(storageFailureCode(new Error('plain')), undefined)
  assert.equal(storageFailureCode('SQLITE_FULL'), undefined)
})

test('low free space is logged once when it begins and once when it ends', () => {
  const sqlite = new Database(':memory:')
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-space-'))
  const lines: Array<[string, string]> = []
  const log = {
    warn: (_: object, message: string) => lines.push(['warn', message]),
    info: (_: object, message: string) => lines.push(['info', message])
  }
  const options = { sqlite, dataDir: dir, minFreeMb: 9_999_999, clock: () => new Date(), log }
  try {
    const health = new StorageHealth(options)
    health.check()
    health.check()
    assert.equal(lines.length, 1)
    assert.equal(lines[0]![0], 'warn')
    assert.match(lines[0]![1], new RegExp('^low disk space: \\d+ MB free in DATA_DIR, below ' +
      'MIN_FREE_MB \\(9999999 MB\\): /health answers 503 until there is more$'))
    options.minFreeMb = 0
    health.check()
    health.check()
    assert.equal(lines.length, 2)
    assert.match(lines[1]![1], /^disk space back: \d+ MB free in DATA_DIR$/)
    assert.equal(lines[1]![0], 'info')
  } finally {
    sqlite.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
