// A ChordPro parser (chordpro.org): the subset chord apps exchange (the Setlist Helper list).
// Never throws: unknown directives become comments, a line without chords is plain lyrics.

/** One chord (or annotation) and the text that follows it up to the next chord. */
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

export type SectionKind = 'verse' | 'chorus' | 'bridge' | 'tab' | 'plain'

export interface ChartSection {
  kind: SectionKind
  label: string | null
  /** `{chorus}`: the last chorus played again (its lines are repeated here). */
  recall?: boolean
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

const ALIASES: Record<string, string> = {
  t: 'title',
  st: 'subtitle',
  su: 'subtitle',
  c: 'comment',
  ci: 'comment_italic',
  cb: 'comment_box',
  soc: 'start_of_chorus',
  eoc: 'end_of_chorus',
  sov: 'start_of_verse',
  eov: 'end_of_verse',
  sob: 'start_of_bridge',
  eob: 'end_of_bridge',
  sot: 'start_of_tab',
  eot: 'end_of_tab',
  sog: 'start_of_grid',
  eog: 'end_of_grid',
  np: 'new_page',
  npp: 'new_physical_page',
  colb: 'column_break'
}

const STARTS: Record<string, SectionKind> = {
  start_of_chorus: 'chorus',
  start_of_verse: 'verse',
  start_of_bridge: 'bridge',
  start_of_tab: 'tab',
  start_of_grid: 'tab'
}

const PAGE_BREAKS = new Set(['new_page', 'pagebreak', 'new_physical_page', 'column_break'])

// Known layout directives (fonts, sizes, colours, columns) the stage view sets itself: ignored.
const LAYOUT = /^(?:text|chord|tab|title|chorus|footer|toc|label|grid)(?:font|size|colou?r)$|^(?:columns|col|define|chord|diagrams|g|grid|no_grid|ng|titles)$/

const DIRECTIVE = /^\{\s*([A-Za-z_]+)(?:-[A-Za-z0-9_]+)?\s*(?:[:\s]\s*([\s\S]*?))?\s*\}$/

const BRACE = 0x7b
const HASH = 0x23

const directiveName = (written: string) =>
  ALIASES[written.toLowerCase()] ?? written.toLowerCase()

/** `label="Chorus 2"` (ChordPro 6) or a plain label after the colon. */
function sectionLabel (value: string | undefined): string | null {
  if (!value) return null
  const quoted = /^label\s*=\s*"([^"]*)"/.exec(value) ?? /^label\s*=\s*(\S+)/.exec(value)
  const label = (quoted ? (quoted[1] ?? '') : value).trim()
  return label === '' ? null : label
}

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
export function parseChordPro (source: string): Chart {
  const reader = new ChordProReader(source)
  const sections: ChartSection[] = []
  for (let section = reader.next(); section; section = reader.next()) sections.push(section)
  return { meta: reader.meta, sections }
}

/**
 * A chart parsed as it is read: `sectionsOf(chart)` parses one section at a time, so the stage
 * view shows a chart's first screen before the rest of it is parsed (docs/performance-charts.md);
 * reading `sections` or `meta` parses the whole chart (metadata directives may stand anywhere).
 * Equal to parseChordPro's chart in every other way.
 */
export function parseChordProLazily (source: string): Chart {
  const reader = new ChordProReader(source)
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
  #lines: string[]
  #at = 0
  #current: ChartSection = { kind: 'plain', label: null, lines: [] }
  #lastChorus: ChartSection | null = null
  #lastChorusSize = 0
  #closed: ChartSection[] = []
  /** What recalls may still repeat (RECALL_LIMITS). */
  #recallLines: number = RECALL_LIMITS.lines
  #recallText: number

  constructor (source: string) {
    const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source
    this.#lines = text.split(/\r\n|\r|\n/)
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
    // parses a chart when it is first shown (docs/performance-charts.md).
    const line = raw.trimEnd()
    const trimmed = line.trimStart()
    if (this.#current.kind === 'tab') {
      const end = trimmed.charCodeAt(0) === BRACE ? DIRECTIVE.exec(trimmed) : null
      const name = end ? directiveName(end[1] ?? '') : ''
      if (name === 'end_of_tab' || name === 'end_of_grid') this.#close()
      else this.#current.lines.push({ kind: 'tab', text: line })
      return
    }
    if (trimmed.charCodeAt(0) === HASH) return
    const directive = trimmed.charCodeAt(0) === BRACE ? DIRECTIVE.exec(trimmed) : null
    if (!directive) {
      if (trimmed === '') this.#current.lines.push({ kind: 'empty' })
      else this.#current.lines.push({ kind: 'lyrics', pairs: parseLyricLine(line) })
      return
    }
    const written = directive[1] ?? ''
    const name = directiveName(written)
    const value = directive[2]?.trim() ?? ''
    if (name in STARTS) {
      this.#close()
      this.#current = { kind: STARTS[name] ?? 'verse', label: sectionLabel(value), lines: [] }
    } else if (name.startsWith('end_of_')) {
      if (this.#current.kind !== 'plain') this.#close()
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
      this.#current.lines.push({ kind: 'comment', text: value })
    } else if (name === 'comment_italic') {
      this.#current.lines.push({ kind: 'comment', text: value, italic: true })
    } else if (PAGE_BREAKS.has(name)) {
      this.#current.lines.push({ kind: 'pagebreak' })
    } else if (!setMeta(this.meta, name, value) && !LAYOUT.test(name)) {
      // Unknown directives are kept and shown, never an error.
      this.#current.lines.push({ kind: 'comment', text: value ? `${written}: ${value}` : written })
    }
  }
}

/** Stores a metadata directive; false when the name is none. */
function setMeta (meta: ChartMeta, name: string, value: string): boolean {
  switch (name) {
    case 'title':
    case 'subtitle':
    case 'artist':
    case 'key':
    case 'time':
    case 'duration':
      meta[name] = value === '' ? null : value
      return true
    case 'capo':
    case 'tempo': {
      const n = Number.parseInt(value, 10)
      meta[name] = Number.isFinite(n) ? n : null
      return true
    }
    case 'album':
    case 'composer':
    case 'lyricist':
    case 'arranger':
    case 'year':
    case 'copyright':
    case 'meta':
      return true
    default:
      return false
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
