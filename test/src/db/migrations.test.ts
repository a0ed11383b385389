import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, migrate } from '#src/db/orm.js'
import { migrationsFolder, openDatabase } from '#src/db/client.js'

interface Journal {
  entries: Array<{ idx: number; tag: string }>
}
const journal = JSON.parse(
  readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')
) as Journal

/** A copy of the migrations folder that stops after migration `upTo` (inclusive). */
function migrationsUpTo (upTo: number, dir: string): string {
  const folder = join(dir, `migrations-${upTo}`)
  cpSync(migrationsFolder, folder, { recursive: true })
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.idx <= upTo) })
  )
  return folder
}

type Row = Record<string, unknown>
const tables = (sqlite: Database.Database) =>
  (
    sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE " +
          "'sqlite_%' AND name NOT LIKE '__drizzle%'"
      )
      .all() as Row[]
  ).map((r) => String(r.name))

/**
 * Puts rows into every table, whatever the schema at that migration: columns are filled by their
 * declared type, foreign keys point at the parent row of the same number, parents first.
 */
function fillEveryTable (sqlite: Database.Database, rowsPerTable: number): void {
  const names = tables(sqlite)
  const parents = new Map(
    names.map((t) => [
      t,
      (sqlite.prepare(`PRAGMA foreign_key_list("${t}")`).all() as Row[]).map((fk) => ({
        from: String(fk.from),
        table: String(fk.table)
      }))
    ])
  )
  const done = new Set<string>()
  while (done.size < names.length) {
    const ready = names.filter(
      (t) => !done.has(t) && parents.get(t)!.every((p) => p.table === t || done.has(p.table))
    )
    assert.ok(ready.length > 0, 'foreign key cycle between tables')
    for (const table of ready) {
      const columns = sqlite.prepare(`PRAGMA table_info("${table}")`).all() as Row[]
      const single = /CHECK\s*\(\s*"?(\w+"?\.)?"?id"?\s*=\s*1\s*\)/i.test(
        String(
          (sqlite.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as Row).sql
        )
      )
      for (let i = 1; i <= (single ? 1 : rowsPerTable); i++) {
        const values = columns.map((c) => {
          const name = String(c.name)
          const fk = parents.get(table)!.find((p) => p.from === name)
          // A file belongs to a song or to a gig, never both (CHECK files_one_owner).
          if (fk && table === 'files' && name === 'gig_id') return null
          if (fk) return i // parents have rowsPerTable rows, so row i exists
          const type = String(c.type).toUpperCase()
          if (name === 'rating') return 1 + (i % 3)
          if (type.includes('INT')) return i
          if (type.includes('BLOB')) return Buffer.from([i])
          if (type.includes('REAL')) return i / 2
          return name.endsWith('s') ||
            ['instruments', 'composers', 'links', 'config'].includes(name)
            ? JSON.stringify([`${name}-${i}`])
            : `${name}-${i}`
        })
        sqlite
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${String(c.name)}"`).join(', ')}) ` +
              `VALUES (${columns.map(() => '?').join(', ')})`
          )
          .run(...values)
      }
    }
    ready.forEach((t) => done.add(t))
  }
}

const counts = (sqlite: Database.Database) =>
  Object.fromEntries(
    tables(sqlite).map((t) => [
      t,
      Number((sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as Row).n)
    ])
  )

test(
  'every migration keeps the data of every table (built at each earlier migration, ' +
    'migrated to the latest)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-migrations-'))
    try {
      for (const entry of journal.entries) {
        const file = join(dir, `at-${entry.idx}.db`)
        const sqlite = new Database(file)
        sqlite.pragma('foreign_keys = ON')
        migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(entry.idx, dir) })
        fillEveryTable(sqlite, 3)
        const before = counts(sqlite)
        sqlite.close()

        // The application's own open path: WAL, foreign keys on, every pending migration applied.
        const handle = openDatabase(file)
        const after = counts(handle.sqlite)
        for (const [table, n] of Object.entries(before)) {
          if (table in after) {
            assert.equal(after[table], n, `${table} lost rows migrating from ${entry.tag}`)
          }
        }
        assert.equal((handle.sqlite.pragma('integrity_check') as Row[])[0]!.integrity_check, 'ok')
        assert.deepEqual(handle.sqlite.pragma('foreign_key_check'), [])
        handle.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
)

test('migration 0012 reads every stored key as music; an unreadable one is kept as text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-keys-'))
  try {
    const before = journal.entries.find((e) => e.tag.endsWith('song_keys_as_music'))!.idx - 1
    for (const notation of ['german', 'english'] as const) {
      const file = join(dir, `keys-${notation}.db`)
      const sqlite = new Database(file)
      migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(before, dir) })
      sqlite
        .prepare(
          "INSERT INTO app_settings (id, config, updated_at) VALUES (1, ?, '2026-01-01T00:00:00Z')"
        )
        .run(JSON.stringify({ chordNotation: notation, keys: ['C-Dur', 'a-Moll'] }))
      const written = [
        'C-Dur', 'B-Dur', 'H-Dur', 'fis-Moll', 'a-moll', 'Es', 'H', 'F#m', 'Ebm', 'B', 'Gm',
        'wechselnd', null
      ]
      const insert = sqlite.prepare(
        "INSERT INTO songs (title, key, created_at, updated_at) VALUES (?, ?, '2026', '2026')"
      )
      written.forEach((key, i) => insert.run(`Song ${i}`, key))
      sqlite.close()

      const handle = openDatabase(file)
      const rows = handle.sqlite
        .prepare('SELECT key, key_text AS keyText FROM songs ORDER BY id')
        .all() as Row[]
      const bareB = notation === 'german' ? 'Bb' : 'B'
      assert.deepEqual(rows.map((r) => r.key), [
        'C', 'Bb', 'B', 'F#m', 'Am', 'Eb', 'B', 'F#m', 'Ebm', bareB, 'Gm', null, null
      ])
      assert.deepEqual(rows.map((r) => r.keyText), [...Array(11).fill(null), 'wechselnd', null])
      const config = handle.sqlite.prepare('SELECT config FROM app_settings').get() as Row
      assert.deepEqual(JSON.parse(String(config.config)), { chordNotation: notation })
      handle.close()
      // Opening again changes nothing.
      const again = openDatabase(file)
      const rowsAgain = again.sqlite
        .prepare('SELECT key, key_text AS keyText FROM songs ORDER BY id').all()
      assert.deepEqual(rowsAgain, rows)
      again.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
