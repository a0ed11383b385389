import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { Type } from '@sinclair/typebox'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { buildApp } from '#src/app.js'
import { runCli } from '#src/cli.js'
import { loadConfig } from '#src/config.js'
import { openDatabase } from '#src/db/client.js'
import { skipUnreadableRows, type UnreadableRows } from '#src/http/unreadable-rows.js'
import { compileSerializer, createSchemaController } from '#src/validation.js'
import { createTestApp, json, userClient } from '#test/helpers.js'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

/** A migrated database to which a newer version added one migration. */
function migratedByNewer (t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-newer-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'bandstand.db')
  const handle = openDatabase(file)
  handle.sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
    .run('from-a-newer-version', Date.now() + 86_400_000)
  handle.close()
  return { dir, file }
}

test('a database a newer version migrated is refused at start and by every writing command, ' +
  'naming the newest pre-migration backup', async (t) => {
  const { dir, file } = migratedByNewer(t)
  const backups = join(dir, 'backups')
  mkdirSync(backups)
  for (const name of ['bandstand-20261101T010000Z-pre-migration.db',
    'bandstand-20261110T010000Z-pre-migration.db', 'bandstand-20261120T010000Z.db']) {
    writeFileSync(join(backups, name), '')
  }
  const expected = `${file} was migrated by a newer Bandstand (1 migration this version does ` +
    `not know): run that version, or restore ${join(backups, 'bandstand-20261110T010000Z-pre-' +
    'migration.db')}, the backup from before it migrated (docs/operations.md → Upgrade and ` +
    'rollback)'
  const env = { DATA_DIR: dir, BACKUP_DIR: backups, JWT_SECRET: 'x'.repeat(40) }
  await assert.rejects(buildApp({ config: loadConfig(env), logger: false }),
    (error: Error) => error.message === expected)

  for (const command of [['db:migrate'], ['user:create', 'lena'], ['demo:seed'],
    ['user:reset-link', 'admin']]) {
    const cli = io()
    assert.equal(await runCli(command, env, cli.io), 78, command.join(' '))
    assert.deepEqual(cli.err, [`error: ${expected}`])
  }
  // Reading and copying stay possible: doctor, and a backup of the database as it is.
  const doctor = io()
  assert.equal(await runCli(['doctor'], env, doctor.io), 0, doctor.err.join())
  const copy = io()
  assert.equal(await runCli(['db:backup', join(dir, 'copy.db')], env, copy.io), 0, copy.err.join())

  // Without BACKUP_DIR the line still says the way back.
  const bare = io()
  assert.equal(await runCli(['db:migrate'], { DATA_DIR: dir }, bare.io), 78)
  assert.match(bare.err[0]!, /run that version, or restore the backup from before the upgrade \(/)
  const sqlite = new Database(file)
  sqlite.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)')
    .run('another', Date.now() + 2 * 86_400_000)
  sqlite.close()
  const two = io()
  assert.equal(await runCli(['db:migrate'], { DATA_DIR: dir }, two.io), 78)
  assert.match(two.err[0]!, /\(2 migrations this version does not know\)/)
})

test('a key an older version wrote is shown as written, never a 500, and doctor lists it',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'lena', 'editor')
    const made = json<{ id: number }>(await editor.post('/songs', { title: 'Alt', key: 'Am' }))
    await editor.post('/songs', { title: 'Fine', key: 'G' })
    ctx.app.sqlite.prepare("UPDATE songs SET key = 'C-Dur' WHERE id = ?").run(made.id)

    const list = await editor.get('/songs')
    assert.equal(list.statusCode, 200, list.body)
    const songs = json<Array<{ title: string; key: string | null; keyText: string | null }>>(list)
    assert.deepEqual(songs.map(({ title, key, keyText }) => ({ title, key, keyText })), [
      { title: 'Alt', key: null, keyText: 'C-Dur' },
      { title: 'Fine', key: 'G', keyText: null }
    ])
    const one = await editor.get(`/songs/${made.id}`)
    assert.equal(one.statusCode, 200, one.body)

    const doctor = io()
    assert.equal(await runCli(['doctor'], { DATA_DIR: ctx.dir }, doctor.io), 1)
    assert.deepEqual(doctor.out, [
      '1 stored key is not in the form this version reads (written by an older version? shown ' +
        'as written until a key is chosen in the song form):',
      `  #${made.id}  Alt  key "C-Dur"`
    ])
  })

const Row = Type.Object({
  id: Type.Integer(),
  key: Type.Union([Type.String({ pattern: '^[A-G]$' }), Type.Null()])
})

test('a list leaves out a row it cannot serialize, logs its id, and answers 200', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const lines: Array<{ level: number; msg: string; ids?: number[] }> = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line)))
      done()
    }
  })
  const app = await buildApp({
    config: ctx.config,
    createFirstAdmin: false,
    logger: { level: 'warn', stream }
  })
  t.after(() => app.close())
  const config = { access: 'public' as const }
  app.get('/rows', { config, schema: { response: { 200: Type.Array(Row) } } },
    async () => [{ id: 1, key: 'C' }, { id: 2, key: 'C-Dur' }, { id: 3, key: null }])
  app.get('/row', { config, schema: { response: { 200: Row } } },
    async () => ({ id: 2, key: 'C-Dur' }))
  await app.ready()
  const list = await app.inject('/rows')
  assert.equal(list.statusCode, 200)
  assert.deepEqual(list.json(), [{ id: 1, key: 'C' }, { id: 3, key: null }])
  const warned = lines.find((line) => line.msg.startsWith('GET /rows'))
  assert.equal(warned?.msg, 'GET /rows left out 1 stored row(s) it cannot read (ids 2): an ' +
    'older Bandstand wrote them? Run bandstand doctor')
  assert.deepEqual(warned?.ids, [2])
  // One object is no list: that stays the error it is.
  assert.equal((await app.inject('/row')).statusCode, 500)
})

test('the list guard: untouched on success, rethrows when no single row is at fault', () => {
  const reports: UnreadableRows[] = []
  const route = { schema: Type.Array(Row), method: 'GET', url: '/x' }
  const compile = (r: { schema?: unknown }) => compileSerializer(r.schema)
  const whole = compileSerializer(route.schema)
  const guarded = skipUnreadableRows(whole, route, compile, (r) => reports.push(r))
  assert.equal(guarded([{ id: 1, key: null }]), '[{"id":1,"key":null}]')
  assert.equal(guarded([{ id: 'a', key: 'X' }, { key: 'Y' }]), '[]')
  assert.deepEqual(reports.map((r) => r.ids), [['a', null]])
  const failing = () => { throw new Error('whole list') }
  assert.throws(() => skipUnreadableRows(failing, route, compile, () => {})([]), /whole list/)
  assert.throws(() => skipUnreadableRows(failing, route, compile, () => {})('text'),
    /whole list/)
  // Not a list: the serializer as it is.
  const object = { ...route, schema: Row }
  assert.equal(skipUnreadableRows(whole, object, compile, () => {}), whole)
  // The controller's default sink takes reports without a listener.
  const app = Fastify({ schemaController: createSchemaController() })
  return app.close()
})
