import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Writable } from 'node:stream'
import { spawnSync } from 'node:child_process'
import { buildApp } from '#src/app.js'
import { ensureFirstAdmin } from '#src/bootstrap.js'
import { openDatabase } from '#src/db/client.js'
import { verifyPassword } from '#src/auth/password.js'
import { projectPath } from '#src/project-path.js'
import { loadConfig, loadDotEnv, ConfigError, SHARED_ENV_FILE } from '#src/config.js'
import { runCli } from '#src/cli.js'
import { anonymous, createTestApp, json, type ErrorResponseBody, type Ok } from '#test/helpers.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'bandstand-cfg-'))

test(
  'loadConfig: an invalid value throws a message naming the variable (secrets not echoed)',
  () => {
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ PORT: 'abc' }, /PORT/],
      [{ PORT: '70000' }, /PORT/],
      [{ PORT: '0' }, /PORT/],
      [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
      [{ JWT_SECRET: 'short-secret' }, /JWT_SECRET/],
      [{ COOKIE_SECURE: 'maybe' }, /COOKIE_SECURE/],
      [{ DOCS_ENABLED: 'no' }, /DOCS_ENABLED/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ CORS_ORIGINS: 'band.example' }, /CORS_ORIGINS/],
      [{ BODY_LIMIT_BYTES: '-1' }, /BODY_LIMIT_BYTES/],
      [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD/]
    ]
    for (const [env, pattern] of cases) {
      assert.throws(
        () => loadConfig(env),
        (error: Error) => error instanceof ConfigError && pattern.test(error.message),
        JSON.stringify(env)
      )
    }
    assert.throws(
      () => loadConfig({ JWT_SECRET: 'short-secret' }),
      (e: Error) => !e.message.includes('short-secret')
    )
  }
)

test('loadConfig: defaults and parsed values', () => {
  const defaults = loadConfig({})
  assert.equal(defaults.port, 3000)
  assert.equal(defaults.host, '0.0.0.0')
  assert.match(defaults.dataDir, /data$/)
  assert.equal(defaults.trustProxy, false)
  assert.equal(defaults.cookieSecure, 'auto')
  assert.equal(defaults.docsEnabled, true)
  assert.deepEqual(defaults.corsOrigins, [])
  const set = loadConfig({
    PORT: '8080',
    TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    CORS_ORIGINS: 'https://a.example, http://b.example:5173',
    COOKIE_SECURE: 'true',
    DOCS_ENABLED: 'false'
  })
  assert.equal(set.port, 8080)
  assert.deepEqual(set.trustProxy, ['10.0.0.0/8', '127.0.0.1'])
  assert.deepEqual(set.corsOrigins, ['https://a.example', 'http://b.example:5173'])
  assert.equal(set.cookieSecure, 'always')
  assert.equal(set.docsEnabled, false)
  assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
})

test('.env is read when present', (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, '.env')
  writeFileSync(file, 'BANDSTAND_DOTENV_PROBE=from-dotenv\n')
  loadDotEnv(file)
  assert.equal(process.env.BANDSTAND_DOTENV_PROBE, 'from-dotenv')
  delete process.env.BANDSTAND_DOTENV_PROBE
  loadDotEnv(join(dir, 'missing.env')) // absent file: nothing happens
})

function capture () {
  const lines: string[] = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    }
  })
  return { lines, logger: { level: 'info', stream } }
}

test(
  'first start creates admin with ADMIN_PASSWORD; the generated JWT secret ' +
    'is stored with mode 0600 and reused',
  async (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const config = loadConfig({ DATA_DIR: dir, ADMIN_PASSWORD: 'the admin password from env' })
    const log = capture()
    const app = await buildApp({ config, logger: log.logger })
    const secretFile = join(dir, 'jwt-secret')
    assert.equal(statSync(secretFile).mode & 0o777, 0o600)
    const secret = readFileSync(secretFile, 'utf8').trim()
    assert.ok(secret.length >= 32)
    const login = await anonymous(app).post('/login', {
      username: 'admin',
      password: 'the admin password from env'
    })
    assert.equal(login.statusCode, 200)
    assert.equal(json<Ok<'/login', 'post'>>(login).user.role, 'admin')
    assert.ok(
      !log.lines.join('').includes('the admin password from env'),
      'ADMIN_PASSWORD is not logged'
    )
    assert.match(log.lines.join(''), /ADMIN_PASSWORD/)
    const cookie = (login.cookies as Array<{ name: string; value: string }>)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
    await app.close()

    // Restart: same secret (the session survives), no second admin, nothing printed.
    const again = capture()
    const restarted = await buildApp({ config, logger: again.logger })
    t.after(() => restarted.close())
    assert.equal(readFileSync(secretFile, 'utf8').trim(), secret)
    assert.equal(
      (await restarted.inject({ method: 'GET', url: '/me', headers: { cookie } })).statusCode,
      200
    )
    const admins = restarted.sqlite.prepare('select count(*) as n from users').get() as {
      n: number
    }
    assert.equal(admins.n, 1)
    assert.ok(!again.lines.join('').includes('First start'))
  }
)

