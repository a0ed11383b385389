import { test } from 'node:test'
import assert from 'node:assert/strict'
import { deflateSync } from 'node:zlib'
import { eq } from '#src/db/orm.js'
import {
  anonymous, appWithLog, createTestApp, json, userClient, type ErrorResponseBody
} from '#test/helpers.js'
import {
  decodePng,
  encodeJpeg,
  encodePng,
  hostileLogos,
  interlacedPng,
  pngFile,
  twoColourImage,
  twoColourPng
} from '#test/image-fixtures.js'
import { pdfImages, pdfText } from '#test/pdf-tools.js'
import { appLogo, gigs } from '#src/db/schema.js'
import { downscale, prepareLogo, WATERMARK_MAX_SIDE } from '#src/documents/logo.js'
import { fromHex } from '#src/documents/palette.js'
import { LOGOS_IN_FLIGHT } from '#src/documents/pool.js'

const accepted = (data: Buffer) => {
  const prepared = prepareLogo(data)
  assert.ok(prepared.ok, prepared.ok ? '' : prepared.message)
  return prepared
}

/** Raw rows: filter byte 0, then `samples` per row, for any colour type and bit depth. */
const raw = (rows: number[][]) => Buffer.from(rows.flatMap((row) => [0, ...row]))

test('logo: every PNG colour type and bit depth, interlaced PNG and JPEG are decoded', () => {
  // 2×2 pixels; the left column saturated blue in every format that has colour.
  const cases: Array<[string, Parameters<typeof pngFile>[0], number[][], Array<[string, Buffer]>]> =
    [
      [
        'RGBA 8',
        { width: 2, height: 2, colourType: 6 },
        [[20, 90, 200, 255, 250, 250, 250, 255]],
        []
      ],
      ['RGB 8', { width: 2, height: 2, colourType: 2 }, [[20, 90, 200, 250, 250, 250]], []],
      [
        'RGB 16',
        { width: 2, height: 2, colourType: 2, bitDepth: 16 },
        [[20, 20, 90, 90, 200, 200, 250, 250, 250, 250, 250, 250]],
        []
      ],
      ['grey 8', { width: 2, height: 2, colourType: 0 }, [[30, 200]], []],
      ['grey+alpha 8', { width: 2, height: 2, colourType: 4 }, [[30, 255, 200, 0]], []],
      ['grey 1', { width: 2, height: 2, colourType: 0, bitDepth: 1 }, [[0b10000000]], []],
      [
        'palette 2 with transparency',
        { width: 2, height: 2, colourType: 3, bitDepth: 2 },
        [[0b00010000]],
        [
          ['PLTE', Buffer.from([20, 90, 200, 9, 9, 9])],
          ['tRNS', Buffer.from([255, 0])]
        ]
      ]
    ]
  for (const [name, header, row, extra] of cases) {
    const prepared = accepted(pngFile(header, deflateSync(raw([row[0]!, row[0]!])), extra))
    assert.equal(prepared.mimeType, 'image/png', name)
    assert.deepEqual([prepared.width, prepared.height], [2, 2], name)
    const colourful = !name.startsWith('grey')
    assert.equal(prepared.accent, colourful ? '#145ac8' : null, name)
    // The watermark is an RGB PNG (no alpha: pdfkit embeds it without decoding it).
    const watermark = pngFile({ width: 1, height: 1 }, Buffer.alloc(0)).subarray(0, 8)
    assert.deepEqual(prepared.watermark.subarray(0, 8), watermark, name)
    assert.equal(prepared.watermark[25], 2, `${name}: colour type RGB`)
  }
  const interlaced = accepted(interlacedPng(37, 23, [20, 90, 200, 255]))
  assert.deepEqual([interlaced.width, interlaced.height, interlaced.accent], [37, 23, '#145ac8'])
  const jpeg = accepted(encodeJpeg(twoColourImage([20, 90, 200], [255, 255, 255], 64)))
  assert.equal(jpeg.mimeType, 'image/jpeg')
  // JPEG is lossy: the colour comes back within a few steps.
  const [r, g, b] = fromHex(jpeg.accent!)
  assert.ok(Math.abs(r - 20) + Math.abs(g - 90) + Math.abs(b - 200) <= 6, jpeg.accent!)
})

