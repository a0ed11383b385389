import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, appWithLog, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { appSettings } from '#src/db/schema.js'
import { encodeJpeg, pngOfSize, twoColourImage, twoColourPng } from '#test/image-fixtures.js'
import { paletteForAccent } from '#src/documents/palette.js'

const png = twoColourPng([200, 30, 90])
const jpeg = encodeJpeg(twoColourImage([20, 90, 200]))

test('GET /public/app_config: public, cacheable, strong ETag, 304, nothing secret', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anon = anonymous(ctx.app)
  const r = await anon.get('/public/app_config')
  assert.equal(r.statusCode, 200)
  assert.equal(r.headers['cache-control'], 'public, max-age=300')
  const etag = String(r.headers.etag)
  assert.match(etag, /^"[^"]+"$/, 'strong ETag')
  const body = json<Ok<'/public/app_config', 'get'>>(r)
  assert.equal(body.timezone, 'Europe/Berlin')
  assert.equal(body.features.docs, true)
  assert.equal(body.features.calendar, true)
  assert.equal(body.hasLogo, false)
  assert.ok(body.keys.includes('Bb') && body.keys.includes('Bm') && !body.keys.includes('H-Dur'))
  assert.deepEqual(body.timing, {
    defaultSongSeconds: 240,
    songGapSeconds: 30,
    setBreakSeconds: 600,
    defaultStartTime: '20:00'
  })
  assert.deepEqual(body.gigStatuses, ['inquiry', 'confirmed', 'declined', 'cancelled'])
  assert.equal(typeof body.version, 'string')
  for (const secret of [ctx.config.jwtSecret!, ctx.dir, 'bandstand.db']) {
    assert.ok(!r.body.includes(secret))
  }
  assert.deepEqual(
    Object.keys(body).sort(),
    [
      'appName',
      'bandName',
      'chordNotation',
      'features',
      'gigKinds',
      'gigStatuses',
      'genres',
      'hasLogo',
      'keys',
      'locale',
      'localeChosen',
      'money',
      'songStatuses',
      'timezone',
      'timing',
      'version'
    ].sort()
  )

  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const cached = await anon.get('/public/app_config', { 'if-none-match': header })
    assert.equal(cached.statusCode, 304, header)
    assert.equal(cached.body, '')
    assert.equal(cached.headers.etag, etag)
  }
  assert.equal(
    (await anon.get('/public/app_config', { 'if-none-match': '"stale"' })).statusCode,
    200
  )
})

test('DOCS_ENABLED=false shows features.docs false', async (t) => {
  const ctx = await createTestApp({}, { DOCS_ENABLED: 'false' })
  t.after(() => ctx.close())
  assert.equal(json<Ok<'/public/app_config', 'get'>>(
    await anonymous(ctx.app).get('/public/app_config')).features.docs, false)
})

test('PUT /admin/app_config: validated, effective at once (new ETag); 400, 403, 401', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const before = await anonymous(ctx.app).get('/public/app_config')
  const next = {
    ...DEFAULT_APP_CONFIG,
    bandName: 'Die Testband',
    timezone: 'America/New_York',
    genres: ['Rock'],
    timing: { ...DEFAULT_APP_CONFIG.timing, defaultStartTime: '19:30' }
  }
  const saved = await admin.put('/admin/app_config', next)
  assert.equal(saved.statusCode, 200)
  assert.deepEqual(json<Ok<'/admin/app_config', 'put'>>(saved), next)
  assert.equal(ctx.app.appSettings.get().timezone, 'America/New_York')
  const after = await anonymous(ctx.app).get('/public/app_config', {
    'if-none-match': String(before.headers.etag)
  })
  assert.equal(after.statusCode, 200)
  assert.notEqual(after.headers.etag, before.headers.etag)
  assert.equal(json<Ok<'/public/app_config', 'get'>>(after).bandName, 'Die Testband')
  assert.equal(json<Ok<'/public/app_config', 'get'>>(after).timing.defaultStartTime, '19:30')

  const tz = await admin.put('/admin/app_config', { ...next, timezone: 'Mars/Olympus' })
  assert.equal(tz.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(tz).code, 'INVALID_TIMEZONE')
  for (const bad of [
    { ...next, secret: 'x' },
    { ...next, genres: [] },
    { ...next, timing: { ...next.timing, defaultStartTime: '25:00' } },
    { ...next, features: { calendar: true, docs: false } },
    { bandName: 'only one field' }
  ]) {
    assert.equal(
      (await admin.put('/admin/app_config', bad)).statusCode,
      400,
      JSON.stringify(bad).slice(0, 80)
    )
  }
  assert.equal(ctx.app.appSettings.get().bandName, 'Die Testband', 'rejected input changed nothing')
  assert.equal(
    (await (await userClient(ctx.app, 'ed', 'editor')).put('/admin/app_config', next)).statusCode,
    403
  )
  assert.equal(
    (await (await userClient(ctx.app, 'mo', 'member')).put('/admin/app_config', next)).statusCode,
    403
  )
  assert.equal((await anonymous(ctx.app).put('/admin/app_config', next)).statusCode, 401)
})

