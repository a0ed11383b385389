import { keyUsesFlats, parseChord, parseKey, transposeChord, transposeKey, type ChordNotation }
  from './chord.js'
import { chartChords, type Chart, type ChartLine } from './chordpro.js'
// Relative: the web app bundles src/shared through $shared and knows no #src alias.
// eslint-disable-next-line no-restricted-imports
import { transposeKey as transposeMusicalKey, usesFlats, type MusicalKey } from '../keys.js'

/**
 * Whether a chart moved by some semitones is spelled with flats: decided by its new key (the
 * `{key}` directive, else the first chord), so every chord of one song uses one spelling.
 */
export function chartUsesFlats (chart: Chart, semitones: number, notation: ChordNotation):
boolean {
  const key = chart.meta.key ? parseKey(chart.meta.key, notation) : null
  const first = key ?? firstChordKey(chart, notation)
  if (!first) return false
  return keyUsesFlats((((first.root + semitones) % 12) + 12) % 12, first.minor)
}

function firstChordKey (chart: Chart, notation: ChordNotation) {
  for (const symbol of chartChords(chart)) {
    const chord = parseChord(symbol, notation)
    if (chord) return { root: chord.root, minor: /^m(?!aj)/.test(chord.quality) }
  }
  return null
}

/**
 * The chart with every chord and its key moved by `semitones`; annotations stay as written. With
 * the song's key, flats or sharps follow the target key (song's key + semitones: B♭ + 2 = C, no
 * flats); without it, the chart's `{key}` or first chord.
 */
export function transposeChart (
  chart: Chart,
  semitones: number,
  notation: ChordNotation,
  songKey: MusicalKey | null = null
): Chart {
  const steps = ((Math.trunc(semitones) % 12) + 12) % 12
  if (steps === 0) return chart
  const flats = songKey
    ? usesFlats(transposeMusicalKey(songKey, steps))
    : chartUsesFlats(chart, steps, notation)
  // A chart repeats a handful of chords hundreds of times: each symbol is parsed and moved once.
  const moved = new Map<string, string>()
  const move = (symbol: string) => {
    let result = moved.get(symbol)
    if (result === undefined) {
      result = transposeChord(symbol, steps, { notation, flats })
      moved.set(symbol, result)
    }
    return result
  }
  const line = (l: ChartLine): ChartLine =>
    l.kind !== 'lyrics'
      ? l
      : {
          kind: 'lyrics',
          pairs: l.pairs.map((p) =>
            p.chord === null || p.annotation
              ? p
              : { ...p, chord: move(p.chord) }
          )
        }
  return {
    meta: { ...chart.meta, key: chart.meta.key && transposeKey(chart.meta.key, steps, notation) },
    sections: chart.sections.map((s) => ({ ...s, lines: s.lines.map(line) }))
  }
}