test('logo: the watermark is at most 512 pixels, flattened onto white, colours kept', () => {
  const big = accepted(twoColourPng([200, 30, 90], [255, 255, 255], 1500))
  const watermark = decodePng(big.watermark)
  assert.deepEqual([watermark.width, watermark.height], [WATERMARK_MAX_SIDE, WATERMARK_MAX_SIDE])
  assert.deepEqual([...watermark.pixels.subarray(0, 4)], [200, 30, 90, 255])
  assert.deepEqual([...watermark.pixels.subarray(-4)], [255, 255, 255, 255])
  // A transparent logo turns white where it was transparent; half transparency is blended.
  const pixels = new Uint8Array(4 * 4 * 4).fill(0)
  pixels.set([0, 0, 0, 128], 0)
  const flattened = decodePng(accepted(encodePng({ width: 4, height: 4, pixels })).watermark)
  assert.deepEqual([...flattened.pixels.subarray(4, 8)], [255, 255, 255, 255])
  assert.ok(flattened.pixels[0]! > 100 && flattened.pixels[0]! < 160, 'half black on white')
  // Downscaling keeps the proportions and weighs colours by their alpha.
  const wide = downscale(
    { width: 4000, height: 1000, pixels: new Uint8Array(4000 * 1000 * 4).fill(255) },
    512
  )
  assert.deepEqual([wide.width, wide.height], [512, 128])
  const edge = new Uint8Array(2 * 1 * 4)
  edge.set([255, 0, 0, 255, 0, 0, 255, 0])
  const merged = downscale({ width: 2, height: 1, pixels: edge }, 1)
  assert.deepEqual([...merged.pixels], [255, 0, 0, 128])
})

test('logo: every hostile file of the review is refused with its reason, cheaply', () => {
  const expected: Record<string, [string, RegExp]> = {
    'a 68-byte 20000×20000 PNG': ['IMAGE_TOO_LARGE', /20000×20000 pixels; at most 4096×4096/],
    'a 65535×65535 IHDR': ['IMAGE_TOO_LARGE', /65535×65535/],
    'a 2 MB zlib bomb': ['IMAGE_TOO_LARGE', /decompression bomb/],
    'an interlaced zlib bomb': ['IMAGE_TOO_LARGE', /decompression bomb/],
    'bad zlib': ['INVALID_IMAGE', /damaged: incorrect header check/],
    'filter type 9': ['INVALID_IMAGE', /filter type - 9/],
    '16-bit 4000×4000': ['IMAGE_TOO_LARGE', /4000×4000 pixels, 61\.0 MiB decoded; at most 16\.0 MiB/],
    'a truncated PNG': ['INVALID_IMAGE', /damaged/],
    'a JPEG claiming 65000×65000': ['IMAGE_TOO_LARGE', /JPEG decodes to more than 16\.0 MiB/],
    'a broken JPEG': ['INVALID_IMAGE', /JPEG is damaged/]
  }
  const files = hostileLogos()
  assert.deepEqual(Object.keys(files).sort(), Object.keys(expected).sort())
  assert.equal(files['a 68-byte 20000×20000 PNG']!.length, 68)
  assert.ok(files['a 2 MB zlib bomb']!.length > 2_000_000)
  for (const [name, data] of Object.entries(files)) {
    const before = process.memoryUsage()
    const prepared = prepareLogo(data)
    const after = process.memoryUsage()
    assert.equal(prepared.ok, false, name)
    if (prepared.ok) continue
    assert.equal(prepared.code, expected[name]![0], `${name}: ${prepared.message}`)
    assert.match(prepared.message, expected[name]![1], name)
    const grown = after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed
    assert.ok(grown < 40e6, `${name}: ${Math.round(grown / 1e6)} MB`)
  }
  // 16 MiB decoded is allowed: 2048×2048 RGBA (plus the PNG's filter bytes).
  accepted(pngFile({ width: 2048, height: 2048 }, deflateSync(Buffer.alloc((2048 * 4 + 1) * 2048))))
  assert.equal(
    prepareLogo(pngFile({ width: 2049, height: 2048 }, deflateSync(Buffer.alloc(8))))
      .ok,
    false
  )
})

