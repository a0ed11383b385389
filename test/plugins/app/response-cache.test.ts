import { test } from 'node:test'
import assert from 'node:assert/strict'
import Database from 'better-sqlite3'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { setTimeout as sleep } from 'node:timers/promises'
import { EXTERNAL_CHANGES_CHECK_MS } from '#plugins/app/db.js'
import responseCache from '#plugins/app/response-cache.js'
import { countStatements, createTestApp, json, userClient, type Ok } from '#test/helpers.js'

test(
  'cached reads: any write invalidates them, including writes by another connection (the CLI)',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'ed', 'editor')
    assert.equal((await editor.post('/songs', { title: 'Alpha', status: 'ready' })).statusCode, 201)

    const first = await editor.get('/songs')
    assert.deepEqual(
      json<Ok<'/songs', 'get'>>(first).map((s: { title: string }) => s.title),
      ['Alpha']
    )
    const etag = String(first.headers.etag)

    // Between writes a repeated read runs no query of its own, and not even the session check
    // (remembered for the revision): only the revision's own read.
    const repeat = await countStatements(ctx.app, () => editor.get('/songs'))
    assert.equal(repeat.result.statusCode, 200)
    assert.equal(repeat.result.body, first.body)
    assert.equal(repeat.statements, 0, repeat.sql.join('\n'))
    assert.equal(repeat.sessionChecks, 0)
    assert.ok(repeat.probes.includes('SELECT total_changes()'), repeat.probes.join('\n'))
    assert.equal((await editor.get('/songs', { 'if-none-match': etag })).statusCode, 304)

    // A write through the API...
    assert.equal(
      (await editor.patch(`/songs/${json<Ok<'/songs', 'get'>>(
        first)[0]!.id}`, { title: 'Alpha Omega' })).statusCode,
      200
    )
    const afterPatch = await editor.get('/songs', { 'if-none-match': etag })
    assert.equal(afterPatch.statusCode, 200)
    assert.equal(json<Ok<'/songs', 'get'>>(afterPatch)[0]!.title, 'Alpha Omega')

    // ...and a write by another process on the same file, seen once the interval in which the
    // revision looks for other processes' commits has passed.
    const other = new Database(ctx.config.databaseFile)
    other.prepare("UPDATE songs SET title = 'Changed elsewhere'").run()
    other.close()
    await sleep(EXTERNAL_CHANGES_CHECK_MS)
    const afterOther = await editor.get('/songs', {
      'if-none-match': String(afterPatch.headers.etag)
    })
    assert.equal(afterOther.statusCode, 200)
    assert.equal(json<Ok<'/songs', 'get'>>(afterOther)[0]!.title, 'Changed elsewhere')

    // Different queries are different entries.
    assert.deepEqual(json<Ok<'/songs', 'get'>>(await editor.get('/songs?q=nothing')), [])
  }
)

test('cached reads are compressed once per revision and decode to the same JSON', async (t) => {
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib')
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (let i = 0; i < 30; i++) {
    await editor.post('/songs', {
      title: `Lied ${i} über Brücken`,
      status: 'ready',
      composers: ['Müller, Hans']
    })
  }
  const plain = await editor.get('/songs')
  const br = await ctx.app.inject({
    method: 'GET',
    url: '/songs',
    headers: { cookie: editor.jar.header(), 'accept-encoding': 'gzip, br' }
  })
  const gz = await ctx.app.inject({
    method: 'GET',
    url: '/songs',
    headers: { cookie: editor.jar.header(), 'accept-encoding': 'gzip;q=1, br;q=0' }
  })
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.equal(br.headers['content-encoding'], 'br')
  assert.equal(gz.headers['content-encoding'], 'gzip')
  assert.match(String(br.headers.vary), /accept-encoding/i)
  assert.ok(br.rawPayload.length < plain.rawPayload.length / 3)
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body)
  assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body)
  // The second compressed read is served from the cache: the same bytes.
  const again = await ctx.app.inject({
    method: 'GET',
    url: '/songs',
    headers: { cookie: editor.jar.header(), 'accept-encoding': 'br' }
  })
  assert.deepEqual(again.rawPayload, br.rawPayload)
})

test('the cache keeps maxBytes, least recently used out; a large answer is not kept', async (t) => {
  const app = Fastify({ logger: false })
  t.after(() => app.close())
  // Stand-ins for the database revision (one revision: nothing is ever written).
  await app.register(fp(async (instance) => {
    instance.decorate('dbRevision', () => 'r1')
    instance.decorateRequest('dbRevision', null)
  }, { name: 'db' }))
  await app.register(fp(async () => {}, { name: 'session' }))
  await app.register(responseCache, { maxBytes: 4000 })
  const builds = new Map<string, number>()
  app.get('/:key', (request, reply) => {
    const { key } = request.params as { key: string }
    return app.sendCached(request, reply, key, 'text/plain', () => {
      builds.set(key, (builds.get(key) ?? 0) + 1)
      return (key === 'big' ? 'x' : key).repeat(key === 'big' ? 1500 : 900)
    })
  })
  const get = async (key: string) => assert.equal((await app.inject(`/${key}`)).statusCode, 200)
  for (const key of ['a', 'b', 'c', 'd']) await get(key)
  await get('a') // a is now the most recently used
  await get('e') // 4,500 bytes: b, the least recently used, leaves
  await get('a')
  await get('b')
  await get('big')
  await get('big')
  assert.deepEqual(Object.fromEntries(builds), { a: 1, b: 2, c: 1, d: 1, e: 1, big: 2 })
})

test('a missing gig stays 404 on cached routes: no ETag, never a 304', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const created = await editor.post('/gigs', { name: 'Club', date: '2030-01-01' })
  const gone = json<Ok<'/gigs', 'post'>>(created).id
  assert.equal((await editor.post('/gigs', { name: 'Bar', date: '2030-01-02' })).statusCode, 201)
  const listed = await editor.get('/gigs')
  // Tags a client kept from when the gig existed.
  const kept = new Map<string, string>()
  for (const url of [`/gigs_lm/${gone}`, `/gigs/${gone}/setlist`]) {
    kept.set(url, String((await editor.get(url)).headers.etag))
  }
  assert.equal((await editor.delete(`/gigs/${gone}`)).statusCode, 204)
  for (const [url, etag] of kept) {
    const missing = await editor.get(url)
    assert.equal(missing.statusCode, 404, url)
    assert.equal(missing.headers.etag, undefined, `${url}: a 404 carries no ETag`)
    const again = await editor.get(url, { 'if-none-match': etag })
    assert.equal(again.statusCode, 404, `${url}: still 404 with the old If-None-Match`)
  }
  // The list changed (one gig less); an unrelated write leaves an answer's tag as it was.
  const relisted = await editor.get('/gigs', { 'if-none-match': String(listed.headers.etag) })
  assert.equal(relisted.statusCode, 200)
  const unrelated = await editor.post('/songs', { title: 'Unrelated', status: 'ready' })
  assert.equal(unrelated.statusCode, 201)
  const cached = await editor.get('/gigs', { 'if-none-match': String(relisted.headers.etag) })
  assert.equal(cached.statusCode, 304, 'the same bytes keep their ETag across revisions')
})
