// A ChordPro parser (chordpro.org, the ChordPro program as the reference). Never throws: every
// directive of the reference is shown or ignored (and listed), a line without chords is lyrics.
import { transposeChord, type ChordNotation } from './chord.js'
import { plainText, sectionLabel } from './chordpro-text.js'
import {
  DELEGATES, PAGE_BREAKS, QUIET_META, STARTS, directiveName, selected, setMeta, type Delegate,
  type SectionKind
} from './directives.js'

export type { SectionKind } from './directives.js'

export interface ChartPair {
  chord: string | null
  /** `[*Rit.]`: shown where a chord would be, never transposed. */
  annotation?: boolean
  text: string
}

export type ChartLine =
  | { kind: 'lyrics'; pairs: ChartPair[] }
  | { kind: 'comment'; text: string; italic?: boolean }
  | { kind: 'tab'; text: string }
  | { kind: 'empty' }
  | { kind: 'pagebreak' }
  /** `{start_of_abc}` …: music for another program; a note in previews, nothing on the stage. */
  | { kind: 'delegate'; notation: Delegate }

export interface ChartSection {
  kind: SectionKind
  label: string | null
  /** `{chorus}`: the last chorus played again (its lines are repeated here). */
  recall?: boolean
  /** `{start_of_textblock}`: plain text, no chords read (a 'plain' section). */
  textblock?: boolean
  /** A recall left empty: it would have repeated more than the recall limits allow. */
  clipped?: boolean
  lines: ChartLine[]
}

/**
 * What `{chorus}` recalls may repeat in one chart, all recalls together: `lines` lines (each
 * recall's heading counted as one: a songbook lays out 5,000 one-line recalls in ~13 s), and
 * `textFactor` times the chart's own text (at least `textMin` characters). A 64 KiB chart
 * recalling a long chorus thousands of times would otherwise become millions of lines on every
 * reader (the songbook, the stage view). A recall past them stays empty and `clipped`; a save
 * refuses such a chart (CHART_EXPANDS_TOO_FAR). Songs recall a chorus a few dozen lines in all.
 */
export const RECALL_LIMITS = { lines: 1000, textFactor: 4, textMin: 16 * 1024 } as const

/** The characters a line shows (chords included): what a recall of it adds. */
function lineSize (line: ChartLine): number {
  switch (line.kind) {
    case 'lyrics': {
      let size = 1
      for (const pair of line.pairs) size += pair.text.length + (pair.chord?.length ?? 0)
      return size
    }
    case 'comment':
    case 'tab':
      return line.text.length + 1
    default:
      return 1
  }
}

export interface ChartMeta {
  title: string | null
  subtitle: string | null
  artist: string | null
  key: string | null
  capo: number | null
  tempo: number | null
  time: string | null
  duration: string | null
}

export interface Chart {
  meta: ChartMeta
  sections: ChartSection[]
}

export interface ParseOptions {
  /** The member's selectors (memberSelectors): `{title-piano: …}` applies to pianists only. */
  selectors?: readonly string[]
  /** How `{transpose: n}` spells the chords it moves. */
  notation?: ChordNotation
}

const DIRECTIVE =
  /^\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:-([A-Za-z0-9_]+!?))?\s*(?:[:\s]\s*([\s\S]*?))?\s*\}$/

const BRACE = 0x7b
const HASH = 0x23

/** `[G]Amazing [C]grace`: pairs of chord and following text. */
export function parseLyricLine (line: string): ChartPair[] {
  const pairs: ChartPair[] = []
  let chord: string | null = null
  let annotation = false
  let text = ''
  let i = 0
  while (i < line.length) {
    const open = line.indexOf('[', i)
    const close = open < 0 ? -1 : line.indexOf(']', open + 1)
    if (open < 0 || close < 0) {
      text += line.slice(i)
      break
    }
    text += line.slice(i, open)
    if (chord !== null || text !== '') pairs.push(pair(chord, annotation, text))
    const inner = line.slice(open + 1, close).trim()
    annotation = inner.startsWith('*')
    chord = annotation ? inner.slice(1) : inner
    text = ''
    i = close + 1
  }
  if (chord !== null || text !== '' || pairs.length === 0) pairs.push(pair(chord, annotation, text))
  return pairs
}

