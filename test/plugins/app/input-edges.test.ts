import { test } from 'node:test'
import assert from 'node:assert/strict'
import { gzipSync } from 'node:zlib'
import {
  anonymous, createTestApp, json, sessionClient, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'

test('impossible dates and instants are 400, never stored', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (const date of ['2026-02-31', '2026-02-29', '2025-04-31']) {
    const r = await editor.post('/gigs', { name: 'Impossible', date })
    assert.equal(r.statusCode, 400, date)
    assert.match(json<ErrorResponseBody>(r).message, /date/)
  }
  assert.equal(
    (await editor.post('/gigs', { name: 'Leap day', date: '2028-02-29' })).statusCode,
    201
  )
  assert.equal(
    (await editor.post('/rehearsals', { date: '2026-02-30', startTime: '19:00' })).statusCode,
    400
  )
  const survey = (closesAt: string) =>
    editor.post('/surveys', {
      title: 'When?',
      kind: 'poll',
      options: [{ label: 'a' }, { label: 'b' }],
      closesAt
    })
  assert.equal((await survey('2099-12-31T23:59:60Z')).statusCode, 400, 'leap second')
  assert.equal((await survey('2099-01-01t10:00:00z')).statusCode, 400, 'lower-case t/z')
  assert.equal((await survey('2099-01-01T10:00:00Z')).statusCode, 201)
  const dateSurvey = await editor.post('/surveys', {
    title: 'Date',
    kind: 'date',
    options: [{ at: '2026-02-31T10:00' }, { at: '2026-03-01T10:00' }]
  })
  assert.equal(dateSurvey.statusCode, 400)
  assert.equal(json<Ok<'/gigs', 'get'>>(await editor.get('/gigs')).length, 1)
})

test('control characters and broken Unicode in any body string are refused', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (const name of [
    'a\u0000b',
    'bell\u0007',
    'esc\u001b[31m',
    'half \uD800 surrogate',
    'C1 next line\u0085',
    'C1 CSI\u009b31m',
    // Bidi overrides and isolates: "Trojan Source" text that shows in another order than stored.
    'invoice\u202Efdp.exe',
    'left \u202A embedding',
    'isolate \u2066x\u2069'
  ]) {
    const r = await editor.post('/gigs', { name, date: '2026-12-31' })
    assert.equal(r.statusCode, 400, JSON.stringify(name))
    assert.equal(json<ErrorResponseBody>(r).code, 'INVALID_TEXT')
    assert.match(json<ErrorResponseBody>(r).message, /body\.name/)
  }
  const nested = await editor.post('/songs', {
    title: 'ok',
    composers: ['Fine, Name', 'Bad\u0001']
  })
  assert.equal(json<ErrorResponseBody>(nested).code, 'INVALID_TEXT')
  assert.match(json<ErrorResponseBody>(nested).message, /composers\.1/)
  // Tabs, line breaks, umlauts and emoji are text.
  const fine = await editor.post('/gigs', {
    name: 'Schützenfest 🎺',
    date: '2026-12-31',
    notes: 'Zeile 1\nZeile 2\tmit Tab\r\n'
  })
  assert.equal(fine.statusCode, 201)
  assert.equal(json<Ok<'/gigs', 'get'>>(await editor.get('/gigs')).length, 1)
})

test(
  'URLs the router cannot decode answer in the error shape without echoing the URL',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const long = await anonymous(ctx.app).get(`/cal/ical/${'s3cr3t'.repeat(40)}`)
    assert.equal(long.statusCode, 414)
    assert.deepEqual(Object.keys(json(long)).sort(), ['code', 'error', 'message', 'statusCode'])
    assert.equal(json<ErrorResponseBody>(long).code, 'URL_TOO_LONG')
    assert.doesNotMatch(long.body, /s3cr3t/)
    const bad = await anonymous(ctx.app).get('/gigs/%E0%A4%A')
    assert.equal(bad.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(bad).code, 'INVALID_URL')
    assert.equal(bad.headers['x-content-type-options'], 'nosniff')
  }
)

test(
  'cached reads: the ETag belongs to the answer, not only to the database revision',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const member = await userClient(ctx.app, 'mia')
    const all = await member.get('/gigs')
    const upcoming = await member.get('/gigs?upcoming=true')
    assert.notEqual(all.headers.etag, upcoming.headers.etag)
    assert.equal(
      (await member.get('/gigs?upcoming=true', { 'if-none-match': String(all.headers.etag) }))
        .statusCode,
      200
    )
    assert.equal(
      (await member.get('/gigs_lm/424242', { 'if-none-match': '*' })).statusCode,
      404,
      '* does not turn a 404 into a 304'
    )
    const notModified = await member.get('/gigs', { 'if-none-match': String(all.headers.etag) })
    assert.equal(notModified.statusCode, 304)
    assert.equal(notModified.headers['content-length'], undefined)
    const config = await anonymous(ctx.app).get('/public/app_config')
    const configAgain = await anonymous(ctx.app).get('/public/app_config', {
      'if-none-match': String(config.headers.etag)
    })
    assert.equal(configAgain.statusCode, 304)
    assert.equal(configAgain.body, '')
    assert.equal(configAgain.headers['content-length'], undefined)
  }
)

