import { test } from 'node:test'
import assert from 'node:assert/strict'
import { getTableColumns, is, SQLiteTable } from '#src/db/orm.js'
import * as schema from '#src/db/schema.js'
import * as enums from '#shared/enums.js'
import { GigStatus } from '#schemas/gigs.js'
import { SongStatus } from '#schemas/songs.js'

test('every enum column of the database is one of the value sets of src/db/enums.ts', () => {
  const sets: unknown[] = Object.values(enums).filter(Array.isArray)
  let columns = 0
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable)) continue
    for (const [name, column] of Object.entries(getTableColumns(table))) {
      const values = (column as { enumValues?: readonly string[] }).enumValues
      if (!values) continue
      columns++
      assert.ok(sets.includes(values), `${name}: derived from src/db/enums.ts, not written again`)
    }
  }
  assert.equal(columns, 23)
  // And the API schemas list the same values.
  assert.deepEqual(GigStatus.enum, [...enums.GIG_STATUSES])
  assert.deepEqual(
    SongStatus.anyOf.map((literal) => literal.const),
    [...enums.SONG_STATUSES]
  )
})
