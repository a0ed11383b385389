import {
  keyUsesFlats, parseChord, parseKey, transposeChord, transposeKey, type ChordNotation,
  type Notations
} from './chord.js'
import { chartChords, type Chart, type ChartLine } from './chordpro.js'
// Relative: the web app bundles src/shared through $shared and knows no #src alias.
// eslint-disable-next-line no-restricted-imports
import { transposeKey as transposeMusicalKey, usesFlats, type MusicalKey } from '../keys.js'

/** The band's one notation (read and written), or a chart's own and the band's (chartNotations). */
export type ChartNotation = ChordNotation | Notations

const both = (notation: ChartNotation): Notations =>
  typeof notation === 'string' ? { read: notation, write: notation } : notation

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
 * The function that moves a chart's chord symbols by `semitones` (null when it stays as written):
 * with the song's key, flats or sharps follow the target key (song's key + semitones: B♭ + 2 = C,
 * no flats); without it, the chart's `{key}` or first chord. A chart repeats a handful of chords
 * hundreds of times: each symbol is parsed and moved once.
 */
export function chordMover (
  chart: Chart,
  semitones: number,
  notation: ChartNotation,
  songKey: MusicalKey | null = null
): ((symbol: string) => string) | null {
  const steps = ((Math.trunc(semitones) % 12) + 12) % 12
  const { read, write } = both(notation)
  if (steps === 0 && read === write) return null
  // Unmoved but read in the chart's own notation: each chord keeps its flats or sharps.
  const flats = steps === 0
    ? undefined
    : songKey
      ? usesFlats(transposeMusicalKey(songKey, steps))
      : chartUsesFlats(chart, steps, read)
  const moved = new Map<string, string>()
  return (symbol: string) => {
    let result = moved.get(symbol)
    if (result === undefined) {
      result = transposeChord(symbol, steps, { notation: read, write, flats })
      moved.set(symbol, result)
    }
    return result
  }
}

/** A line with its chords moved (annotations stay as written). */
export const movedLine = (l: ChartLine, move: (symbol: string) => string): ChartLine =>
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

/** The chart's `{key}` moved by `semitones`. */
export const movedMeta = (chart: Chart, semitones: number, notation: ChartNotation) => ({
  ...chart.meta,
  key: chart.meta.key &&
    transposeKey(chart.meta.key, ((semitones % 12) + 12) % 12, both(notation).read,
      both(notation).write)
})

/**
 * The chart with every chord and its key moved by `semitones`; annotations stay as written (see
 * chordMover for the spelling).
 */
export function transposeChart (
  chart: Chart,
  semitones: number,
  notation: ChartNotation,
  songKey: MusicalKey | null = null
): Chart {
  const move = chordMover(chart, semitones, notation, songKey)
  if (!move) return chart
  return {
    meta: movedMeta(chart, Math.trunc(semitones), notation),
    sections: chart.sections.map((s) => ({ ...s, lines: s.lines.map((l) => movedLine(l, move)) }))
  }
}
