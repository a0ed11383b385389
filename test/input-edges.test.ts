import { test } from 'node:test'
import assert from 'node:assert/strict'
import { gzipSync } from 'node:zlib'
import { anonymous, createTestApp, json, userClient } from './helpers.js'

test('impossible dates and instants are 400, never stored', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (const date of ['2026-02-31', '2026-02-29', '2025-04-31']) {
    const r = await editor.post('/gigs', { name: 'Impossible', date })
    assert.equal(r.statusCode, 400, date)
    assert.match(json(r).message, /date/)
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
  assert.equal(json(await editor.get('/gigs')).length, 1)
})

test('control characters and broken Unicode in any body string are refused', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  for (const name of ['a\u0000b', 'bell\u0007', 'esc\u001b[31m', 'half \uD800 surrogate']) {
    const r = await editor.post('/gigs', { name, date: '2026-12-31' })
    assert.equal(r.statusCode, 400, JSON.stringify(name))
    assert.equal(json(r).code, 'INVALID_TEXT')
    assert.match(json(r).message, /body\.name/)
  }
  const nested = await editor.post('/songs', {
    title: 'ok',
    composers: ['Fine, Name', 'Bad\u0001']
  })
  assert.equal(json(nested).code, 'INVALID_TEXT')
  assert.match(json(nested).message, /composers\.1/)
  // Tabs, line breaks, umlauts and emoji are text.
  const fine = await editor.post('/gigs', {
    name: 'Schützenfest 🎺',
    date: '2026-12-31',
    notes: 'Zeile 1\nZeile 2\tmit Tab\r\n'
  })
  assert.equal(fine.statusCode, 201)
  assert.equal(json(await editor.get('/gigs')).length, 1)
})

test(
  'URLs the router cannot decode answer in the error shape without echoing the URL',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const long = await anonymous(ctx.app).get(`/cal/ical/${'s3cr3t'.repeat(40)}`)
    assert.equal(long.statusCode, 414)
    assert.deepEqual(Object.keys(json(long)).sort(), ['code', 'error', 'message', 'statusCode'])
    assert.equal(json(long).code, 'URL_TOO_LONG')
    assert.doesNotMatch(long.body, /s3cr3t/)
    const bad = await anonymous(ctx.app).get('/gigs/%E0%A4%A')
    assert.equal(bad.statusCode, 400)
    assert.equal(json(bad).code, 'INVALID_URL')
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
  assert.equal(json(refused).code, 'UNEXPECTED_BODY')
  assert.equal(json(await member.get('/me/calendar')).enabled, false)
  assert.equal((await member.post('/me/calendar', {})).statusCode, 201)
  assert.equal((await member.post('/logout')).statusCode, 204)
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
  assert.equal(json(r).code, 'INVALID_JSON')
})
