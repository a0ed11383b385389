import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  buildPalette,
  colourForName,
  contrast,
  dominantAccent,
  paletteForAccent,
  MIN_CONTRAST
} from '#src/documents/palette.js'
import { documentLogo } from '#test/document-fixtures.js'
import { encodePng, twoColourImage, twoColourPng } from '#test/image-fixtures.js'

// The documents' palette from the band's logo: readable text on any logo colour, and the accent
// the logo's own.

test(
  'palette: every text colour keeps 4.5:1 for any logo colour, and for the neutral palette',
  () => {
    const check = (palette: ReturnType<typeof buildPalette>) => {
      assert.ok(contrast(palette.text, palette.background) >= MIN_CONTRAST)
      assert.ok(
        contrast(palette.accentText, palette.background) >= MIN_CONTRAST,
        `accentText ${palette.accentText}`
      )
      assert.ok(
        contrast(palette.onAccent, palette.accent) >= MIN_CONTRAST,
        `onAccent on ${palette.accent}`
      )
      assert.ok(contrast(palette.textOnTint, palette.tint) >= MIN_CONTRAST)
      assert.ok(contrast(palette.mutedText, palette.tint) >= MIN_CONTRAST)
      assert.ok(contrast(palette.mutedText, palette.background) >= MIN_CONTRAST)
    }
    const neutral = paletteForAccent(null)
    assert.equal(neutral.source, 'neutral')
    check(neutral)
    const channel = fc.integer({ min: 0, max: 255 })
    fc.assert(
      fc.property(
        fc.tuple(channel, channel, channel),
        fc.tuple(channel, channel, channel),
        (colour, background) => {
          check(buildPalette(dominantAccent(twoColourImage(colour, background))))
        }
      ),
      { numRuns: 300 }
    )
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('#ffffff', '#000000'),
        (name, bg) => contrast(colourForName(name, bg), bg) >= MIN_CONTRAST
      )
    )
  }
)

test('palette: the accent is the most saturated mid-brightness colour of the logo', () => {
  // Mostly grey and near-white, some dark navy, a saturated orange stripe.
  const size = 40
  const pixels = new Uint8Array(size * size * 4)
  for (let i = 0; i < size * size; i++) {
    const x = i % size
    const colour =
      x < 20 ? [128, 128, 128] : x < 30 ? [250, 250, 250] : x < 35 ? [10, 10, 40] : [235, 110, 20]
    pixels.set([...colour, 255], i * 4)
  }
  assert.deepEqual(dominantAccent({ width: size, height: size, pixels }), [235, 110, 20])
  const palette = paletteForAccent(
    documentLogo(encodePng({ width: size, height: size, pixels })).accent
  )
  assert.equal(palette.source, 'logo')
  assert.equal(palette.accent, '#eb6e14')
  // A greyscale logo, and an accent that is not a colour (edited in the database): neutral.
  assert.equal(documentLogo(twoColourPng([90, 90, 90])).accent, null)
  assert.equal(paletteForAccent('orange').source, 'neutral')
})
