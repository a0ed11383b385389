import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import bcrypt from 'bcryptjs'
import { runCli } from '#src/cli.js'
import { openDatabase } from '#src/db/client.js'
import type { LibreStageReport } from '#src/librestage/report.js'
import { replaceForeignHash } from '#src/repositories/users.js'
import { hashPassword } from '#src/auth/password.js'
import {
  anonymous, client, createTestApp, json, type ErrorResponseBody, type Ok, type TestContext
} from '#test/helpers.js'
import { DEMO_PASSWORDS, libreStageDemo } from '#test/librestage-fixture.js'

// Moving in from libreStage without losing a vote, an answer or a password: the real demo database
// (../shared/fixtures/librestage-demo.db; the replica when it is missing) imported as a band
// would, then checked through the API.

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

const NEW_PASSWORD = 'a brass band marching through the rain'

async function importDemo (t: { after(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-pw-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const { file, replica } = libreStageDemo(dir)
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const run = io()
  const code = await runCli(['import-librestage', file, '--json'], { DATA_DIR: ctx.dir }, run.io)
  assert.equal(code, 0, run.err.join('\n'))
  const report = JSON.parse(run.out.join('\n')) as LibreStageReport
  const source = new Database(file, { readonly: true })
  t.after(() => source.close())
  return { dir, ctx, report, replica, source }
}

const hashOf = (ctx: TestContext, username: string) =>
  String(
    ctx.app.sqlite
      .prepare('SELECT password_hash FROM users WHERE username = ?')
      .pluck()
      .get(username)
  )

async function loginAs (ctx: TestContext, username: string, password: string) {
  const c = client(ctx.app, { id: 0, username, role: 'member' })
  const response = await c.post('/login', { username, password })
  return { c, response }
}

test('demo database: votes, answers and comments arrive; nothing is skipped', async (t) => {
  const { ctx, report, replica, source } = await importDemo(t)
  const rows = (sql: string) => Number(source.prepare(sql).pluck().get())
  for (const table of report.tables) assert.deepEqual(table.skipped, [], `${table.table}: skipped`)
  assert.deepEqual(report.resetLinks, [], 'every password kept: no reset links')
  assert.ok(report.users.every((u) => u.passwordKept))

  const { c: admin, response } = await loginAs(ctx, 'admin', DEMO_PASSWORDS.admin)
  assert.equal(response.statusCode, 200, response.body)
  // The admin's demo password is 10 characters: below the policy, so a change comes first.
  assert.equal(json<Ok<'/login', 'post'>>(response).user.passwordChangeRequired, true)
  const changed = await admin.put('/change_password', {
    currentPassword: DEMO_PASSWORDS.admin,
    newPassword: NEW_PASSWORD
  })
  assert.equal(changed.statusCode, 204, changed.body)

  // Votes: every song's, through the API.
  const songs = json<Array<{ id: number }>>(await admin.get('/songs?includeRetired=true'))
  const votes: Array<{ vote: string }> = []
  for (const song of songs) {
    votes.push(...json<{ votes: Array<{ vote: string }> }>(
      await admin.get(`/songs/${song.id}/votes`)
    ).votes)
  }
  const expectedVotes = rows('SELECT count(*) FROM song_feedback')
  assert.equal(votes.length, expectedVotes)
  const tally = (list: Array<{ vote?: string; value?: string }>, v: string) =>
    list.filter((x) => (x.vote ?? x.value) === v).length
  if (!replica) {
    assert.equal(votes.length, 6)
    // a, na, o: two each
    assert.deepEqual(
      ['yes', 'no', 'abstain'].map((v) => tally(votes, v)),
      [2, 2, 2]
    )
  }

  // Answers with their comments.
  const surveys = json<Array<{ id: number }>>(await admin.get('/surveys'))
  const answers: Array<{ value: string; comment: string | null }> = []
  for (const survey of surveys) {
    const detail = json<Ok<'/surveys/{id}', 'get'>>(await admin.get(`/surveys/${survey.id}`))
    for (const result of detail.results) answers.push(...result.answers)
  }
  const comments = answers.filter((a) => a.comment !== null)
  assert.equal(answers.length, rows('SELECT count(*) FROM survey_feedback'))
  assert.equal(
    comments.length,
    rows("SELECT count(*) FROM survey_feedback WHERE trim(coalesce(comment, '')) <> ''")
  )
  if (!replica) {
    assert.equal(answers.length, 14)
    assert.deepEqual(
      comments.map((a) => a.comment).sort(),
      ['Kenne ich nicht so gut', 'Nicht unser Stil', 'Super Song!', 'Toller Song']
    )
    // words: ja ×4, nein, vielleicht; the date poll: a ×4, m ×2, o (no) ×2
    assert.deepEqual(
      ['yes', 'maybe', 'no'].map((v) => tally(answers, v)),
      [8, 3, 3]
    )
  }
})

test('a demo member logs in with the libreStage password, is held to a change, then works',
  async (t) => {
    const { ctx, report } = await importDemo(t)
    const member = report.users.find((u) => u.role !== 'admin' && u.status === 'active')!
    const name = member.username
    assert.match(hashOf(ctx, name), /^foreign:\$2[aby]\$\d\d\$/)

    // A wrong password, and one of 80 bytes, are refused; the hash stays.
    for (const password of ['Demo1234?', DEMO_PASSWORDS.musician + 'x'.repeat(71)]) {
      const { response } = await loginAs(ctx, name, password)
      assert.equal(response.statusCode, 401, password)
      assert.equal(json<ErrorResponseBody>(response).code, 'INVALID_CREDENTIALS')
    }
    assert.match(hashOf(ctx, name), /^foreign:/)

    const { c, response } = await loginAs(ctx, name, DEMO_PASSWORDS.musician)
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(json<Ok<'/login', 'post'>>(response).user.passwordChangeRequired, true)
    // Verified once, rehashed at once: the stored hash is Bandstand's own.
    assert.match(hashOf(ctx, name), /^scrypt\$/)

    const me = await c.get('/me')
    assert.equal(me.statusCode, 200)
    assert.equal(json<Ok<'/me', 'get'>>(me).passwordChangeRequired, true)
    for (const url of ['/songs', '/gigs', '/surveys', '/me/sessions', '/users']) {
      const held = await c.get(url)
      assert.equal(held.statusCode, 403, url)
      assert.equal(json<ErrorResponseBody>(held).code, 'PASSWORD_CHANGE_REQUIRED', url)
    }
    const write = await c.put('/update_user', { displayName: 'Someone else' })
    assert.equal(json<ErrorResponseBody>(write).code, 'PASSWORD_CHANGE_REQUIRED')
    assert.equal((await c.post('/refresh')).statusCode, 200, '/refresh stays open')

    // The policy still applies to the new password, and the old one must not be reused.
    const weak = await c.put('/change_password', {
      currentPassword: DEMO_PASSWORDS.musician,
      newPassword: 'Demo12345!'
    })
    assert.equal(weak.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(weak).code, 'WEAK_PASSWORD')
    const ok = await c.put('/change_password', {
      currentPassword: DEMO_PASSWORDS.musician,
      newPassword: NEW_PASSWORD
    })
    assert.equal(ok.statusCode, 204, ok.body)
    assert.equal(json<Ok<'/me', 'get'>>(await c.get('/me')).passwordChangeRequired, false)
    assert.equal((await c.get('/songs')).statusCode, 200)
    assert.equal((await c.get('/surveys')).statusCode, 200)
    assert.equal((await c.post('/logout')).statusCode, 204, '/logout')

    // The libreStage password is gone; the new one works without a hold.
    assert.equal((await loginAs(ctx, name, DEMO_PASSWORDS.musician)).response.statusCode, 401)
    const again = await loginAs(ctx, name, NEW_PASSWORD)
    assert.equal(again.response.statusCode, 200)
    assert.equal(json<Ok<'/login', 'post'>>(again.response).user.passwordChangeRequired, false)
  }
)

test('foreign hashes: no truncation at 72 bytes, a concurrent change wins', async (t) => {
  const { ctx, report } = await importDemo(t)
  const [first, second] = report.users.filter((u) => u.role !== 'admin' && u.status === 'active')
  // bcrypt reads 72 bytes: a hash of 72 bytes would match any longer password starting with them.
  const long = 'ü'.repeat(36) // 72 bytes in UTF-8
  const set = ctx.app.sqlite.prepare('UPDATE users SET password_hash = ? WHERE username = ?')
  set.run(`foreign:${bcrypt.hashSync(long, 4)}`, first!.username)
  assert.equal((await loginAs(ctx, first!.username, long + 'tail')).response.statusCode, 401)
  assert.match(hashOf(ctx, first!.username), /^foreign:/)
  const exact = await loginAs(ctx, first!.username, long)
  assert.equal(exact.response.statusCode, 200, '72 bytes exactly are checked')
  assert.equal(json<Ok<'/login', 'post'>>(
    exact.response).user.passwordChangeRequired, false, '36 characters: enough')

  // Compare-and-set: a hash replaced meanwhile (an admin, a reset link) is not overwritten.
  const foreign = hashOf(ctx, second!.username)
  const admins = await hashPassword('set by an admin in between')
  set.run(admins, second!.username)
  const id = report.users.find((u) => u.username === second!.username)!
  const userId = Number(
    ctx.app.sqlite.prepare('SELECT id FROM users WHERE username = ?').pluck().get(id.username)
  )
  assert.equal(
    replaceForeignHash(
      ctx.app.db,
      userId,
      foreign,
      { passwordHash: 'scrypt$late', passwordChangeRequired: true },
      ctx.now()
    ),
    false
  )
  assert.equal(hashOf(ctx, second!.username), admins)
  // Through the API: the login that verified the old hash loses to the change made meanwhile.
  set.run(foreign, second!.username)
  const pending = loginAs(ctx, second!.username, DEMO_PASSWORDS.musician)
  setTimeout(() => set.run(admins, second!.username), 30)
  assert.equal((await pending).response.statusCode, 401)
  assert.equal(hashOf(ctx, second!.username), admins)
  // Unknown users still get the same answer.
  const unknown = await anonymous(ctx.app).post('/login', {
    username: 'nobody',
    password: DEMO_PASSWORDS.musician
  })
  assert.equal(json<ErrorResponseBody>(unknown).code, 'INVALID_CREDENTIALS')
})

test('foreign hashes above cost 12 stored before the cap are never checked', async (t) => {
  const { ctx, report } = await importDemo(t)
  const [member] = report.users.filter((u) => u.role !== 'admin' && u.status === 'active')
  // Cost 13: ~0.6 s of a core per check, doubling per step (the review's cost 31: days).
  const dear = `foreign:${bcrypt.hashSync(DEMO_PASSWORDS.musician, 13)}`
  ctx.app.sqlite.prepare('UPDATE users SET password_hash = ? WHERE username = ?')
    .run(dear, member!.username)
  const login = await loginAs(ctx, member!.username, DEMO_PASSWORDS.musician)
  assert.equal(login.response.statusCode, 401, 'the right password: still refused')
  assert.equal(json<ErrorResponseBody>(login.response).code, 'INVALID_CREDENTIALS')
  assert.equal(hashOf(ctx, member!.username), dear, 'kept until a reset link sets one')
})

test('band export → import keeps the answer comments and the change-required flag', async (t) => {
  const { dir, ctx } = await importDemo(t)
  const held = await loginAs(ctx, 'admin', DEMO_PASSWORDS.admin)
  assert.equal(json<Ok<'/login', 'post'>>(held.response).user.passwordChangeRequired, true)
  const file = join(dir, 'band.json')
  const exported = io()
  assert.equal(await runCli(['export', file], { DATA_DIR: ctx.dir }, exported.io), 0)
  const target = join(dir, 'moved')
  const imported = io()
  assert.equal(
    await runCli(
      ['import', file, '--base-url', 'https://band.example'],
      { DATA_DIR: target },
      imported.io
    ),
    0,
    imported.err.join('\n')
  )
  const read = (sqlite: Database.Database) => ({
    comments: sqlite
      .prepare('SELECT comment FROM survey_answers WHERE comment IS NOT NULL ORDER BY comment')
      .pluck()
      .all(),
    flags: sqlite
      .prepare('SELECT username, password_change_required AS f FROM users ORDER BY id')
      .all()
  })
  const handle = openDatabase(join(target, 'bandstand.db'))
  t.after(() => handle.close())
  const before = read(ctx.app.sqlite)
  assert.ok(before.comments.length > 0)
  assert.deepEqual(
    before.flags.filter((u: any) => u.f === 1).map((u: any) => u.username),
    ['admin']
  )
  assert.deepEqual(read(handle.sqlite), before)
})
