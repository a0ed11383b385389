import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'
import { startServer } from '#test/server-process.js'

test(
  'the built server (node dist/server.js) starts, logs in over HTTP with ' +
    'a cookie jar, and exits cleanly on SIGTERM',
  async (t) => {
    assert.ok(
      existsSync(projectPath('dist', 'server.js')),
      'run `npm run build` first (npm test does)'
    )
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-server-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const password = 'server test admin password'
    // cwd without a .env file; logging at info so the test can check what reaches the log.
    const server = await startServer(
      { DATA_DIR: dir, ADMIN_PASSWORD: password, LOG_LEVEL: 'info' },
      { cwd: dir }
    )
    t.after(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL')
    })
    const base = server.base

    const jar = new Map<string, string>()
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';')
        const [name, ...value] = pair!.split('=')
        if (value.join('=') === '') jar.delete(name!)
        else jar.set(name!, value.join('='))
      }
    }
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password })
    })
    assert.equal(login.status, 200)
    keep(login)
    assert.ok(jar.has('access_token') && jar.has('refresh_token'))
    assert.ok(
      login.headers.getSetCookie().every((c) => /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c))
    )

    const me = await fetch(`${base}/me`, { headers: { cookie: cookie() } })
    assert.equal(me.status, 200)
    assert.equal(((await me.json()) as { username: string }).username, 'admin')
    assert.equal((await fetch(`${base}/me`)).status, 401)

    const logout = await fetch(`${base}/logout`, { method: 'POST', headers: { cookie: cookie() } })
    assert.equal(logout.status, 204)
    const tokens = [...jar.values()]
    keep(logout)
    assert.equal(
      (
        await fetch(`${base}/me`, {
          headers: { cookie: tokens.map((v) => `access_token=${v}`)[0]! }
        })
      ).status,
      401
    )

    const code = await server.stop('SIGTERM')
    assert.equal(server.child.signalCode, null)
    assert.equal(code, 0, server.output())
    const output = server.output()
    assert.match(output, /shutting down/)
    for (const token of tokens) assert.ok(!output.includes(token), 'a token reached the log')
    assert.ok(!output.includes(password))
  }
)
