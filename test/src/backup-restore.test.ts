import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { projectPath } from '#src/project-path.js'
import { loginOverHttp, startServer } from '#test/server-process.js'

const ADMIN_PASSWORD = 'backup test admin password 2026'
const LANES = 4
// Enough pages that SQLite's backup takes many steps while the server keeps committing.
const PRELOADED = 20_000

/**
 * `node dist/src/cli.js db:backup <file>` as an operator (or cron) would run it next to the live
 * server.
 */
async function runBackup (
  dataDir: string,
  file: string
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [projectPath('dist', 'src', 'cli.js'), 'db:backup', file], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, output }
}

const titles = (file: string, like: string) => {
  const sqlite = new Database(file, { readonly: true })
  try {
    return new Set(
      (
        sqlite.prepare('SELECT title FROM songs WHERE title LIKE ?').all(like) as Array<{
          title: string
        }>
      ).map((r) => r.title)
    )
  } finally {
    sqlite.close()
  }
}

test(
  'db:backup under write load is consistent; the documented restore brings exactly that state back',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-backup-'))
    const outDir = mkdtempSync(join(tmpdir(), 'bandstand-backup-out-'))
    t.after(() => {
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(outDir, { recursive: true, force: true })
    })
    const env = { DATA_DIR: dataDir, ADMIN_PASSWORD }
    const databaseFile = join(dataDir, 'bandstand.db')

    // First start creates and migrates the database; then a band's worth of history is loaded
    // directly.
    const first = await startServer(env)
    assert.equal(await first.stop(), 0)
    const preload = new Database(databaseFile)
    const insert = preload.prepare(
      'INSERT INTO songs (title, artist, status, notes, created_at, updated_at) ' +
        "VALUES (?, 'Archive', 'retired', ?, ?, ?)"
    )
    const stamp = new Date().toISOString()
    preload.transaction(() => {
      for (let i = 0; i < PRELOADED; i++) insert.run(`Archive ${i}`, 'n'.repeat(200), stamp, stamp)
    })()
    preload.close()

    const server = await startServer(env)
    t.after(() => server.stop('SIGKILL'))
    const cookie = await loginOverHttp(server.base, 'admin', ADMIN_PASSWORD)

    const acknowledged: string[] = []
    const inFlight = new Set<string>()
    let prefix = 'Load'
    let stop = false
    const writer = async (lane: number) => {
      // eslint-disable-next-line no-unmodified-loop-condition -- the test sets it
      for (let i = 0; !stop; i++) {
        const title = `${prefix} ${lane}-${i}`
        inFlight.add(title)
        const response = await fetch(`${server.base}/songs`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ title, status: 'accepted', durationSeconds: 200 })
        })
        const body = await response.text()
        if (response.status !== 201) throw new Error(`write answered ${response.status}: ${body}`)
        acknowledged.push(title)
        inFlight.delete(title)
      }
    }
    let lanes = Array.from({ length: LANES }, (_, lane) => writer(lane))
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 5))

    const backupFile = join(outDir, 'bandstand-backup.db')
    const before = new Set(acknowledged)
    const backup = await runBackup(dataDir, backupFile)
    // Everything the backup may contain: acknowledged by now, or sent and not yet answered.
    const possible = new Set([...acknowledged, ...inFlight])
    const afterCount = acknowledged.length
    stop = true
    await Promise.all(lanes)

    assert.equal(backup.code, 0, backup.output)
    assert.match(backup.output, /integrity ok/)
    assert.ok(afterCount > before.size, 'the server kept writing while the backup ran')

    const copy = new Database(backupFile, { readonly: true })
    assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok')
    assert.deepEqual(copy.pragma('foreign_key_check'), [])
    const archived = (
      copy.prepare("SELECT count(*) AS n FROM songs WHERE title LIKE 'Archive %'").get() as {
        n: number
      }
    ).n
    const users = (copy.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n
    copy.close()
    assert.equal(archived, PRELOADED, 'the whole history is in the copy')
    assert.equal(users, 1)

    const backedUp = titles(backupFile, 'Load %')
    const missing = [...before].filter((title) => !backedUp.has(title))
    assert.deepEqual(missing, [], 'every write acknowledged before the backup started is in it')
    const unexpected = [...backedUp].filter((title) => !possible.has(title))
    assert.deepEqual(
      unexpected,
      [],
      'the copy holds no write that was not sent before the backup ended'
    )
    assert.ok(
      backedUp.size >= before.size && backedUp.size <= possible.size,
      `row count ${backedUp.size} within [${before.size}, ${possible.size}]`
    )

    // Writes after the backup: a restore must roll these back.
    prefix = 'Later'
    stop = false
    lanes = Array.from({ length: LANES }, (_, lane) => writer(lane))
    while (acknowledged.length < afterCount + 20) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    stop = true
    await Promise.all(lanes)

    // Restore exactly as docs/operations.md says: stop, copy over data/bandstand.db, delete -wal
    // and -shm, start.
    assert.equal(await server.stop('SIGTERM'), 0)
    copyFileSync(backupFile, databaseFile)
    rmSync(`${databaseFile}-wal`, { force: true })
    rmSync(`${databaseFile}-shm`, { force: true })
    const restored = await startServer(env)
    t.after(() => restored.stop())
    const cookie2 = await loginOverHttp(restored.base, 'admin', ADMIN_PASSWORD)

    const served = async (q: string) => {
      const response = await fetch(`${restored.base}/songs?q=${encodeURIComponent(q)}`, {
        headers: { cookie: cookie2 }
      })
      assert.equal(response.status, 200)
      return new Set(((await response.json()) as Array<{ title: string }>).map((s) => s.title))
    }
    assert.deepEqual(
      await served('Load'),
      backedUp,
      'the server serves exactly the backed-up songs'
    )
    assert.equal((await served('Later')).size, 0, 'writes after the backup are gone')
    const check = new Database(databaseFile, { readonly: true })
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok')
    check.close()
  }
)