test(
  'DATA_DIR is 0700 and the database files 0600: created so on a first start, and tightened ' +
    'at start where an older version left them 0755/0644',
  async (t) => {
    const modes = (dir: string) =>
      ['', 'bandstand.db', 'bandstand.db-wal', 'bandstand.db-shm', 'jwt-secret'].map((name) =>
        (statSync(join(dir, name)).mode & 0o777).toString(8))
    const fresh = join(tempDir(), 'data')
    t.after(() => rmSync(dirname(fresh), { recursive: true, force: true }))
    const first = await buildApp({ config: loadConfig({ DATA_DIR: fresh }), logger: false })
    await first.ready()
    assert.deepEqual(modes(fresh), ['700', '600', '600', '600', '600'])
    await first.close()

    const old = tempDir()
    t.after(() => rmSync(old, { recursive: true, force: true }))
    const handle = openDatabase(join(old, 'bandstand.db'))
    handle.sqlite.prepare('CREATE TABLE IF NOT EXISTS probe (x)').run()
    for (const name of ['bandstand.db', 'bandstand.db-wal', 'bandstand.db-shm']) {
      chmodSync(join(old, name), 0o644)
    }
    chmodSync(old, 0o755)
    const upgraded = await buildApp({ config: loadConfig({ DATA_DIR: old }), logger: false })
    t.after(() => upgraded.close())
    assert.deepEqual(modes(old), ['700', '600', '600', '600', '600'])
    handle.close()
  }
)

test('first start without ADMIN_PASSWORD prints a generated password once', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const log = capture()
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dir }), logger: log.logger })
  t.after(() => app.close())
  const match = /password (\S+) — log in/.exec(log.lines.join(''))
  assert.ok(match, 'the generated password is printed')
  assert.ok(match[1]!.length >= 20)
  assert.equal(
    (await anonymous(app).post('/login', { username: 'admin', password: match[1]! })).statusCode,
    200
  )
})

test('JWT_SECRET from the environment is used and no file is written', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  assert.throws(() => statSync(join(ctx.dir, 'jwt-secret')))
})

test('docs on by default, 404 in the error shape with DOCS_ENABLED=false', async (t) => {
  const on = await createTestApp()
  t.after(() => on.close())
  assert.equal((await anonymous(on.app).get('/docs')).statusCode, 200)
  const doc = await anonymous(on.app).get('/docs/json')
  assert.equal(doc.statusCode, 200)
  assert.equal(json<{ openapi: string }>(doc).openapi, '3.0.3')

  const off = await createTestApp({}, { DOCS_ENABLED: 'false' })
  t.after(() => off.close())
  for (const url of ['/docs', '/docs/', '/docs/json', '/docs/static/index.html']) {
    const r = await anonymous(off.app).get(url)
    assert.equal(r.statusCode, 404, url)
    assert.equal(json<ErrorResponseBody>(r).code, 'ROUTE_NOT_FOUND')
  }
})