test('upload: a hostile file is 400 with the reason; the stored logo stays', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const good = twoColourPng([200, 30, 90])
  const upload = await admin.put('/admin/logo', good, { 'content-type': 'image/png' })
  assert.equal(upload.statusCode, 200)
  for (const [name, data] of Object.entries(hostileLogos())) {
    const res = await admin.put('/admin/logo', data, { 'content-type': 'application/octet-stream' })
    assert.equal(res.statusCode, 400, name)
    assert.match(json<ErrorResponseBody>(res).code, /^(IMAGE_TOO_LARGE|INVALID_IMAGE)$/, name)
    assert.ok(json<ErrorResponseBody>(
      res).message.length > 20, `${name}: ${json<ErrorResponseBody>(res).message}`)
  }
  assert.deepEqual((await anonymous(ctx.app).get('/public/logo')).rawPayload, good)
  // LOGOS_IN_FLIGHT checks already running: 503 with Retry-After, at once, nothing stored. Large
  // logos (2048×2048 decoded: ~0.1 s each), so that none is done before the upload is checked (a
  // 16-pixel one could be, under load).
  const large = twoColourPng([200, 30, 90], [250, 250, 250], 2048)
  const running = Array.from({ length: LOGOS_IN_FLIGHT }, () =>
    ctx.app.documentWorkers.prepareLogo(large)
  )
  const busy = await admin.put('/admin/logo', twoColourPng([1, 2, 3]), {
    'content-type': 'image/png'
  })
  await Promise.all(running)
  assert.equal(busy.statusCode, 503)
  assert.equal(json<ErrorResponseBody>(busy).code, 'DOCUMENTS_BUSY')
  assert.equal(busy.headers['retry-after'], '5')
  assert.deepEqual((await anonymous(ctx.app).get('/public/logo')).rawPayload, good)
  // The documents' copy and accent are stored with the upload.
  const row = ctx.app.db.select().from(appLogo).get()!
  assert.equal(row.prepared, true)
  assert.equal(row.accent, '#c81e5a')
  assert.deepEqual([decodePng(row.watermark!).width, decodePng(row.watermark!).height], [16, 16])
})

test(
  'a logo stored before logos were checked: prepared at the next start, a bomb is left out of ' +
    'the documents, which stay correct',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const stamp = '2026-05-01T10:00:00.000Z'
    const gig = ctx.app.db
      .insert(gigs)
      .values({ name: 'Alt', date: '2026-07-04', createdAt: stamp, updatedAt: stamp })
      .returning()
      .get()
    /** What an older version stored: only the upload, not prepared. */
    const storeUnprepared = (data: Buffer) => {
      const values = { mimeType: 'image/png', data, etag: `"${data.length}"`, prepared: false }
      ctx.app.db
        .insert(appLogo)
        .values({ id: 1, ...values, updatedAt: stamp })
        .onConflictDoUpdate({ target: appLogo.id, set: values })
        .run()
    }
    /** Another start of the server on the same database, its warnings collected. */
    const restart = async () => {
      const { app, lines } = await appWithLog(ctx.config, t)
      return { app, warnings: lines.map((line) => line.msg) }
    }

    storeUnprepared(hostileLogos()['a 68-byte 20000×20000 PNG']!)
    const second = await restart()
    assert.equal(second.warnings.length, 1)
    assert.match(second.warnings[0]!, /stored logo is not used in documents \(the image is 20000×20000/)
    const member = await userClient(second.app, 'mo', 'member')
    const pdf = await member.get(`/gigs/${gig.id}/schedule.pdf`)
    assert.equal(pdf.statusCode, 200)
    assert.match(pdfText(pdf.rawPayload), /Ablaufplan/)
    assert.equal(pdfImages(pdf.rawPayload).length, 0, 'no watermark from the refused logo')
    const row = ctx.app.db.select().from(appLogo).where(eq(appLogo.id, 1)).get()!
    assert.equal(row.prepared, true)
    assert.equal(row.watermark, null)
    // The upload itself is kept (GET /public/logo serves what the admin sent).
    assert.equal((await anonymous(second.app).get('/public/logo')).statusCode, 200)

    // A valid old logo is prepared at the next start and then printed, in its colour.
    storeUnprepared(twoColourPng([20, 90, 200], [255, 255, 255], 40))
    const third = await restart()
    assert.deepEqual(third.warnings, [])
    const reader = await userClient(third.app, 'lu', 'member')
    const withLogo = await reader.get(`/gigs/${gig.id}/schedule.pdf`)
    assert.deepEqual(pdfImages(withLogo.rawPayload), [{ width: 40, height: 40 }])
    assert.equal(ctx.app.db.select().from(appLogo).get()!.accent, '#145ac8')
  }
)
