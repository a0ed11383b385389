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
  lines: ChartLine[]
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
  const meta = emptyMeta()
  const sections: ChartSection[] = []
  let current: ChartSection = { kind: 'plain', label: null, lines: [] }
  let lastChorus: ChartSection | null = null
  const close = () => {
    // Blank lines at a section's end only separate it from the next one.
    while (current.lines.at(-1)?.kind === 'empty') current.lines.pop()
    if (current.lines.length > 0 || current.kind !== 'plain') sections.push(current)
    if (current.kind === 'chorus' && !current.recall) lastChorus = current
    current = { kind: 'plain', label: null, lines: [] }
  }
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source
  // Each line trimmed once (trimEnd and trimStart drop what /\s/ matches): the stage view parses
  // a chart when it is first shown (docs/performance-charts.md).
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trimEnd()
    const trimmed = line.trimStart()
    if (current.kind === 'tab') {
      const end = trimmed.charCodeAt(0) === BRACE ? DIRECTIVE.exec(trimmed) : null
      const name = end ? directiveName(end[1] ?? '') : ''
      if (name === 'end_of_tab' || name === 'end_of_grid') close()
      else current.lines.push({ kind: 'tab', text: line })
      continue
    }
    if (trimmed.charCodeAt(0) === HASH) continue
    const directive = trimmed.charCodeAt(0) === BRACE ? DIRECTIVE.exec(trimmed) : null
    if (!directive) {
      if (trimmed === '') current.lines.push({ kind: 'empty' })
      else current.lines.push({ kind: 'lyrics', pairs: parseLyricLine(line) })
      continue
    }
    const written = directive[1] ?? ''
    const name = directiveName(written)
    const value = directive[2]?.trim() ?? ''
    if (name in STARTS) {
      close()
      current = { kind: STARTS[name] ?? 'verse', label: sectionLabel(value), lines: [] }
    } else if (name.startsWith('end_of_')) {
      if (current.kind !== 'plain') close()
    } else if (name === 'chorus') {
      close()
      // Set inside close(), which the compiler's narrowing does not see.
      const recalled = lastChorus as ChartSection | null
      sections.push({
        kind: 'chorus',
        label: sectionLabel(value) ?? recalled?.label ?? null,
        recall: true,
        lines: recalled ? [...recalled.lines] : []
      })
    } else if (name === 'comment' || name === 'comment_box' || name === 'highlight') {
      current.lines.push({ kind: 'comment', text: value })
    } else if (name === 'comment_italic') {
      current.lines.push({ kind: 'comment', text: value, italic: true })
    } else if (PAGE_BREAKS.has(name)) {
      current.lines.push({ kind: 'pagebreak' })
    } else if (!setMeta(meta, name, value) && !LAYOUT.test(name)) {
      // Unknown directives are kept and shown, never an error.
      current.lines.push({ kind: 'comment', text: value ? `${written}: ${value}` : written })
    }
  }
  close()
  return { meta, sections }
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