test('the stored configuration survives a restart', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  await admin.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, bandName: 'Persistent' })
  const again = await createTestApp({ dataDir: ctx.dir, databaseFile: ctx.config.databaseFile })
  t.after(() => again.app.close())
  assert.equal(json<Ok<'/public/app_config', 'get'>>(
    await anonymous(again.app).get('/public/app_config')).bandName, 'Persistent')
})

test(
  'logo: PUT sniffs PNG/JPEG from the bytes, GET serves it with ETag/304, ' +
    'hasLogo; limits and roles',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'boss', 'admin')
    const anon = anonymous(ctx.app)
    const none = await anon.get('/public/logo')
    assert.equal(none.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(none).code, 'LOGO_NOT_FOUND')

    const up = await admin.put('/admin/logo', png, { 'content-type': 'image/png' })
    assert.equal(up.statusCode, 200)
    assert.equal(json<Ok<'/admin/logo', 'put'>>(up).mimeType, 'image/png')
    assert.equal(json<Ok<'/admin/logo', 'put'>>(up).bytes, png.length)
    const got = await anon.get('/public/logo')
    assert.equal(got.statusCode, 200)
    assert.equal(got.headers['content-type'], 'image/png')
    assert.deepEqual(got.rawPayload, png)
    assert.equal(got.headers['x-content-type-options'], 'nosniff')
    const etag = String(got.headers.etag)
    assert.equal(etag, json<Ok<'/admin/logo', 'put'>>(up).etag)
    assert.equal((await anon.get('/public/logo', { 'if-none-match': etag })).statusCode, 304)
    assert.equal(json<Ok<'/public/app_config', 'get'>>(
      await anon.get('/public/app_config')).hasLogo, true)

    // The declared type is not trusted: JPEG bytes labelled PNG are stored as JPEG; octet-stream
    // works.
    const relabelled = await admin.put('/admin/logo', jpeg, { 'content-type': 'image/png' })
    assert.equal(json<Ok<'/admin/logo', 'put'>>(relabelled).mimeType, 'image/jpeg')
    assert.equal((await anon.get('/public/logo')).headers['content-type'], 'image/jpeg')
    assert.notEqual((await anon.get('/public/logo')).headers.etag, etag)
    assert.equal(
      json<Ok<'/admin/logo', 'put'>>(
        await admin.put('/admin/logo', png, { 'content-type': 'application/octet-stream' }))
        .mimeType,
      'image/png'
    )

    for (const [bytes, type] of [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'image/png'],
      [Buffer.from('GIF89ax'.repeat(30)), 'image/jpeg'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'],
      [Buffer.from('hello'), 'text/plain']
    ] as const) {
      const r = await admin.put('/admin/logo', bytes, { 'content-type': type })
      assert.equal(r.statusCode, 400, `${type} ${bytes.subarray(0, 6).toString()}`)
      assert.equal(json<ErrorResponseBody>(r).code, 'UNSUPPORTED_IMAGE')
    }
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)])
    const tooBig = await admin.put('/admin/logo', big, { 'content-type': 'image/png' })
    assert.equal(tooBig.statusCode, 413)
    assert.equal(json<ErrorResponseBody>(tooBig).code, 'BODY_TOO_LARGE')
    const justFits = pngOfSize(2 * 1024 * 1024)
    assert.equal(
      (await admin.put('/admin/logo', justFits, { 'content-type': 'image/png' })).statusCode,
      200
    )
    assert.equal(
      (await admin.put('/admin/logo', png, { 'content-type': 'image/gif' })).statusCode,
      415
    )

    const member = await userClient(ctx.app, 'mo', 'member')
    assert.equal(
      (await member.put('/admin/logo', png, { 'content-type': 'image/png' })).statusCode,
      403
    )
    assert.equal(
      (await anon.put('/admin/logo', png, { 'content-type': 'image/png' })).statusCode,
      401
    )
    assert.equal((await member.delete('/admin/logo')).statusCode, 403)
    assert.equal((await admin.delete('/admin/logo')).statusCode, 204)
    assert.equal((await admin.delete('/admin/logo')).statusCode, 404)
    assert.equal((await anon.get('/public/logo')).statusCode, 404)
    assert.equal(json<Ok<'/public/app_config', 'get'>>(
      await anon.get('/public/app_config')).hasLogo, false)
  }
)

