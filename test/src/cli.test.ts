import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import { DEMO_PASSWORD } from '#src/seed/index.js'
import { DEMO_USERS } from '#src/seed/users.js'
import { passwordProblem, verifyPassword } from '#src/auth/password.js'
import { anonymous, createTestApp, json, userClient, type Ok } from '#test/helpers.js'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'bandstand-cli-'))

test(
  'user:create with a given and a generated password; user:reset-password; errors',
  async (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const env = { DATA_DIR: dir }
    const a = io()
    assert.equal(
      await runCli(
        [
          'user:create',
          'lena',
          '--role',
          'editor',
          '--display-name',
          'Lena B',
          '--password',
          'lena has a long passphrase'
        ],
        env,
        a.io
      ),
      1
    )
    assert.match(a.err.join(), /username/)
    const b = io()
    assert.equal(
      await runCli(
        [
          'user:create',
          'lena',
          '--role',
          'editor',
          '--display-name',
          'Lena B',
          '--password',
          'a long passphrase for her'
        ],
        env,
        b.io
      ),
      0
    )
    assert.ok(!b.out.join('\n').includes('password:'), 'a given password is not echoed')
    const c = io()
    assert.equal(await runCli(['user:create', 'max'], env, c.io), 0)
    const generated = /password: (\S+)/.exec(c.out.join('\n'))![1]!
    const d = io()
    assert.equal(await runCli(['user:create', 'MAX'], env, d.io), 1)
    assert.match(d.err.join(), /taken/)
    assert.equal(await runCli(['user:create', 'nina', '--role', 'boss'], env, io().io), 64)

    const handle = openDatabase(join(dir, 'bandstand.db'))
    const rows = handle.sqlite
      .prepare(
        'select username, role, display_name as displayName, password_hash as hash ' +
          'from users order by id'
      )
      .all() as Array<{ username: string; role: string; displayName: string; hash: string }>
    handle.close()
    assert.deepEqual(
      rows.map((r) => [r.username, r.role, r.displayName]),
      [
        ['lena', 'editor', 'Lena B'],
        ['max', 'member', 'max']
      ]
    )
    assert.ok(await verifyPassword('a long passphrase for her', rows[0]!.hash))
    assert.ok(await verifyPassword(generated, rows[1]!.hash))

    const e = io()
    assert.equal(await runCli(['user:reset-password', 'lena'], env, e.io), 0)
    const fresh = /password: (\S+)/.exec(e.out.join('\n'))![1]!
    const h2 = openDatabase(join(dir, 'bandstand.db'))
    const hash = (
      h2.sqlite.prepare("select password_hash as h from users where username = 'lena'").get() as {
        h: string
      }
    ).h
    h2.close()
    assert.ok(await verifyPassword(fresh, hash))
    assert.equal(await runCli(['user:reset-password', 'nobody'], env, io().io), 1)
    // A wrong command line: one line, exit 64 (EX_USAGE); --help prints the usage.
    for (const [argv, line] of [
      [['no:such'], 'unknown command "no:such"'],
      [['user:create'], 'missing <username>'],
      [[], 'missing <command>'],
      [['user:create', 'x', '--role', 'boss'], '--role must be admin, editor or member'],
      [['user:reset-link', 'lena', '--base-url', 'ftp://x'], '--base-url must be an http(s) URL'],
      [['db:migrate', '--frobnicate'], "Unknown option '--frobnicate'"]
    ] as const) {
      const wrong = io()
      assert.equal(await runCli([...argv], env, wrong.io), 64, argv.join(' '))
      assert.equal(wrong.err.length, 1)
      assert.ok(wrong.err[0]!.startsWith(`error: ${line}`), wrong.err[0])
      assert.ok(wrong.err[0]!.endsWith('(bandstand --help lists the commands and options)'))
    }
    const help = io()
    assert.equal(await runCli(['--help'], env, help.io), 0)
    assert.match(help.out[0]!, /^Usage: bandstand <command>/)
    const bad = io()
    assert.equal(await runCli(['db:migrate'], { DATA_DIR: dir, PORT: 'x' }, bad.io), 78)
    assert.match(bad.err.join(), /PORT/)
  }
)

