import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  KEYS,
  canonicalKey,
  formatKey,
  keyString,
  parseKey,
  showKey,
  transposeKey,
  usesFlats,
  type KeyNotation
} from '#shared/keys.js'
import { chartChords, parseChordPro, transposeChart } from '#shared/chords/index.js'

// How stored and imported spellings are read: [written, notation, canonical or null].
const TABLE: Array<[string, KeyNotation, string | null]> = [
  ['C-Dur', 'english', 'C'],
  ['c-Dur', 'english', 'C'],
  ['a-moll', 'english', 'Am'],
  ['A-Moll', 'english', 'Am'],
  ['a-Moll', 'german', 'Am'],
  ['B-Dur', 'english', 'Bb'],
  ['b-Moll', 'english', 'Bbm'],
  ['H-Dur', 'english', 'B'],
  ['h-Moll', 'english', 'Bm'],
  ['H', 'english', 'B'],
  ['h', 'english', 'Bm'],
  ['Es', 'english', 'Eb'],
  ['es', 'german', 'Ebm'],
  ['Es-Dur', 'german', 'Eb'],
  ['es-moll', 'english', 'Ebm'],
  ['As-Dur', 'english', 'Ab'],
  ['Des-Dur', 'english', 'Db'],
  ['Ges-Dur', 'english', 'Gb'],
  ['fis-Moll', 'english', 'F#m'],
  ['Fis', 'english', 'F#'],
  ['cis-moll', 'german', 'C#m'],
  ['Gis-Dur', 'english', 'G#'],
  ['F#m', 'english', 'F#m'],
  ['F♯ minor', 'english', 'F#m'],
  ['Ebm', 'english', 'Ebm'],
  ['Bb', 'english', 'Bb'],
  ['B♭ major', 'english', 'Bb'],
  ['Bb-Dur', 'german', 'Bb'],
  ['B', 'english', 'B'],
  ['B', 'german', 'Bb'],
  ['Bm', 'german', 'Bbm'],
  ['G minor', 'english', 'Gm'],
  ['g minor', 'english', 'Gm'],
  ['Gmin', 'english', 'Gm'],
  ['D maj', 'english', 'D'],
  ['  E  ', 'english', 'E'],
  ['a', 'german', 'Am'],
  ['a', 'english', 'A'],
  ['C Dur', 'english', 'C'],
  ['Cm', 'english', 'Cm'],
  // Not keys: kept as free text by the migration and reported by the import.
  ['Ces-Dur', 'german', null],
  ['His', 'german', null],
  ['Hb', 'english', null],
  ['Ds-Dur', 'german', null],
  ['C-Dur/a-Moll', 'german', null],
  ['wechselnd', 'german', null],
  ['X', 'english', null],
  ['', 'english', null]
]

test('every spelling in the conversion table reads as its canonical key', () => {
  for (const [written, notation, expected] of TABLE) {
    const key = parseKey(written, notation)
    assert.equal(key && keyString(key), expected, `${JSON.stringify(written)} (${notation})`)
  }
})

test('every canonical key reads back as itself, in either notation but for a bare B', () => {
  assert.equal(KEYS.length, 34)
  for (const written of KEYS) {
    assert.equal(keyString(canonicalKey(written)!), written)
    assert.equal(keyString(parseKey(written)!), written)
  }
  assert.equal(canonicalKey('B-Dur'), null)
  assert.equal(canonicalKey('bb'), null)
})

test('keys are shown per language, long and short', () => {
  const bb = canonicalKey('Bb')!
  const gm = canonicalKey('Gm')!
  assert.equal(formatKey(bb, 'en'), 'B♭ major')
  assert.equal(formatKey(bb, 'en', 'short'), 'B♭')
  assert.equal(formatKey(bb, 'de'), 'B-Dur')
  assert.equal(formatKey(gm, 'en'), 'G minor')
  assert.equal(formatKey(gm, 'en', 'short'), 'Gm')
  assert.equal(formatKey(gm, 'de'), 'g-Moll')
  assert.equal(formatKey(canonicalKey('B')!, 'de'), 'H-Dur')
  assert.equal(formatKey(canonicalKey('F#m')!, 'de'), 'fis-Moll')
  assert.equal(formatKey(canonicalKey('F#m')!, 'en', 'short'), 'F♯m')
  assert.equal(formatKey(canonicalKey('Ebm')!, 'de'), 'es-Moll')
  assert.equal(formatKey(canonicalKey('Ab')!, 'de'), 'As-Dur')
  // A legacy value nobody could read is shown as written.
  assert.equal(showKey('wechselnd', 'en'), 'wechselnd')
  assert.equal(showKey('Db', 'en'), 'D♭ major')
  assert.equal(showKey(null, 'de'), null)
})

test('transposing a key spells the new key as it is written', () => {
  const move = (key: string, steps: number) => keyString(transposeKey(canonicalKey(key)!, steps))
  assert.equal(move('Bb', 2), 'C')
  assert.equal(move('C', 1), 'Db')
  assert.equal(move('C', 3), 'Eb')
  assert.equal(move('F', 1), 'F#')
  assert.equal(move('Gm', 1), 'G#m')
  assert.equal(move('Am', 1), 'Bbm')
  assert.equal(move('Dm', -2), 'Cm')
  assert.equal(move('E', -12), 'E')
  assert.equal(move('Eb', 0), 'Eb')
  assert.equal(usesFlats(canonicalKey('Dm')!), true)
  assert.equal(usesFlats(canonicalKey('Em')!), false)
  assert.equal(usesFlats(canonicalKey('Gb')!), true)
  assert.equal(usesFlats(canonicalKey('F#')!), false)
})

test('chart transposition spells chords from the song\'s key moved to the target key', () => {
  const chart = parseChordPro('[B7]Hey [Em]you [G]there')
  const chords = (c: ReturnType<typeof parseChordPro>) => chartChords(c)
  // E minor + 1 = F minor, a flat key: G moves to A♭. The first chord alone (B7 → C) said sharps.
  assert.deepEqual(chords(transposeChart(chart, 1, 'english', canonicalKey('Em'))),
    ['C7', 'Fm', 'Ab'])
  assert.deepEqual(chords(transposeChart(chart, 1, 'english')), ['C7', 'Fm', 'G#'])
  // German notation: C + 10 = B♭ major, written B.
  assert.deepEqual(chords(transposeChart(parseChordPro('[C]a [F]b [G]c'), 10, 'german',
    canonicalKey('C'))), ['B', 'Eb', 'F'])
})
