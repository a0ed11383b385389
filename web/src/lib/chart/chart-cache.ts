import {
  lazyChart, parseChordProLazily, sectionsOf, type Chart, type ChartLine, type ChartSection,
  type ParseOptions
} from '$shared/chords/chordpro'
import { chordMover, movedLine, movedMeta, type ChartNotation } from '$shared/chords/transpose'
import { keyString, type MusicalKey } from '$shared/keys'

// The stage view parses each chart once and transposes it once per number of semitones: a
// personal `Transpose up`, a song coming round again or a new charts document with the same text
// costs no parsing. Bounded: a gig has ~40 songs, a chart is at most 64 KiB.

const PARSED_MAX = 64
const parsed = new Map<string, Chart>()
const transposed = new WeakMap<Chart, Map<string, Chart>>()
const origins = new WeakMap<Chart, Chart>()

/**
 * The chart of this ChordPro text, parsed once (the most recently used are kept), a section at a
 * time as it is read (parseChordProLazily): the first screen waits only for its own lines. The
 * member's selectors (`{title-piano: …}`) are part of what it is parsed with.
 */
export function parsedChart (source: string, options: ParseOptions = {}): Chart {
  const selectors = options.selectors?.join('\n') ?? ''
  const key = selectors === '' ? source : `${selectors}\u0000${source}`
  let chart = parsed.get(key)
  if (chart) {
    // Most recently used last: the first entry is the one to drop.
    parsed.delete(key)
  } else {
    chart = parseChordProLazily(source, options)
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!)
  }
  parsed.set(key, chart)
  return chart
}

const notationKey = (notation: ChartNotation) =>
  typeof notation === 'string' ? notation : `${notation.read}>${notation.write}`

/**
 * The chart moved by some semitones, computed once per chart, step, notation and song key (the
 * key decides flats or sharps).
 */
export function transposedChart (
  chart: Chart,
  semitones: number,
  notation: ChartNotation,
  songKey: MusicalKey | null = null
): Chart {
  let byStep = transposed.get(chart)
  if (!byStep) transposed.set(chart, (byStep = new Map()))
  const steps = ((semitones % 12) + 12) % 12
  const key = `${steps}:${notationKey(notation)}:${songKey ? keyString(songKey) : ''}`
  let result = byStep.get(key)
  if (!result) {
    result = lazilyTransposed(chart, semitones, notation, songKey)
    if (result !== chart) origins.set(result, chart)
    byStep.set(key, result)
  }
  return result
}

/**
 * transposeChart's result, each section moved when it is first read (and the chart it is made
 * from parsed only that far): the stage view shows a chart's first screen before it builds the
 * rest (chart-html.ts → chartPieces), and moving all of a 300-line chart's chords was a third of
 * the JavaScript of showing it.
 */
function lazilyTransposed (
  chart: Chart,
  semitones: number,
  notation: ChartNotation,
  songKey: MusicalKey | null
): Chart {
  const move = chordMover(chart, semitones, notation, songKey)
  if (!move) return chart
  const sections = sectionsOf(chart)[Symbol.iterator]()
  return lazyChart(
    () => movedMeta(chart, Math.trunc(semitones), notation),
    (): ChartSection | undefined => {
      const section = sections.next()
      if (section.done) return undefined
      let lines: ChartLine[] | undefined
      const from = section.value
      // A section's lines moved when they are first read (chartPieces cuts inside one).
      return Object.defineProperty({ ...from }, 'lines', {
        enumerable: true,
        get: () => (lines ??= from.lines.map((l) => movedLine(l, move)))
      })
    }
  )
}

/**
 * The chart a transposed one was made from (itself when it was not transposed): charts with the
 * same origin have the same lines and differ only in their chords' names.
 */
export const originOf = (chart: Chart): Chart => origins.get(chart) ?? chart
