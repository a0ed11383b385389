import { describe, expect, it } from 'vitest'
import { parseChordPro } from '$shared/chords/chordpro'
import { transposeChart } from '$shared/chords/transpose'
import { canonicalKey } from '$shared/keys'
import { originOf, parsedChart, transposedChart } from './chart-cache'
import { chartChunks, chartHtml, chartPieces, chordNames } from './chart-html'

// The stage view's transposed charts move a section's chords when its lines are first read: the
// result must be exactly transposeChart's (the songbook PDF's and the song page's).
const source = [
  '{title: Lazy}',
  '{key: Bb}',
  '{soc}',
  '[Bb]Chorus [F/A]line [*Rit.]slow [Gm7]on',
  '{eoc}',
  '{sov: Verse 1}',
  '[Eb]verse [Cm]line',
  '{eov}',
  '{chorus}',
  '{sot}',
  'e|--3--|',
  '{eot}',
  'no chords here'
].join('\n')

describe('transposed charts (chart-cache.ts)', () => {
  it('equal transposeChart for every step, notation and key', () => {
    const chart = parsedChart(source)
    for (const notation of ['english', 'german'] as const) {
      for (const key of [null, canonicalKey('Bb'), canonicalKey('G')]) {
        for (let steps = -11; steps <= 11; steps++) {
          const lazy = transposedChart(chart, steps, notation, key)
          const eager = transposeChart(chart, steps, notation, key)
          expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(eager)))
          expect(chordNames(lazy)).toEqual(chordNames(eager))
          expect(chartHtml(lazy, true, (k) => k)).toBe(chartHtml(eager, true, (k) => k))
          expect(originOf(lazy)).toBe(chart)
        }
      }
    }
  })

  it('parses and moves a fresh chart as far as its pieces are read, to the same result', () => {
    for (let steps = -11; steps <= 11; steps++) {
      // A text not parsed before: nothing of it is in the cache.
      const text = `${source}\n{comment: step ${steps}}`
      const eager = transposeChart(parseChordPro(text), steps, 'english')
      const lazy = transposedChart(parsedChart(text), steps, 'english')
      const pieces = chartPieces(lazy, true, (k) => k, 1, 1, 40)
      const first = pieces.next().value!
      expect(first.html).toBe(chartChunks(eager, true, (k) => k, 1, 1, 40)[0]!.html)
      expect([first, ...pieces]).toEqual(chartChunks(eager, true, (k) => k, 1, 1, 40))
      expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(eager)))
      expect(chordNames(lazy)).toEqual(chordNames(eager))
    }
  })

  it('parses a text once and transposes a chart once per step', () => {
    const chart = parsedChart(source)
    expect(parsedChart(source)).toBe(chart)
    const up = transposedChart(chart, 2, 'english')
    expect(transposedChart(chart, 2, 'english')).toBe(up)
    expect(transposedChart(chart, 14, 'english')).toBe(up)
    expect(transposedChart(chart, 0, 'english')).toBe(chart)
    expect(chordNames(up).slice(0, 4)).toEqual(['C', 'G/B', 'Rit.', 'Am7'])
    expect(up.meta.key).toBe('C')
    expect(parseChordPro(source)).not.toBe(chart)
  })
})