function pair (chord: string | null, annotation: boolean, text: string): ChartPair {
  return annotation ? { chord, annotation: true, text } : { chord, text }
}

const emptyMeta = (): ChartMeta => ({
  title: null,
  subtitle: null,
  artist: null,
  key: null,
  capo: null,
  tempo: null,
  time: null,
  duration: null
})

/** Parses ChordPro text (any line endings). */
export function parseChordPro (source: string, options: ParseOptions = {}): Chart {
  return readChordPro(source, options).chart
}

/**
 * The chart and what was left out of it: the directives and environments ignored (layout,
 * images, music in other notations, unknown ones), each once in the order met, for the editor.
 */
export function readChordPro (source: string, options: ParseOptions = {}):
{ chart: Chart; ignored: string[] } {
  const reader = new ChordProReader(source, options)
  const sections: ChartSection[] = []
  for (let section = reader.next(); section; section = reader.next()) sections.push(section)
  return { chart: { meta: reader.meta, sections }, ignored: [...reader.ignored] }
}

/**
 * A chart parsed as it is read: `sectionsOf(chart)` parses one section at a time, so the stage
 * view shows a chart's first screen before the rest of it is parsed (docs/performance.md);
 * reading `sections` or `meta` parses the whole chart (metadata directives may stand anywhere).
 * Equal to parseChordPro's chart in every other way.
 */
export function parseChordProLazily (source: string, options: ParseOptions = {}): Chart {
  const reader = new ChordProReader(source, options)
  return lazyChart(() => reader.meta, () => reader.next())
}

// The section iterators of charts made by lazyChart.
const lazySections = new WeakMap<Chart, () => Iterable<ChartSection>>()

/**
 * A chart whose sections are made one at a time by `next` (undefined after the last) as
 * `sectionsOf` reads them, each once; `meta` is read after all of them are made.
 */
export function lazyChart (meta: () => ChartMeta, next: () => ChartSection | undefined): Chart {
  const made: ChartSection[] = []
  let ended = false
  const more = (): boolean => {
    const section = ended ? undefined : next()
    if (section) made.push(section)
    else ended = true
    return !ended
  }
  const all = () => {
    while (more());
    return made
  }
  const chart: Chart = {
    get meta () {
      all()
      return meta()
    },
    get sections () {
      return all()
    }
  }
  lazySections.set(chart, function * () {
    for (let i = 0; i < made.length || more(); i++) yield made[i]!
  })
  return chart
}

/** A chart's sections, parsed (or moved) as they are read when the chart is a lazy one. */
export const sectionsOf = (chart: Chart): Iterable<ChartSection> =>
  lazySections.get(chart)?.() ?? chart.sections

/** The parser's state between two sections: `next()` reads the source up to the next one. */
class ChordProReader {
  readonly meta = emptyMeta()
  readonly ignored = new Set<string>()
  #lines: string[]
  #at = 0
  #current: ChartSection = { kind: 'plain', label: null, lines: [] }
  #lastChorus: ChartSection | null = null
  #lastChorusSize = 0
  #closed: ChartSection[] = []
  #selectors: readonly string[]
  #notation: ChordNotation
  /** The end directive the reader skips to: a delegated, unknown or unselected environment. */
  #skipTo: string | null = null
  /** Inside `{start_of_textblock}`: lines are plain text. */
  #textblock = false
  /** `{transpose: n}`: the semitones the following chords move. */
  #transpose = 0
  /** After `{new_song}`: the next song's title and subtitle are shown, the first's meta stays. */
  #laterSong = false
  /** What recalls may still repeat (RECALL_LIMITS). */
  #recallLines: number = RECALL_LIMITS.lines
  #recallText: number

