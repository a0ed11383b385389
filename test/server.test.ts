import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectPath } from '../src/project-path.js'

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

test('the built server (node dist/server.js) starts, logs in over HTTP with a cookie jar, and exits cleanly on SIGTERM', async (t) => {
  const entry = projectPath('dist', 'server.js')
  assert.ok(existsSync(entry), 'run `npm run build` first (npm test does)')
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-server-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const port = await freePort()
  const password = 'server test admin password'
  const child = spawn(process.execPath, [entry], {
    cwd: dir, // no .env there
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, ADMIN_PASSWORD: password, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = once(child, 'exit')
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })

  const base = `http://127.0.0.1:${port}`
  let healthy = false
  for (let i = 0; i < 200 && !healthy && child.exitCode === null; i++) {
    healthy = await fetch(`${base}/health`).then((r) => r.ok, () => false)
    if (!healthy) await sleep(50)
  }
  assert.ok(healthy, `server did not come up:\n${output}`)

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
  assert.ok(login.headers.getSetCookie().every((c) => /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c)))

  const me = await fetch(`${base}/me`, { headers: { cookie: cookie() } })
  assert.equal(me.status, 200)
  assert.equal(((await me.json()) as { username: string }).username, 'admin')
  assert.equal((await fetch(`${base}/me`)).status, 401)

  const logout = await fetch(`${base}/logout`, { method: 'POST', headers: { cookie: cookie() } })
  assert.equal(logout.status, 204)
  const tokens = [...jar.values()]
  keep(logout)
  assert.equal((await fetch(`${base}/me`, { headers: { cookie: tokens.map((v) => `access_token=${v}`)[0]! } })).status, 401)

  child.kill('SIGTERM')
  const [code, signal] = await exited
  assert.equal(signal, null)
  assert.equal(code, 0, output)
  assert.match(output, /shutting down/)
  for (const token of tokens) assert.ok(!output.includes(token), 'a token reached the log')
  assert.ok(!output.includes(password))
})
