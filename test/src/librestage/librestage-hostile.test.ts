import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { runCli } from '#src/cli.js'
import { LibreStageImportError, readLibreStage } from '#src/librestage/source.js'
import { buildDemoReplica } from '#test/librestage-fixture.js'

// A libreStage file's schema is code its sender wrote. Generated columns, views,
// triggers and virtual tables are refused from the catalogue, before anything evaluates a row: the
// generated columns here fail when evaluated, so a check that ran them first would answer
// differently.

const hostile: Array<[string, string, RegExp]> = [
  [
    'a generated column of a table read',
    "ALTER TABLE users ADD COLUMN boom TEXT GENERATED ALWAYS AS (json('not json')) VIRTUAL",
    /the generated column "users\.boom"/
  ],
  [
    'a stored generated column of another table',
    'CREATE TABLE extra (x INTEGER, y INTEGER GENERATED ALWAYS AS (x * 2) STORED); ' +
      'INSERT INTO extra (x) VALUES (1)',
    /the generated column "extra\.y"/
  ],
  [
    'a virtual table',
    'CREATE VIRTUAL TABLE notes USING fts5(body)',
    /the virtual table "notes"/
  ],
  [
    'a trigger',
    'CREATE TRIGGER songs_touch AFTER UPDATE ON songs BEGIN SELECT 1; END',
    /the trigger "songs_touch"/
  ],
  [
    'a view',
    'CREATE VIEW everyone AS SELECT * FROM users',
    /the view "everyone"/
  ]
]

test('a libreStage file with generated columns, views, triggers, virtual tables: refused', async (
  t
) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-hostile-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  for (const [name, sql, message] of hostile) {
    const file = join(dir, `${name.replace(/\W+/g, '-')}.db`)
    buildDemoReplica(file)
    const db = new Database(file)
    db.exec(sql)
    db.close()
    assert.throws(
      () => readLibreStage(file),
      (error: Error) => error instanceof LibreStageImportError && message.test(error.message),
      name
    )
    const out: string[] = []
    const err: string[] = []
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }
    const code = await runCli(['import-librestage', file], { DATA_DIR: join(dir, 'data') }, io)
    assert.equal(code, 1, name)
    assert.match(err.join('\n'), /is not a plain libreStage database/, name)
    assert.ok(!/\n\s+at /.test(err.join('\n')), `${name}: a message, not a stack trace`)
  }
  // The plain file still reads.
  const plain = join(dir, 'plain.db')
  buildDemoReplica(plain)
  assert.equal(readLibreStage(plain).rows.users.length, 5)
})