test(
  'OpenAPI: every operation has a tag, a summary and its error answers; non-public ' +
    'ones need the cookie',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const doc = ctx.app.swagger() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[]
            summary?: string
            security?: unknown[]
            responses: Record<string, unknown>
          }
        >
      >
      components: { securitySchemes: Record<string, { in: string }> }
    }
    assert.equal(doc.components.securitySchemes.cookieAuth!.in, 'cookie')
    const publicOps = new Set([
      'post /login',
      'post /refresh',
      'post /logout',
      'get /health',
      'get /public/app_config',
      'get /public/logo',
      'get /public/manifest.webmanifest',
      'get /public/icons/{file}',
      'get /cal/ical/{token}',
      'post /password-reset',
      'post /password-reset/verify',
      // The links in a member's mail: a token instead of a session.
      'get /answer/{token}',
      'post /answer/{token}',
      'get /unsubscribe/{token}',
      'post /unsubscribe/{token}'
    ])
    let count = 0
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        count++
        const name = `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`
        assert.ok(op.tags?.length === 1, `${name} tag`)
        assert.ok(op.summary, `${name} summary`)
        assert.ok(op.responses['500'], `${name} 500`)
        if (publicOps.has(`${method} ${path}`)) assert.equal(op.security, undefined, name)
        else {
          assert.deepEqual(op.security, [{ cookieAuth: [] }], name)
          assert.ok(op.responses['401'], `${name} 401`)
        }
      }
    }
    assert.ok(count >= 17)
    for (const path of [
      '/me',
      '/me/sessions',
      '/me/sessions/{id}',
      '/update_user',
      '/change_password',
      '/users',
      '/users/{id}',
      '/public/app_config',
      '/admin/app_config',
      '/admin/logo',
      '/public/logo'
    ]) {
      assert.ok(doc.paths[path], path)
    }
  }
)

test('two first starts racing: one creates admin, and only its password is reported', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const handle = openDatabase(join(dir, 'bandstand.db'))
  t.after(() => handle.close())
  // Both count no user before either has hashed its password and inserted.
  const results = await Promise.all([
    ensureFirstAdmin(handle.db, new Date()),
    ensureFirstAdmin(handle.db, new Date())
  ])
  const created = results.filter((r) => r.created)
  assert.equal(created.length, 1, 'exactly one reports a created admin')
  assert.deepEqual(results.find((r) => !r.created), { created: false, generatedPassword: null })
  const { hash } = handle.sqlite
    .prepare("select password_hash as hash from users where username = 'admin'")
    .get() as { hash: string }
  assert.ok(await verifyPassword(created[0]!.generatedPassword!, hash), 'the reported is stored')
})

test('an emptied jwt-secret file stops the start with a clear message (exit 78)', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'jwt-secret'), '\n')
  const start = buildApp({ config: loadConfig({ DATA_DIR: dir }), logger: false })
  await assert.rejects(start, (error) => {
    assert.ok(error instanceof ConfigError)
    assert.match(error.message, /jwt-secret is empty or shorter than 32 characters/)
    assert.match(error.message, /delete it to have a new secret generated/)
    return true
  })
  // The built server says so and exits with EX_CONFIG, as for an invalid environment variable.
  const run = spawnSync(process.execPath, [projectPath('dist', 'server.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH, DATA_DIR: dir },
    encoding: 'utf8',
    timeout: 30_000
  })
  assert.equal(run.status, 78, run.stderr)
  assert.match(run.stderr, /jwt-secret is empty or shorter than 32 characters/)
})

test('server and CLI share one configuration: environment, then .env, then DATA_DIR/bandstand.env',
  async (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const data = join(dir, 'data')
    mkdirSync(data)
    writeFileSync(join(dir, '.env'), `DATA_DIR=${data}\nLOG_LEVEL=warn\n`)
    writeFileSync(join(data, SHARED_ENV_FILE), `BACKUP_DIR=${join(dir, 'backups')}\n` +
      'LOG_LEVEL=debug\nPUBLIC_URL=https://band.example\nPORT=1234\n')
    const env: NodeJS.ProcessEnv = { PORT: '4000' }
    loadDotEnv(join(dir, '.env'), env)
    assert.deepEqual(env, {
      PORT: '4000', // the environment wins
      DATA_DIR: data,
      LOG_LEVEL: 'warn', // .env wins over bandstand.env
      BACKUP_DIR: join(dir, 'backups'),
      PUBLIC_URL: 'https://band.example'
    })
    // What the service's file says, the CLI uses: db:backup into BACKUP_DIR, reset links on
    // PUBLIC_URL.
    const cliEnv: NodeJS.ProcessEnv = { DATA_DIR: data }
    loadDotEnv(join(dir, 'missing.env'), cliEnv)
    const out: string[] = []
    const cliIo = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) }
    assert.equal(await runCli(['user:create', 'lena'], cliEnv, cliIo), 0, out.join('\n'))
    assert.equal(await runCli(['user:reset-link', 'lena'], cliEnv, cliIo), 0, out.join('\n'))
    assert.match(out.join('\n'), /\nhttps:\/\/band\.example\/app\/reset-password#?/)
    assert.equal(await runCli(['db:backup'], cliEnv, cliIo), 0, out.join('\n'))
    assert.match(out.at(-1)!, new RegExp(`backup written to ${join(dir, 'backups')}/bandstand-`))
  })