  constructor (source: string, options: ParseOptions) {
    const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source
    this.#lines = text.split(/\r\n|\r|\n/)
    this.#selectors = options.selectors ?? []
    this.#notation = options.notation ?? 'english'
    this.#recallText = Math.max(RECALL_LIMITS.textMin, RECALL_LIMITS.textFactor * text.length)
  }

  /** The next section, undefined after the last. */
  next (): ChartSection | undefined {
    while (this.#closed.length === 0 && this.#at <= this.#lines.length) {
      if (this.#at === this.#lines.length) this.#close()
      else this.#line(this.#lines[this.#at]!)
      this.#at++
    }
    return this.#closed.shift()
  }

  #close (): void {
    const current = this.#current
    this.#textblock = false
    // Blank lines at a section's end only separate it from the next one.
    while (current.lines.at(-1)?.kind === 'empty') current.lines.pop()
    if (current.lines.length > 0 || current.kind !== 'plain') this.#closed.push(current)
    if (current.kind === 'chorus' && !current.recall) {
      this.#lastChorus = current
      this.#lastChorusSize = current.lines.reduce((sum, line) => sum + lineSize(line), 0)
    }
    this.#current = { kind: 'plain', label: null, lines: [] }
  }

  #line (raw: string): void {
    // Each line trimmed once (trimEnd and trimStart drop what /\s/ matches): the stage view
    // parses a chart when it is first shown (docs/performance.md).
    const line = raw.trimEnd()
    const trimmed = line.trimStart()
    const directive = trimmed.charCodeAt(0) === BRACE ? DIRECTIVE.exec(trimmed) : null
    const name = directive ? directiveName(directive[1] ?? '') : ''
    if (this.#skipTo !== null) {
      if (name === this.#skipTo) this.#skipTo = null
      return
    }
    if (this.#current.kind === 'tab') {
      if (name === 'end_of_tab' || name === 'end_of_grid') this.#close()
      else this.#current.lines.push({ kind: 'tab', text: line })
      return
    }
    if (this.#textblock && name !== 'end_of_textblock') {
      const text = plainText(line).trimEnd()
      this.#current.lines.push(text.trim() === ''
        ? { kind: 'empty' }
        : { kind: 'lyrics', pairs: [{ chord: null, text }] })
      return
    }
    if (trimmed.charCodeAt(0) === HASH) return
    if (!directive) {
      const pairs = trimmed === '' ? null : this.#pairs(line)
      // A line of markup only (`<b></b>`) is as blank as an empty one.
      this.#current.lines.push(pairs ? { kind: 'lyrics', pairs } : { kind: 'empty' })
      return
    }
    const selector = directive[2]
    if (selector !== undefined && !selected(selector, this.#selectors)) {
      // Selected for another instrument: skipped up to and including its end.
      if (name.startsWith('start_of_')) this.#skipTo = `end_of_${name.slice(9)}`
      return
    }
    this.#directive(name, directive[3]?.trim() ?? '')
  }

