import { test } from 'node:test'
import assert from 'node:assert/strict'
import { asc, getTableColumns } from '#src/db/orm.js'
import { users } from '#src/db/schema.js'
import { iterateSelect } from '#src/db/iterate.js'
import { createTestApp, createUser } from '#test/helpers.js'

test('a select read row by row gives the rows drizzle gives, values mapped alike', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await createUser(ctx.app, 'mia', 'member', { instruments: ['Drums'], isSinger: true })
  await createUser(ctx.app, 'max', 'member', { email: null, occasional: true })
  const query = ctx.app.db.select().from(users).orderBy(asc(users.username))
  const rows = [...iterateSelect(ctx.app.sqlite, query, getTableColumns(users))]
  assert.deepEqual(rows, query.all(), 'booleans, JSON and nulls as drizzle maps them')

  // A selection of its own, in its order.
  const picked = { name: users.displayName, singer: users.isSinger }
  const some = ctx.app.db.select(picked).from(users).orderBy(asc(users.username))
  assert.deepEqual([...iterateSelect(ctx.app.sqlite, some, picked)],
    [{ name: 'Max', singer: false }, { name: 'Mia', singer: true }])
})
