import { test } from 'node:test'
import assert from 'node:assert/strict'
import Database from 'better-sqlite3'
import { countStatements, createTestApp, json, userClient } from './helpers.js'

test('cached reads: any write invalidates them, including writes by another connection (the CLI)', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  assert.equal((await editor.post('/songs', { title: 'Alpha', status: 'ready' })).statusCode, 201)

  const first = await editor.get('/songs')
  assert.deepEqual(json(first).map((s: { title: string }) => s.title), ['Alpha'])
  const etag = String(first.headers.etag)

  // Between writes a repeated read runs no query of its own: only the session check and the revision.
  const repeat = await countStatements(ctx.app, () => editor.get('/songs'))
  assert.equal(repeat.result.statusCode, 200)
  assert.equal(repeat.result.body, first.body)
  assert.equal(repeat.statements, 2, repeat.sql.join('\n'))
  assert.equal((await editor.get('/songs', { 'if-none-match': etag })).statusCode, 304)

  // A write through the API...
  assert.equal((await editor.patch(`/songs/${json(first)[0].id}`, { title: 'Alpha Omega' })).statusCode, 200)
  const afterPatch = await editor.get('/songs', { 'if-none-match': etag })
  assert.equal(afterPatch.statusCode, 200)
  assert.equal(json(afterPatch)[0].title, 'Alpha Omega')

  // ...and a write by another process on the same file.
  const other = new Database(ctx.config.databaseFile)
  other.prepare("UPDATE songs SET title = 'Changed elsewhere'").run()
  other.close()
  const afterOther = await editor.get('/songs', { 'if-none-match': String(afterPatch.headers.etag) })
  assert.equal(afterOther.statusCode, 200)
  assert.equal(json(afterOther)[0].title, 'Changed elsewhere')

  // Different queries are different entries.
  assert.deepEqual(json(await editor.get('/songs?q=nothing')), [])
})
