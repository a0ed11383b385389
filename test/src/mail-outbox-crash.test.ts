import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { loginOverHttp, startServer } from '#test/server-process.js'
import { smtpSink } from '#test/smtp-sink.js'

const ADMIN_PASSWORD = 'outbox crash admin password 2026'

async function until (what: string, done: () => boolean) {
  const deadline = Date.now() + 20_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

test('SIGKILL while a mail is on the wire: after the restart each member has it once',
  async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bandstand-outbox-'))
    t.after(() => rmSync(dataDir, { recursive: true, force: true }))
    let holding = true
    let held = 0
    // The server takes the first message's data and never answers it while `holding`.
    const sink = await smtpSink({
      answer: () => {
        if (!holding) return undefined
        held++
        return 'hold'
      }
    })
    t.after(() => sink.close())
    const env = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      PUBLIC_URL: 'https://band.example.org'
    }
    const server = await startServer(env)
    const cookie = await loginOverHttp(server.base, 'admin', ADMIN_PASSWORD)
    const post = (path: string, body: object) =>
      fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body)
      })
    for (const name of ['ann', 'bob', 'cem']) {
      const created = await post('/users', {
        username: name,
        displayName: name,
        role: 'member',
        email: `${name}@example.org`,
        password: 'a long enough password 2026'
      })
      assert.equal(created.status, 201, await created.text())
    }
    const date = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
    assert.equal((await post('/gigs', { name: 'Crash Fest', date })).status, 201)
    await until('the first mail on the wire', () => held === 1)
    server.child.kill('SIGKILL')
    await new Promise((resolve) =>
      server.child.signalCode !== null ? resolve(null) : server.child.once('exit', resolve))
    assert.equal(sink.messages.length, 0, 'nothing was acknowledged before the kill')

    holding = false
    const restarted = await startServer(env)
    t.after(() => restarted.stop())
    await until('three mails', () => sink.messages.length >= 3)
    await sleep(300)
    const recipients = sink.messages.map((m) => /^To: (.*)$/m.exec(m)![1]).sort()
    assert.deepEqual(recipients, ['ann@example.org', 'bob@example.org', 'cem@example.org'])
    await restarted.stop()
    const sqlite = new Database(join(dataDir, 'bandstand.db'), { readonly: true })
    t.after(() => sqlite.close())
    const statuses = sqlite.prepare('SELECT status, count(*) AS n FROM mail_outbox GROUP BY status')
      .all()
    assert.deepEqual(statuses, [{ status: 'sent', n: 3 }])
  })