test('GET /admin/logo/palette: the documents\' colours for the logo; admin only', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const neutral = json<Ok<'/admin/logo/palette', 'get'>>(await admin.get('/admin/logo/palette'))
  assert.equal(neutral.source, 'neutral')
  assert.deepEqual(neutral, paletteForAccent(null))

  // A blue logo on white: the accent is its blue, exactly as the schedule PDF takes it.
  const logo = twoColourPng([30, 90, 200])
  const upload = async (bytes: Buffer, type: string) =>
    assert.equal((await admin.put('/admin/logo', bytes, { 'content-type': type })).statusCode, 200)
  await upload(logo, 'image/png')
  const fromLogo = json<Ok<'/admin/logo/palette', 'get'>>(await admin.get('/admin/logo/palette'))
  assert.equal(fromLogo.source, 'logo')
  assert.equal(fromLogo.accent, '#1e5ac8')
  assert.deepEqual(fromLogo, paletteForAccent('#1e5ac8'))

  // A new logo (a red JPEG) gives a new palette, not the remembered one.
  await upload(encodeJpeg(twoColourImage([200, 30, 90])), 'image/jpeg')
  const red = json<Ok<'/admin/logo/palette', 'get'>>(await admin.get('/admin/logo/palette'))
  assert.equal(red.source, 'logo')
  const [r, , b] = [1, 3, 5].map((i) => parseInt(red.accent.slice(i, i + 2), 16)) as number[]
  assert.ok(r! > 150 && b! < 130, red.accent)
  await upload(logo, 'image/png')
  assert.equal(json<Ok<'/admin/logo/palette', 'get'>>(
    await admin.get('/admin/logo/palette')).accent, '#1e5ac8')
  assert.equal((await admin.delete('/admin/logo')).statusCode, 204)
  assert.equal(json<Ok<'/admin/logo/palette', 'get'>>(
    await admin.get('/admin/logo/palette')).source, 'neutral')

  assert.equal((await editor.get('/admin/logo/palette')).statusCode, 403)
  assert.equal((await anonymous(ctx.app).get('/admin/logo/palette')).statusCode, 401)
})

test('a stored configuration keeps its valid fields; each invalid one is logged', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const stored = {
    ...DEFAULT_APP_CONFIG,
    bandName: 'Die Gültigen',
    genres: ['Jazz', 'Polka'],
    timezone: 'Mars/Olympus_Mons', // passes the schema, but is no IANA timezone
    gigKinds: 'Hochzeit', // not a list
    timing: { ...DEFAULT_APP_CONFIG.timing, songGapSeconds: -5, setBreakSeconds: 900 },
    leftover: true
  }
  ctx.app.db
    .insert(appSettings)
    .values({ id: 1, config: stored, updatedAt: '2026-01-01T00:00:00.000Z' })
    .run()
  const { app, lines } = await appWithLog(ctx.config, t)
  const config = json<Ok<'/public/app_config', 'get'>>(
    await anonymous(app).get('/public/app_config'))
  assert.equal(config.bandName, 'Die Gültigen')
  assert.deepEqual(config.genres, ['Jazz', 'Polka'])
  assert.equal(config.timezone, DEFAULT_APP_CONFIG.timezone)
  assert.deepEqual(config.gigKinds, DEFAULT_APP_CONFIG.gigKinds)
  assert.equal(config.timing.songGapSeconds, DEFAULT_APP_CONFIG.timing.songGapSeconds)
  assert.equal(config.timing.setBreakSeconds, 900)
  const warned = lines.filter((line) => line.level === 40).map((line) => line.field).sort()
  assert.deepEqual(warned, ['gigKinds', 'leftover', 'timezone', 'timing.songGapSeconds'])
})
