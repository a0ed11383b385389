import { test } from 'node:test'
import assert from 'node:assert/strict'
import { asc, drizzle, integer, sqliteTable, text } from '#src/db/orm.js'
import Database from 'better-sqlite3'
import { chunksFor, columnCount, MAX_BOUND_PARAMETERS, updateRowsById } from '#src/db/batch.js'

const items = sqliteTable('items', {
  id: integer('id').primaryKey(),
  name: text('name'),
  rank: integer('rank'),
  note: text('note')
})

function open () {
  const statements: string[] = []
  const sqlite = new Database(':memory:', { verbose: (s) => statements.push(String(s)) })
  sqlite.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, rank INTEGER, note TEXT)')
  return { db: drizzle(sqlite), sqlite, statements }
}

test('chunksFor keeps every statement under the SQLite parameter limit', () => {
  assert.deepEqual(chunksFor([], 4), [])
  assert.deepEqual(chunksFor([1, 2, 3], 4), [[1, 2, 3]])
  const rows = Array.from({ length: 20000 }, (_, i) => i)
  const chunks = chunksFor(rows, 4)
  assert.deepEqual(chunks.flat(), rows)
  assert.ok(chunks.every((c) => c.length * 4 <= MAX_BOUND_PARAMETERS))
  assert.equal(chunks.length, Math.ceil((20000 * 4) / MAX_BOUND_PARAMETERS))
  assert.equal(columnCount(items), 4)
})

test('updateRowsById: each row gets its own values in one statement, other rows untouched', (t) => {
  const { db, sqlite, statements } = open()
  t.after(() => sqlite.close())
  db.insert(items)
    .values([1, 2, 3, 4].map((id) => ({ id, name: `old ${id}`, rank: id, note: 'keep' })))
    .run()
  statements.length = 0
  updateRowsById(
    db,
    items,
    items.id,
    [items.name, items.rank],
    [
      [3, 'three', 30],
      [1, null, 10]
    ]
  )
  assert.equal(statements.length, 1)
  assert.deepEqual(db.select().from(items).orderBy(asc(items.id)).all(), [
    { id: 1, name: null, rank: 10, note: 'keep' },
    { id: 2, name: 'old 2', rank: 2, note: 'keep' },
    { id: 3, name: 'three', rank: 30, note: 'keep' },
    { id: 4, name: 'old 4', rank: 4, note: 'keep' }
  ])
  statements.length = 0
  updateRowsById(db, items, items.id, [items.name], [])
  assert.equal(statements.length, 0, 'nothing to update: no statement')
  assert.throws(() => updateRowsById(db, items, items.id, [items.name], [[1]]))
})

test('updateRowsById: more rows than one statement may bind are split into chunks', (t) => {
  const { db, sqlite, statements } = open()
  t.after(() => sqlite.close())
  const count = 12000 // 12000 × 4 parameters > 32766
  sqlite.exec(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i ' +
      `< ${count}) INSERT INTO items (id, name, rank) SELECT i, 'x', 0 FROM n`
  )
  statements.length = 0
  updateRowsById(
    db,
    items,
    items.id,
    [items.name, items.rank, items.note],
    Array.from({ length: count }, (_, i) => [i + 1, `n${i + 1}`, i + 1, null])
  )
  assert.equal(statements.length, 2)
  const wrong = sqlite
    .prepare("SELECT count(*) AS c FROM items WHERE name <> 'n' || id OR rank <> id")
    .get() as { c: number }
  assert.equal(wrong.c, 0)
})