  /** A lyrics line's pairs: markup reduced to text, chords moved by `{transpose}`; null: none. */
  #pairs (line: string): ChartPair[] | null {
    const pairs = parseLyricLine(line)
    if (!line.includes('<') && !line.includes('&') && this.#transpose === 0) return pairs
    const flats = this.#transpose < 0
    const out: ChartPair[] = []
    for (const p of pairs) {
      const text = plainText(p.text)
      if (p.chord === null && text === '' && pairs.length > 1) continue
      const chord = p.chord === null || p.annotation || this.#transpose === 0
        ? p.chord
        : transposeChord(p.chord, this.#transpose, { notation: this.#notation, flats })
      out.push({ ...p, chord, text })
    }
    // What the markup stood for at the end is not kept as trailing blanks (lines are trimmed).
    const last = out.at(-1)
    if (last) last.text = last.text.trimEnd()
    return out.length > 1 || (out[0] && (out[0].chord !== null || out[0].text.trim() !== ''))
      ? out
      : null
  }

  #directive (name: string, value: string): void {
    const lines = this.#current.lines
    if (name in STARTS) {
      this.#close()
      const kind = STARTS[name] ?? 'verse'
      this.#current = { kind, label: sectionLabel(value, name === 'start_of_grid'), lines: [] }
    } else if (name in DELEGATES) {
      this.#close()
      this.#closed.push({
        kind: 'plain',
        label: null,
        lines: [{ kind: 'delegate', notation: DELEGATES[name as keyof typeof DELEGATES] }]
      })
      this.ignored.add(name)
      this.#skipTo = `end_of_${name.slice(9)}`
    } else if (name === 'start_of_textblock') {
      this.#close()
      this.#current.textblock = true
      this.#textblock = true
    } else if (name.startsWith('start_of_')) {
      this.ignored.add(name)
      this.#skipTo = `end_of_${name.slice(9)}`
    } else if (name.startsWith('end_of_')) {
      if (this.#current.kind !== 'plain' || this.#textblock) this.#close()
    } else if (name === 'chorus') {
      this.#close()
      const recalled = this.#lastChorus
      const lines = recalled?.lines ?? []
      const fits = lines.length < this.#recallLines && this.#lastChorusSize <= this.#recallText
      if (fits) {
        this.#recallLines -= lines.length + 1
        this.#recallText -= this.#lastChorusSize
      }
      this.#closed.push({
        kind: 'chorus',
        label: sectionLabel(value) ?? recalled?.label ?? null,
        recall: true,
        ...(fits ? { lines: [...lines] } : { clipped: true, lines: [] })
      })
    } else if (name === 'comment' || name === 'comment_box' || name === 'highlight') {
      lines.push({ kind: 'comment', text: plainText(value) })
    } else if (name === 'comment_italic') {
      lines.push({ kind: 'comment', text: plainText(value), italic: true })
    } else if (PAGE_BREAKS.has(name)) {
      lines.push({ kind: 'pagebreak' })
    } else if (name === 'new_song') {
      this.#close()
      this.#current.lines.push({ kind: 'pagebreak' })
      this.#laterSong = true
    } else if (name === 'transpose') {
      const n = Number.parseInt(value, 10)
      this.#transpose = Number.isFinite(n) ? n % 12 : 0
    } else if (this.#laterSong && (name === 'title' || name === 'subtitle')) {
      if (value !== '') lines.push({ kind: 'comment', text: plainText(value) })
    } else if (name === 'meta') {
      const [, key = '', rest = ''] = /^(\S+)\s*([\s\S]*)$/.exec(value) ?? []
      const metaName = directiveName(key)
      if (!this.#laterSong && !setMeta(this.meta, metaName, plainText(rest))) {
        if (!QUIET_META.has(metaName)) this.ignored.add(`meta ${metaName}`)
      }
    } else if (this.#laterSong || QUIET_META.has(name)) {
      // A later song's metadata, or metadata that is no song field: kept to the file.
    } else if (!setMeta(this.meta, name, plainText(value))) {
      // Layout (fonts, columns, diagrams, images) and unknown directives alike: nothing on the
      // stage, listed for editors.
      this.ignored.add(name)
    }
  }
}

/** Every chord of a chart in order (annotations left out): for tests and key detection. */
export function chartChords (chart: Chart): string[] {
  const chords: string[] = []
  for (const section of chart.sections) {
    if (section.recall) continue
    for (const line of section.lines) {
      if (line.kind !== 'lyrics') continue
      for (const p of line.pairs) if (p.chord !== null && !p.annotation) chords.push(p.chord)
    }
  }
  return chords
}
