import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { APP_VERSION } from '#src/version.js'
import { loginOverHttp, startServer } from '#test/server-process.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'bandstand-logs-'))
const ADMIN_PASSWORD = 'logs test admin password'

test('LOG_FORMAT=json: a start banner, one line per request, none for /health', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const server = await startServer({
    DATA_DIR: dir, ADMIN_PASSWORD, LOG_LEVEL: 'info', LOG_FORMAT: 'json'
  })
  t.after(() => server.stop('SIGKILL'))
  for (let i = 0; i < 3; i++) await fetch(`${server.base}/health`)
  assert.equal((await fetch(`${server.base}/songs?q=x`)).status, 401)
  await server.stop('SIGTERM')
  const lines = server.output().trim().split('\n').map((line) => JSON.parse(line))

  const banner = lines.find((line) => /^Bandstand /.test(line.msg))
  assert.ok(banner, server.output())
  assert.equal(banner.version, APP_VERSION)
  assert.match(banner.commit, /^([0-9a-f]{7,}|unknown)$/)
  assert.equal(banner.dataDir, dir)
  assert.match(banner.msg, new RegExp(`at http://127\\.0\\.0\\.1:\\d+/ — DATA_DIR ${dir}, ` +
    '\\d+ of \\d+ migrations applied now'))

  const requests = lines.filter((line) => line.req)
  assert.equal(requests.length, 1, 'one line for the one request that is not /health')
  const [line] = requests
  assert.equal(line.msg, `GET /songs?q=x 401 ${line.responseTime} ms`)
  assert.equal(line.req.method, 'GET')
  assert.equal(line.res.statusCode, 401)
  assert.equal(typeof line.responseTime, 'number')
  assert.ok(!lines.some((l) => /incoming request|request completed/.test(l.msg)))
})

test('LOG_FORMAT=pretty: one readable line per event', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const server = await startServer({
    DATA_DIR: dir, ADMIN_PASSWORD, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty'
  })
  t.after(() => server.stop('SIGKILL'))
  await fetch(`${server.base}/songs`)
  await server.stop('SIGTERM')
  const output = server.output()
  assert.match(output, /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] INFO: GET \/songs 401 [\d.]+ ms$/m)
  assert.match(output, /INFO: Bandstand \S+ \(\S+\) at http:/)
  assert.ok(!output.includes('{"level"'), 'no JSON')
})

test('the first password reaches stderr at LOG_LEVEL=silent, is kept 0600 in DATA_DIR and ' +
  'deleted at the admin\'s first password change', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const server = await startServer({ DATA_DIR: dir, LOG_LEVEL: 'silent' })
  t.after(() => server.stop('SIGKILL'))
  const shown = /created user "admin" with password (\S+) — /.exec(server.output())
  assert.ok(shown, server.output())
  const password = shown[1]!
  const file = join(dir, 'initial-admin-password')
  assert.equal(readFileSync(file, 'utf8').trim(), password)
  assert.equal(statSync(file).mode & 0o777, 0o600)

  const cookie = await loginOverHttp(server.base, 'admin', password)
  const change = (currentPassword: string, newPassword: string) =>
    fetch(`${server.base}/change_password`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword, newPassword })
    })
  assert.equal((await change('not the password at all', 'a fresh band passphrase 7')).status, 403)
  assert.ok(existsSync(file), 'kept after a failed change')
  assert.equal((await change(password, 'a fresh band passphrase 7')).status, 204)
  assert.ok(!existsSync(file), 'deleted at the change')
})
