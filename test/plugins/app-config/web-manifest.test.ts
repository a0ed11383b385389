import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { decodePng, twoColourPng } from '#test/image-fixtures.js'
import { shortName } from '#plugins/app-config/manifest-routes.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

const RED: [number, number, number] = [200, 30, 90]

/** Parses the manifest as a browser does and fetches every icon it lists. */
async function manifestAndIcons (anon: ReturnType<typeof anonymous>) {
  const r = await anon.get('/public/manifest.webmanifest')
  assert.equal(r.statusCode, 200)
  assert.match(String(r.headers['content-type']), /^application\/manifest\+json/)
  const manifest = JSON.parse(r.body)
  const icons = []
  for (const icon of manifest.icons) {
    const got = await anon.get(icon.src)
    assert.equal(got.statusCode, 200, icon.src)
    assert.equal(got.headers['content-type'], 'image/png')
    const image = decodePng(got.rawPayload)
    assert.equal(`${image.width}x${image.height}`, icon.sizes, `${icon.src} has its size`)
    icons.push({ ...icon, image, etag: String(got.headers.etag) })
  }
  return { manifest, icons, etag: String(r.headers.etag) }
}

const pixel = (image: { width: number; pixels: Uint8Array }, x: number, y: number) =>
  [...image.pixels.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)]

test('the web app manifest: band name, installable fields, every icon fetched', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anon = anonymous(ctx.app)
  const admin = await userClient(ctx.app, 'boss', 'admin')

  const { manifest, icons, etag } = await manifestAndIcons(anon)
  assert.equal(manifest.name, DEFAULT_APP_CONFIG.bandName)
  assert.equal(manifest.short_name, DEFAULT_APP_CONFIG.bandName)
  assert.equal(manifest.start_url, '/app/')
  assert.equal(manifest.scope, '/app/')
  assert.equal(manifest.display, 'standalone')
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/)
  assert.match(manifest.background_color, /^#[0-9a-f]{6}$/)
  // Chromium's install criteria: a 192 and a 512 icon; Android's adaptive icon: a maskable one.
  const sizes = icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()
  assert.deepEqual(sizes, ['192x192 any', '512x512 any', '512x512 maskable'])
  // Without a logo: our mark, a dark rounded square (transparent corners) with a yellow triangle.
  const ours = icons.find((icon) => icon.sizes === '512x512' && icon.purpose === 'any')!.image
  assert.equal(pixel(ours, 0, 0)[3], 0, 'rounded corner is transparent')
  assert.deepEqual(pixel(ours, 256, 20), [0x14, 0x16, 0x1a, 255], 'dark square')
  assert.deepEqual(pixel(ours, 256, 256), [0xff, 0xcf, 0x40, 255], 'the play triangle')
  const maskable = icons.find((icon) => icon.purpose === 'maskable')!.image
  assert.equal(pixel(maskable, 0, 0)[3], 255, 'a maskable icon fills its square')
  // Safari's apple-touch-icon (linked from the HTML, not the manifest).
  const apple = await anon.get('/public/icons/apple-touch-icon.png')
  assert.equal(apple.statusCode, 200)
  assert.equal(decodePng(apple.rawPayload).width, 180)
  // Revalidation costs nothing.
  const again = await anon.get('/public/manifest.webmanifest', { 'if-none-match': etag })
  assert.equal(again.statusCode, 304)
  const icon = await anon.get(icons[0]!.src, { 'if-none-match': icons[0]!.etag })
  assert.equal(icon.statusCode, 304)
  // Bad input: an icon that does not exist.
  const unknown = await anon.get('/public/icons/icon-64.png')
  assert.equal(unknown.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(unknown).code, 'VALIDATION_ERROR')

  // The band's name and logo: the manifest and the icons follow at once.
  const config = json<Ok<'/public/app_config', 'get'>>(await admin.get('/public/app_config'))
  const editable = { ...DEFAULT_APP_CONFIG, bandName: 'The Basement Club Orchestra' }
  assert.equal((await admin.put('/admin/app_config', editable)).statusCode, 200)
  assert.equal(config.hasLogo, false)
  const logo = twoColourPng(RED, [255, 255, 255], 64)
  assert.equal(
    (await admin.put('/admin/logo', logo, { 'content-type': 'image/png' })).statusCode,
    200
  )
  const branded = await manifestAndIcons(anon)
  assert.equal(branded.manifest.name, 'The Basement Club Orchestra')
  assert.equal(branded.manifest.short_name, 'The Basement')
  assert.notEqual(branded.etag, etag)
  assert.notEqual(branded.icons[0]!.src, icons[0]!.src, 'a new logo is a new icon address')
  const fromLogo = branded.icons.find((icon) => icon.sizes === '512x512')!.image
  assert.deepEqual(pixel(fromLogo, 0, 0), [255, 255, 255, 255], 'white around the logo')
  // The logo's left half is red, fitted into the middle of the icon.
  const [r, g, b] = pixel(fromLogo, 200, 256)
  assert.ok(Math.abs(r! - RED[0]) < 8 && Math.abs(g! - RED[1]) < 8 && Math.abs(b! - RED[2]) < 8)
  assert.deepEqual(pixel(fromLogo, 320, 256), [255, 255, 255, 255], 'its white right half')
})

test('short names: at most 12 characters, cut at a word', () => {
  assert.equal(shortName('Unsere Band'), 'Unsere Band')
  assert.equal(shortName('The Basement Club Orchestra'), 'The Basement')
  assert.equal(shortName('Supercalifragilistic Band'), 'Supercalifra')
})

test('the manifest\'s description is in the band\'s language, like `lang`', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anon = anonymous(ctx.app)
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const expected: Array<[string, string]> = [
    ['en-GB', 'Bandstand: gigs, setlists and live mode of Lanterns'],
    ['de-DE', 'Bandstand: Auftritte, Setlists und Live-Modus von Lanterns'],
    ['en-US', 'Bandstand: gigs, setlists and live mode of Lanterns']
  ]
  for (const [locale, description] of expected) {
    const saved = await admin.put('/admin/app_config', {
      ...DEFAULT_APP_CONFIG, locale, bandName: 'Lanterns'
    })
    assert.equal(saved.statusCode, 200, saved.body)
    const manifest = JSON.parse((await anon.get('/public/manifest.webmanifest')).body)
    assert.equal(manifest.lang, locale)
    assert.equal(manifest.description, description)
  }
})
