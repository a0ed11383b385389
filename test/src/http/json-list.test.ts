import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Type, type TSchema } from '@sinclair/typebox'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { jsonList } from '#src/http/json-list.js'
import { gigs, rehearsals, rehearsalSongs } from '#src/db/schema.js'
import { Gig } from '#schemas/gigs.js'
import { Rehearsal } from '#schemas/rehearsals.js'
import { createTestApp, userClient } from '#test/helpers.js'

type Serialize = (data: unknown) => string
/** A schema's serializer as Fastify compiles a route's response schema. */
const compile = (schema: TSchema): Serialize =>
  (SerializerSelector() as unknown as (e: unknown, o: unknown) =>
  (r: { schema: unknown }) => Serialize)({}, {})({ schema })

const Item = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  note: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String())
})

test('a list written item by item is byte for byte the array schema\'s JSON', () => {
  const item = compile(Item)
  const array = compile(Type.Array(Item))
  const rows = Array.from({ length: 7 }, (_, i) => ({
    id: i,
    name: `Gig "${i}" – Müller\\Lüdenscheidt\n 🎸`,
    note: i % 2 ? null : '\u2028 <script>',
    tags: i % 3 ? [] : ['a', 'b"c']
  }))
  for (const count of [0, 1, 2, 3, 7]) {
    const some = rows.slice(0, count)
    // The rows are turned into items one by one: the mapper sees each row once.
    let mapped = 0
    const body = jsonList(some, (row) => {
      mapped++
      return row
    }, item)
    assert.equal(body.toString('utf8'), array(some), `${count} rows`)
    assert.equal(mapped, count)
  }
})

test('lists beyond the scratch space, and after a failed one, keep their bytes', () => {
  const item = compile(Item)
  const array = compile(Type.Array(Item))
  const rows = (count: number, name: string) => Array.from({ length: count }, (_, i) => ({
    id: i, name: `${name} ${i}`, note: null, tags: []
  }))
  // 70 KB, then 3 MB (more than the scratch kept between lists), then small ones again.
  const lists = [[1_000, 'Ständchen'], [25_000, 'Ölgemälde 🎺 blues'], [2, 'x']] as const
  for (const [count, name] of lists) {
    const some = rows(count, name)
    const body = jsonList(some, (row) => row, item)
    assert.equal(body.length, Buffer.byteLength(array(some)))
    assert.ok(body.equals(Buffer.from(array(some))), `${count} rows`)
  }
  assert.throws(() => jsonList(rows(3, 'a'), (row) => {
    if (row.id === 2) throw new Error('unreadable row')
    return row
  }, item), /unreadable row/)
  assert.equal(jsonList(rows(1, 'b'), (row) => row, item).toString(), array(rows(1, 'b')))
})

test('GET /gigs and GET /rehearsals of hundreds answer the array schema\'s bytes', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const member = await userClient(ctx.app, 'mia')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const [song, other] = await Promise.all(['Ständchen "live"', 'Über sieben Brücken'].map(
    async (title) => JSON.parse((await editor.post('/songs', { title })).body) as { id: number }))
  const stamps = { createdAt: '2030-01-01T10:00:00.000Z', updatedAt: '2030-01-02T10:00:00.000Z' }
  // Hundreds of each, with values that need escaping.
  ctx.app.db.insert(gigs).values(Array.from({ length: 450 }, (_, i) => ({
    name: `Hochzeit "${i}" Müller`,
    date: `2030-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    venueName: i % 2 ? null : 'Schloß\nWeißenstein',
    startTime: i % 3 ? '19:00' : null,
    endTime: i % 3 ? '01:00' : null,
    ...stamps
  }))).run()
  const planned = ctx.app.db.insert(rehearsals).values(Array.from({ length: 230 }, (_, i) => ({
    date: `2031-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    startTime: '19:00',
    endTime: '21:00',
    notes: i % 2 ? null : `Bridge \\ ${i}`,
    ...stamps
  }))).returning().all()
  // Songs in an order other than the lines' ids, with notes and ticks.
  const practised = planned.filter((_, i) => i % 4 === 0)
  ctx.app.db.insert(rehearsalSongs).values(practised.flatMap((r, i) => [
    { rehearsalId: r.id, songId: song!.id, position: i % 2, notes: `Takt ${i} "forte"` },
    { rehearsalId: r.id, songId: other!.id, position: 1 - (i % 2), done: i % 3 === 0 }
  ])).run()

  for (const [path, schema, count] of [
    ['/gigs', Gig, 450],
    ['/rehearsals', Rehearsal, 230]
  ] as const) {
    const answer = await member.get(path)
    assert.equal(answer.statusCode, 200, answer.body)
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8')
    const list = JSON.parse(answer.body) as unknown[]
    assert.equal(list.length, count)
    // What the route's array serializer made of the same items before.
    assert.equal(answer.body, compile(Type.Array(schema))(list), path)
  }
  // Each rehearsal of the list as its own answer gives it (songs read apart there).
  const listed = JSON.parse((await member.get('/rehearsals')).body) as Array<{ id: number }>
  for (const r of [...practised, ...planned.slice(1, 4)]) {
    const own = JSON.parse((await member.get(`/rehearsals/${r.id}`)).body) as unknown
    assert.deepEqual(listed.find((l) => l.id === r.id), own)
  }
})
