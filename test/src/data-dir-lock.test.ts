import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync }
  from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '#src/cli.js'
import { DataDirLocked, LOCK_FILE, lockDataDir } from '#src/storage/data-dir-lock.js'
import { projectPath } from '#src/project-path.js'
import { fullCommand } from '#src/start-errors.js'
import { freePort, startServer } from '#test/server-process.js'

const tempDir = () => mkdtempSync(join(tmpdir(), 'bandstand-lock-'))
const ADMIN_PASSWORD = 'lock test admin password'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

/** Runs the built server to its end (it is expected to refuse to start). */
async function runServer (env: Record<string, string>) {
  const port = String(await freePort())
  return spawnSync(process.execPath, [projectPath('dist', 'server.js')], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: port, ...env },
    encoding: 'utf8',
    timeout: 30_000
  })
}

test('one server per DATA_DIR: a second exits 78 with one line, the CLI refuses its bulk ' +
  'writes, db:backup works; the lock goes with the server', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const env = { DATA_DIR: dir, ADMIN_PASSWORD }
  const server = await startServer(env)
  t.after(() => server.stop('SIGKILL'))
  const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))
  assert.equal(lock.pid, server.child.pid)

  const second = await runServer(env)
  assert.equal(second.status, 78, second.stderr)
  assert.equal(second.stderr.trim().split('\n').length, 1, second.stderr)
  assert.match(second.stderr, new RegExp(`a Bandstand server \\(pid ${server.child.pid}\\)`))
  assert.match(second.stderr, /stop it first/)
  assert.doesNotMatch(second.stderr, /\bat .*\.js:\d+/, 'no stack trace')

  for (const argv of [['db:migrate'], ['demo:seed'], ['import', join(dir, 'x.json')],
    ['import-librestage', join(dir, 'app.db')]]) {
    const refused = io()
    assert.equal(await runCli(argv, env, refused.io), 78, argv[0])
    assert.match(refused.err.join('\n'), /a Bandstand server \(pid \d+\) is using/, argv[0])
  }
  const backup = io()
  assert.equal(await runCli(['db:backup', join(dir, 'copy.db')], env, backup.io), 0,
    backup.err.join('\n'))
  // A CLI refused does not remove the server's lock.
  assert.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid, server.child.pid)

  assert.equal(await server.stop('SIGTERM'), 0)
  assert.ok(!existsSync(join(dir, LOCK_FILE)), 'released at a clean exit')
  const migrated = io()
  assert.equal(await runCli(['db:migrate'], env, migrated.io), 0, migrated.err.join('\n'))
  assert.ok(!existsSync(join(dir, LOCK_FILE)), 'the CLI releases it too')
})

test('after a crash (SIGKILL) the stale lock is taken over at the next start', async (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const env = { DATA_DIR: dir, ADMIN_PASSWORD }
  const crashed = await startServer(env)
  await crashed.stop('SIGKILL')
  assert.ok(existsSync(join(dir, LOCK_FILE)), 'a killed process leaves its lock')
  const again = await startServer(env)
  t.after(() => again.stop('SIGKILL'))
  assert.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid, again.child.pid)
})

test('lockDataDir: stale, half-written and rebooted locks are taken over; another host\'s ' +
  'and a live process\'s are not', (t) => {
  const dir = tempDir()
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, LOCK_FILE)
  const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  const write = (owner: object) => writeFileSync(file, JSON.stringify(owner))
  const takes = () => {
    const release = lockDataDir(dir, 'test')
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.pid)
    release()
    assert.ok(!existsSync(file))
  }
  // A pid that has ended: that of a finished child.
  const ended = spawnSync(process.execPath, ['-e', '0']).pid
  write({ pid: ended, host: hostname(), bootId, what: 'server' })
  takes()
  writeFileSync(file, '{"pid": 12')
  takes()
  // The parent of this test process is alive, but the lock is from before a reboot.
  write({ pid: process.ppid, host: hostname(), bootId: 'an earlier boot', what: 'server' })
  takes()

  write({ pid: process.ppid, host: hostname(), bootId, what: 'import' })
  assert.throws(() => lockDataDir(dir, 'test'), (error: Error) =>
    error instanceof DataDirLocked && /"bandstand import" \(pid \d+\).*wait for it/.test(error.message))
  write({ pid: process.ppid, host: 'other-box', bootId, what: 'server' })
  assert.throws(() => lockDataDir(dir, 'test'), (error: Error) =>
    error instanceof DataDirLocked && error.message.includes('on other-box') &&
    error.message.includes(`delete ${file}`))
})

test('file problems at start end with one line naming the path and what to do (exit 78)',
  async (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    mkdirSync(join(dir, 'jwt-secret'))
    const run = await runServer({ DATA_DIR: dir })
    assert.equal(run.status, 78, run.stderr)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
    assert.match(run.stderr, new RegExp(`${join(dir, 'jwt-secret')}: it is a directory`))

    writeFileSync(join(dir, 'a-file'), '')
    const notDir = await runServer({ DATA_DIR: join(dir, 'a-file', 'data') })
    assert.equal(notDir.status, 78, notDir.stderr)
    assert.match(notDir.stderr, /a-file.*is a file, not a directory/)
    assert.equal(notDir.stderr.trim().split('\n').length, 1, notDir.stderr)
  })

test('the CLI as root on a DATA_DIR of another user refuses and names sudo -u <owner>',
  { skip: process.getuid?.() !== 0 && 'needs root' }, async (t) => {
    const dir = tempDir()
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    chownSync(dir, 65534, 65534) // nobody
    const refused = io()
    assert.equal(await runCli(['user:create', 'lena', '--display-name', 'Lena B', '--password',
      'a long passphrase for her'], { DATA_DIR: dir }, refused.io), 78)
    // The whole command to paste: DATA_DIR, every argument quoted, the password not repeated.
    assert.match(refused.err.join('\n'), new RegExp(
      ": run as that user: sudo -u (nobody|'#65534') " +
      `env DATA_DIR=${dir} bandstand user:create lena --display-name 'Lena B' ` +
      '--password <password>$'
    ))
    assert.ok(!existsSync(join(dir, 'bandstand.db')), 'nothing written')
  })

test('a DATA_DIR the server\'s user may not write: one line naming the path (exit 78)',
  { skip: process.getuid?.() !== 0 && 'needs root to run the server as another user' },
  async (t) => {
    const dir = tempDir() // 0700, root's: the user nobody may not enter it
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const port = String(await freePort())
    const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups',
      process.execPath, projectPath('dist', 'server.js')], {
      // Node hands NODE_V8_COVERAGE (c8's) to children whatever env says: nobody may not write
      // the coverage folder, and would say so on stderr. Empty turns it off.
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: port,
        DATA_DIR: join(dir, 'data'),
        NODE_V8_COVERAGE: ''
      },
      encoding: 'utf8',
      timeout: 30_000
    })
    assert.equal(run.status, 78, run.stderr)
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr)
    assert.match(run.stderr, new RegExp(`${join(dir, 'data')}: permission denied: .*chown`))
  })

test('the command a root refusal prints: DATA_DIR spelled out, words quoted, no password', () => {
  assert.equal(
    fullCommand('/srv/band data', ['bandstand', 'user:create', "o'brien", '--password', 'pw 1',
      '--password=pw2', '--display-name', 'Lena B']),
    "env 'DATA_DIR=/srv/band data' bandstand user:create 'o'\\''brien' --password <password> " +
      "--password=<password> --display-name 'Lena B'"
  )
})
