import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  chartChords,
  chartNotations,
  noteName,
  parseChord,
  parseChordPro,
  transposeChart,
  transposeChord,
  type ChordNotation
} from '#shared/chords/index.js'
import {
  KEY_MODES, TONICS, keyString, parseKey, tonicPitch, transposeKey, usesFlats, type MusicalKey
} from '#shared/keys.js'

const NOTATIONS: ChordNotation[] = ['english', 'german']
const STEPS = Array.from({ length: 23 }, (_, i) => i - 11)

/** The chords of a key's I, IV, V7, vi (minor: i, iv, V7, VI) and a slash chord, as written. */
function chartIn (key: MusicalKey, notation: ChordNotation): string {
  const tonic = tonicPitch(key.tonic)
  // Spelled as the key itself is: C♯ major with sharps, D♭ major with flats.
  const flats = key.tonic.length > 1 ? key.tonic.endsWith('b') : usesFlats(key)
  const name = (steps: number) => noteName(tonic + steps, notation, flats)
  const minor = key.mode === 'minor'
  const m = minor ? 'm' : ''
  const chords = minor
    ? [`${name(0)}m`, `${name(5)}m`, `${name(7)}7`, name(8), `${name(0)}m/${name(7)}`]
    : [name(0), name(5), `${name(7)}7`, `${name(9)}m`, `${name(0)}/${name(7)}`]
  return `{key: ${name(0)}${m}}\n` + chords.map((c) => `[${c}]la `).join('')
}

/** Root, quality and bass of each chord, as pitches: what a player plays. */
const pitches = (chords: string[], notation: ChordNotation) =>
  chords.map((c) => {
    const parsed = parseChord(c, notation)
    assert.ok(parsed, `${c} is a chord in ${notation}`)
    return parsed
  })

describe('one chord notation: every tonic × both notations × −11…11', () => {
  it('transposing up n then down n gives the chart back; the key moves with the chords', () => {
    let checked = 0
    for (const tonic of TONICS) {
      for (const mode of KEY_MODES) {
        const key: MusicalKey = { tonic, mode }
        for (const notation of NOTATIONS) {
          const source = chartIn(key, notation)
          const chart = parseChordPro(source)
          const read = chartNotations(source, notation)
          assert.equal(read.write, notation)
          const original = chartChords(chart)
          for (const n of STEPS) {
            const label = `${keyString(key)} ${notation} ${n}`
            const up = transposeChart(chart, n, read, key)
            const moved = transposeKey(key, n)
            // The printed key (the song's key moved) is the chart's {key} moved.
            const printed = parseKey(up.meta.key ?? '', notation)
            assert.equal(printed && keyString(printed), keyString(moved), label)
            // The first chord is the key's tonic, spelled as the key.
            const first = parseChord(chartChords(up)[0]!, notation)!
            assert.equal(first.root, tonicPitch(moved.tonic), label)
            assert.equal(chartChords(up)[0]!.replace(/m$/, ''),
              noteName(tonicPitch(moved.tonic), notation, moved.tonic.endsWith('b')), label)
            const down = chartChords(transposeChart(up, -n, notation, moved))
            assert.deepEqual(pitches(down, notation), pitches(original, notation), label)
            // Spelled as written too, whenever the key's own spelling comes back.
            if (keyString(transposeKey(moved, -n)) === keyString(key)) {
              assert.deepEqual(down, original, label)
            }
            checked++
          }
        }
      }
    }
    assert.equal(checked, TONICS.length * 2 * 2 * 23)
  })

  it('reads B as B in English and as B♭ in German, Bb as B♭ in both', () => {
    assert.equal(parseChord('B', 'english')?.root, 11)
    assert.equal(parseChord('Bb', 'english')?.root, 10)
    assert.equal(parseChord('H', 'german')?.root, 11)
    assert.equal(parseChord('B', 'german')?.root, 10)
    assert.equal(parseChord('Bb', 'german')?.root, 10)
    assert.equal(parseChord('H', 'english'), null)
  })

  it('moves a B minor chart of an English band by +2 to C♯ minor, never to C minor', () => {
    const source = '{key: Bm}\n[Bm]Swing [G]low, [A]sweet [F#]chari[F#m]ot'
    const read = chartNotations(source, 'english')
    const up = transposeChart(parseChordPro(source), 2, read, { tonic: 'B', mode: 'minor' })
    assert.deepEqual(chartChords(up), ['C#m', 'A', 'B', 'G#', 'G#m'])
    assert.equal(up.meta.key, 'C#m')
  })
})

describe('a chart written in the other notation', () => {
  it('an English band reads a chart with H in German and writes it in English', () => {
    const source = '[H7]one [B]two [Fis]three [Es/B]four'
    const read = chartNotations(source, 'english')
    assert.deepEqual(read, { read: 'german', write: 'english' })
    const chart = parseChordPro(source)
    assert.deepEqual(chartChords(transposeChart(chart, 0, read)), ['B7', 'Bb', 'F#', 'Eb/Bb'])
    assert.deepEqual(chartChords(transposeChart(chart, 2, read)), ['Db7', 'C', 'Ab', 'F/C'])
  })

  it('a German band reads a chart with Bb (and no H) in English and writes H for B', () => {
    const source = '{key: F}\n[Bb]one [B7]two [A#dim]three [F/C]four'
    const read = chartNotations(source, 'german')
    assert.deepEqual(read, { read: 'english', write: 'german' })
    const chart = parseChordPro(source)
    assert.deepEqual(chartChords(transposeChart(chart, 0, read)), ['B', 'H7', 'A#dim', 'F/C'])
    assert.deepEqual(chartChords(transposeChart(chart, 2, read)), ['C', 'C#7', 'Cdim', 'G/D'])
  })

  it('a chart that does not say keeps the band\'s notation; its {key} counts too', () => {
    assert.deepEqual(chartNotations('[B]one [F]two', 'german'), { read: 'german', write: 'german' })
    assert.deepEqual(chartNotations('[B]one [F]two', 'english'),
      { read: 'english', write: 'english' })
    assert.deepEqual(chartNotations('{key: H-Dur}\n[E]one', 'english'),
      { read: 'german', write: 'english' })
    // Annotations and words in brackets say nothing.
    assert.deepEqual(chartNotations('[*Hold] [Hook] [Bridge]', 'english'),
      { read: 'english', write: 'english' })
    assert.deepEqual(chartNotations('[C/H]', 'english'), { read: 'german', write: 'english' })
    // Unmoved, a key written in German words stays as written.
    const read = chartNotations('{key: H-Dur}\n[E]one [H]two', 'english')
    const chart = transposeChart(parseChordPro('{key: H-Dur}\n[E]one [H]two'), 0, read)
    assert.equal(chart.meta.key, 'H-Dur')
    assert.deepEqual(chartChords(chart), ['E', 'B'])
  })

  it('keeps a German flat name flat when it moves (Es + 3 = Gb, Des + 2 = Eb)', () => {
    assert.equal(transposeChord('Es', 3, { notation: 'german' }), 'Gb')
    assert.equal(transposeChord('Des', 2, { notation: 'german' }), 'Eb')
    assert.equal(transposeChord('As', 0, { notation: 'german', write: 'english' }), 'Ab')
  })
})