test('a route that takes no body refuses one with content; an empty object is fine', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const member = await userClient(ctx.app, 'mia')
  const refused = await member.post('/me/calendar', { userId: 1 })
  assert.equal(refused.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(refused).code, 'UNEXPECTED_BODY')
  assert.equal(json<Ok<'/me/calendar', 'get'>>(await member.get('/me/calendar')).enabled, false)
  assert.equal((await member.post('/me/calendar', {})).statusCode, 201)
  assert.equal((await member.post('/logout')).statusCode, 204)
})

test('ids must be finite: Infinity and 1e400 are 400 in paths, not a lookup', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (const id of ['Infinity', '-Infinity', '1e400', '+Infinity']) {
    for (const url of [`/gigs/${id}`, `/gigs_lm/${id}`, `/songs/${id}/votes`]) {
      const r = await editor.get(url)
      assert.equal(r.statusCode, 400, url)
      assert.equal(json<ErrorResponseBody>(r).code, 'VALIDATION_ERROR', url)
      assert.match(json<ErrorResponseBody>(r).message, /params\.id must be a finite number/, url)
    }
  }
  const body = await ctx.app.inject({
    method: 'PUT',
    url: '/gigs_lm/1/',
    headers: { cookie: editor.jar.header(), 'content-type': 'application/json' },
    payload: '{"entryId": 1e400, "status": "played"}'
  })
  assert.equal(json<ErrorResponseBody>(
    body).code, 'VALIDATION_ERROR', 'a JSON 1e400 (Infinity) is no integer either')
  assert.equal((await editor.get('/gigs/1e3')).statusCode, 404, 'finite exponents stay numbers')
})

test('bodies: a route without one takes at most a few bytes, a public one 16 KiB, unknown routes ' +
  'answer 404 whatever the body; the largest real body fits the global limit', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const send = (method: string, url: string, payload: string, cookie = editor.jar.header()) =>
    ctx.app.inject({
      method: method as 'POST',
      url,
      headers: { cookie, 'content-type': 'application/json' },
      payload
    })
  const padded = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes) })
  const noBody = [
    ['POST', '/me/calendar'],
    ['DELETE', '/me/calendar'],
    ['POST', '/logout'] // last: it ends the session
  ]
  for (const [method, url] of noBody) {
    assert.ok((await send(method!, url!, '{}')).statusCode < 300, `${method} ${url} takes {}`)
    const big = await send(method!, url!, padded(100))
    assert.equal(big.statusCode, 413, `${method} ${url}`)
    assert.equal(json<ErrorResponseBody>(big).code, 'BODY_TOO_LARGE')
  }
  // /login is public (no session yet): 16 KiB, far more than a username and password.
  assert.equal((await send('POST', '/login', padded(20_000), '')).statusCode, 413)
  assert.equal(json<ErrorResponseBody>(
    await send('POST', '/login', padded(10_000), '')).code, 'VALIDATION_ERROR')
  // A body on an unknown route: the normal 404, not a complaint about the body; never read.
  for (const payload of ['{"a":1}', padded(2_000_000)]) {
    const r = await send('POST', '/no/such/route', payload, '')
    assert.equal(r.statusCode, 404)
    assert.deepEqual(json(r), {
      statusCode: 404,
      error: 'Not Found',
      code: 'ROUTE_NOT_FOUND',
      message: 'route POST /no/such/route not found'
    })
  }
  // The largest body a band sends: the longest setlist (20 sets of 20: 400 entries in all),
  // every entry with the longest notes (1,000 characters) and a duration, fits the default 1 MiB.
  const leader = sessionClient(ctx.app, editor.user)
  const songId = json<Ok<'/songs', 'post'>>(
    await leader.post('/songs', { title: 'Riff', status: 'ready' })).id
  const gig = json<Ok<'/gigs', 'post'>>(
    await leader.post('/gigs', { name: 'Marathon', date: '2030-01-01' }))
  const setlist = JSON.stringify({
    version: 0,
    sets: Array.from({ length: 20 }, (_, s) => ({
      name: `Set ${s + 1}`,
      breakAfterSeconds: 600,
      entries: Array.from({ length: 20 }, () => ({
        songId,
        notes: 'Capo 2, Einzähler vom Drummer, Schluss auf Zeichen; '.repeat(20).slice(0, 1000),
        durationSeconds: 240
      }))
    }))
  })
  assert.ok(setlist.length > 400_000, `${setlist.length} bytes`)
  assert.ok(setlist.length < ctx.config.bodyLimitBytes, `${setlist.length} bytes`)
  const saved = await send('PUT', `/gigs/${gig.id}/setlist`, setlist, leader.jar.header())
  assert.equal(saved.statusCode, 200, saved.body.slice(0, 200))
  assert.equal(json<Ok<'/gigs/{id}/setlist', 'put'>>(saved).sets.length, 20)
})

test('compressed request bodies are not decompressed: a gzip body is not JSON', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await userClient(ctx.app, 'ada', 'admin')
  const r = await ctx.app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    payload: gzipSync(JSON.stringify({ username: 'ada', password: 'whatever password' }))
  })
  assert.equal(r.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(r).code, 'INVALID_JSON')
})