test('user:reset-password ends the user\u2019s live sessions', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  assert.equal((await anna.get('/me')).statusCode, 200)
  assert.equal(
    await runCli(
      ['user:reset-password', 'anna', '--password', 'reset from the command line'],
      { DATA_DIR: ctx.dir },
      io().io
    ),
    0
  )
  assert.equal((await anna.get('/me')).statusCode, 401)
  assert.equal(
    (
      await anonymous(ctx.app).post('/login', {
        username: 'anna',
        password: 'reset from the command line'
      })
    ).statusCode,
    200
  )
})

test(
  'db:migrate creates and migrates; db:backup copies the live database while the app runs',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    assert.equal(
      (
        await admin.post('/users', {
          username: 'carla',
          displayName: 'Carla',
          role: 'member',
          password: 'she gets a long passphrase'
        })
      ).statusCode,
      201
    )
    assert.equal(await runCli(['db:migrate'], { DATA_DIR: ctx.dir }, io().io), 0)
    const file = join(ctx.dir, 'backup.db')
    const out = io()
    assert.equal(await runCli(['db:backup', file], { DATA_DIR: ctx.dir }, out.io), 0)
    assert.match(out.out.join(), /integrity ok/)
    const copy = new Database(file, { readonly: true })
    const names = (
      copy.prepare('select username from users order by id').all() as Array<{ username: string }>
    ).map((r) => r.username)
    copy.close()
    assert.deepEqual(names, ['boss', 'carla'])
    assert.equal((await admin.get('/me')).statusCode, 200, 'the server keeps running')
    const again = io()
    assert.equal(
      await runCli(['db:backup', file], { DATA_DIR: ctx.dir }, again.io),
      1,
      'never overwrites'
    )
    assert.equal(await runCli(['db:backup'], { DATA_DIR: ctx.dir }, io().io), 64)

    const empty = tempDir()
    t.after(() => rmSync(empty, { recursive: true, force: true }))
    assert.equal(await runCli(['db:migrate'], { DATA_DIR: empty }, io().io), 0)
    assert.ok(existsSync(join(empty, 'bandstand.db')))
  }
)

test(
  'demo:seed: members with roles and one demo password; refuses existing data unless --force',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    for (const u of [{ username: 'admin' }, ...DEMO_USERS]) {
      assert.equal(passwordProblem(DEMO_PASSWORD, u.username), null)
    }
    const out = io()
    assert.equal(await runCli(['demo:seed'], { DATA_DIR: ctx.dir }, out.io), 0)
    assert.ok(out.out.join('\n').includes(DEMO_PASSWORD))
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const users = json<
      Array<{ username: string; role: string; isSinger: boolean; instruments: string[] }>
    >(await admin.get('/users'))
    assert.equal(users.filter((u) => u.role === 'admin').length, 2)
    assert.equal(users.find((u) => u.username === 'lena')!.role, 'editor')
    assert.ok(users.filter((u) => u.isSinger).length >= 2)
    assert.ok(users.filter((u) => u.instruments.length > 0).length >= 4)
    const lena = await anonymous(ctx.app).post('/login',
      { username: 'lena', password: DEMO_PASSWORD })
    assert.equal(lena.statusCode, 200)
    // The demo password is published: every demo user must replace it first.
    assert.equal(json<Ok<'/login', 'post'>>(lena).user.passwordChangeRequired, true)
    assert.ok(users.every((u) => u.username === 'boss' ||
      ctx.app.sqlite.prepare('SELECT password_change_required FROM users WHERE username = ?')
        .pluck().get(u.username) === 1), 'every demo user held')

    const refused = io()
    assert.equal(await runCli(['demo:seed'], { DATA_DIR: ctx.dir }, refused.io), 1)
    assert.match(refused.err.join(), /--force/)
    assert.equal(await runCli(['demo:seed', '--force'], { DATA_DIR: ctx.dir }, io().io), 0)
    assert.equal(json<unknown[]>(await admin.get('/users')).length, users.length, 'no duplicates')
  }
)

test('demo:seed on a database with only the first admin keeps that admin', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await userClient(ctx.app, 'admin', 'admin')
  assert.equal(await runCli(['demo:seed'], { DATA_DIR: ctx.dir }, io().io), 0)
  const row = ctx.app.sqlite
    .prepare("select count(*) as n from users where username = 'admin'")
    .get() as { n: number }
  assert.equal(row.n, 1)
})
