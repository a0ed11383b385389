import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { loginOverHttp, startServer } from '#test/server-process.js'

const ADMIN_PASSWORD = 'crash test admin password 2026'

test('SIGKILL mid-stream loses no acknowledged write and leaves an intact database', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-crash-'))
  t.after(() => rmSync(dataDir, { recursive: true, force: true }))
  const env = { DATA_DIR: dataDir, ADMIN_PASSWORD }
  const server = await startServer(env)
  const cookie = await loginOverHttp(server.base, 'admin', ADMIN_PASSWORD)

  const acknowledged: string[] = []
  let stop = false
  let attempted = 0
  const writer = async (lane: number) => {
    // eslint-disable-next-line no-unmodified-loop-condition -- the test sets it
    for (let i = 0; !stop; i++) {
      const title = `Crash ${lane}-${i}`
      attempted++
      try {
        const response = await fetch(`${server.base}/songs`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ title, status: 'accepted', durationSeconds: 200 })
        })
        if (response.status === 201) acknowledged.push(title)
        else if (!stop) {
          throw new Error(`write answered ${response.status}: ${await response.text()}`)
        }
      } catch (error) {
        if (!stop) throw error
      }
    }
  }
  const lanes = [0, 1, 2, 3].map((lane) => writer(lane))
  while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 5))
  // Kill while writes are still in flight: no shutdown hook, no checkpoint.
  server.child.kill('SIGKILL')
  stop = true
  await Promise.allSettled(lanes)
  await new Promise((resolve) =>
    server.child.exitCode !== null || server.child.signalCode !== null
      ? resolve(null)
      : server.child.once('exit', resolve)
  )
  assert.ok(attempted > acknowledged.length, 'some writes were in flight at the kill')

  const sqlite = new Database(join(dataDir, 'bandstand.db'))
  assert.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok')
  const stored = new Set(
    (
      sqlite.prepare("SELECT title FROM songs WHERE title LIKE 'Crash %'").all() as Array<{
        title: string
      }>
    ).map((r) => r.title)
  )
  sqlite.close()
  const lost = acknowledged.filter((title) => !stored.has(title))
  assert.deepEqual(lost, [], 'every write answered 201 survived the kill')

  // And the server starts again on the same files.
  const again = await startServer(env)
  t.after(() => again.stop())
  const cookie2 = await loginOverHttp(again.base, 'admin', ADMIN_PASSWORD)
  const songs = (await (
    await fetch(`${again.base}/songs?q=Crash`, { headers: { cookie: cookie2 } })
  ).json()) as unknown[]
  assert.ok(songs.length >= acknowledged.length)
})
