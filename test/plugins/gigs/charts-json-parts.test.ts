// The gig's charts answer is made in parts (plugins/gigs/charts-json.ts): the same bytes as the
// route's serializer would make in one piece, and one build for requests that come while it runs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inArray } from '#src/db/orm.js'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import { GigCharts, type GigChartsType } from '#schemas/charts.js'
import { CHARTS_JSON_PART_BYTES, chartsJson } from '#plugins/gigs/charts-json.js'
import { songs } from '#src/db/schema.js'
import { CHART_BATCH_BYTES } from '#src/repositories/gig-charts.js'
import { countStatements, createTestApp, userClient } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

const serialize = (
  SerializerSelector() as unknown as (
    e: unknown, o: unknown
  ) => (r: { schema: unknown }) => (doc: GigChartsType) => string
)({}, {})({ schema: GigCharts })

const entry = (songId: number, position: number) => ({
  entryId: position,
  position,
  setId: 1,
  setName: 'Set "1"',
  positionInSet: position,
  status: 'planned' as const,
  transpose: -2,
  capo: null,
  song: {
    id: songId,
    title: 'Grüß\u2028Gott \\ "du"',
    artist: null,
    key: 'Bb',
    keyTransposed: 'Ab',
    tempoBpm: 96,
    leadSinger: null
  }
})

test('charts JSON in parts: the serializer\'s bytes, a turn of the event loop between parts',
  async () => {
    // Quotes, backslashes, control characters, line separators, umlauts, an emoji.
    const tricky = '{title: "Ständchen"}\r\n[C]a\\b\t\u0001\u2028🎸\n'
    const long = tricky.repeat(Math.ceil(CHARTS_JSON_PART_BYTES / tricky.length / 2))
    const doc: GigChartsType = {
      gigId: 7,
      notation: 'german',
      charts: [entry(1, 1), entry(2, 2), entry(1, 3)],
      songs: [{ id: 1, chart: long }, { id: 2, chart: long }, { id: 3, chart: tricky }]
    }
    const parts: Buffer[] = []
    // Set by an immediate queued as each part arrives: true by the next part only if the event
    // loop had a turn in between.
    const turned: boolean[] = []
    let turn = { done: false }
    for await (const part of chartsJson(doc, serialize)) {
      turned.push(turn.done)
      parts.push(part)
      const next = { done: false }
      setImmediate(() => (next.done = true))
      turn = next
    }
    assert.equal(Buffer.concat(parts).toString(), serialize(doc))
    assert.equal(parts.length, 2, 'a part each time the text passes the part size')
    for (const empty of [{ ...doc, songs: [] }, { ...doc, charts: [], songs: [] }]) {
      const whole: Buffer[] = []
      for await (const part of chartsJson(empty, serialize)) whole.push(part)
      assert.equal(Buffer.concat(whole).toString(), serialize(empty))
    }
    assert.deepEqual(turned, [false, true], 'the event loop turned between the two parts')
  })

test('charts: requests that come while the answer is built share the build', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const ids = insertSongs(ctx.app, 3)
  // Three reads, with turns of the event loop between them in which the others ask.
  ctx.app.db.update(songs).set({ chart: 'x'.repeat(CHART_BATCH_BYTES) })
    .where(inArray(songs.id, ids)).run()
  const gig = await createGig(editor)
  await putSetlist(editor, gig.id, [ids])
  const { result, statements } = await countStatements(ctx.app, () => Promise.all(
    [0, 1, 2].map(() => member.get(`/gigs/${gig.id}/charts`))))
  assert.deepEqual(result.map((r) => r.statusCode), [200, 200, 200])
  assert.equal(new Set(result.map((r) => r.body)).size, 1)
  assert.equal(new Set(result.map((r) => r.headers.etag)).size, 1)
  assert.equal(statements, 2 + 3, 'one build: sizes, entries, three reads of charts')
})
