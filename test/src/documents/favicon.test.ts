import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import pngjs from 'pngjs'
import { projectPath } from '#src/project-path.js'
import { renderIcon } from '#src/documents/app-icons.js'

// The web app's favicon is a PNG (web/src/app.html: an SVG icon costs the starting page main-thread
// time, docs/offline.md), drawn by the same code as the home-screen icons: this keeps the file in
// step with that code. To redraw it: write renderIcon(FAVICON, null) to web/static/favicon.png.
const FAVICON = { file: 'favicon.png', size: 32, purpose: 'any' } as const

test('web/static/favicon.png is our mark at 32 px, as the icons draw it', () => {
  const file = pngjs.PNG.sync.read(readFileSync(projectPath('web', 'static', 'favicon.png')))
  const drawn = pngjs.PNG.sync.read(renderIcon(FAVICON, null))
  assert.equal(file.width, 32)
  assert.equal(file.height, 32)
  assert.ok(file.data.equals(drawn.data), 'the pixels differ from renderIcon: redraw the file')
  // The mark's colours: dark corners are transparent (rounded), the centre is the play triangle.
  const at = (x: number, y: number) => [...file.data.subarray((y * 32 + x) * 4).subarray(0, 4)]
  assert.equal(at(0, 0)[3], 0)
  assert.deepEqual(at(14, 16), [0xff, 0xcf, 0x40, 255])
  assert.deepEqual(at(28, 16), [0x14, 0x16, 0x1a, 255])
})

test('the app shell names the PNG favicon, not an SVG one', () => {
  const html = readFileSync(projectPath('web', 'src', 'app.html'), 'utf8')
  assert.match(html, /<link rel="icon" href="%sveltekit\.assets%\/favicon\.png" type="image\/png"/)
  assert.doesNotMatch(html, /rel="icon"[^>]*\.svg/)
})
