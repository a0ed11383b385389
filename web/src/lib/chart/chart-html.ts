import { sectionsOf, type Chart, type ChartLine } from '$shared/chords/chordpro'

// A chart as one HTML string, set at once: a 300-line chart is ~5,000 elements, and the browser
// parses them natively far faster than a framework creates and diffs them node by node. Every
// text is escaped; the markup is fixed here.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

// Lines in blocks: the browser lays out only the blocks on screen (content-visibility: auto).
const BLOCK = 4

function line (l: ChartLine, chords: boolean, label: (kind: string) => string): string {
  switch (l.kind) {
    case 'lyrics': {
      if (!chords || !l.pairs.some((p) => p.chord !== null)) {
        return `<p class="line text">${esc(l.pairs.map((p) => p.text).join('')) || ' '}</p>`
      }
      const pairs = l.pairs.map((p) =>
        `<span class="pair"><span class="chord${p.annotation ? ' annotation' : ''}">` +
        `${esc(p.chord ?? '')}</span>${esc(p.text) || ' '}</span>`)
      return `<p class="line">${pairs.join('')}</p>`
    }
    case 'comment':
      return `<p class="comment${l.italic ? ' italic' : ''}">${esc(l.text)}</p>`
    case 'tab':
      return `<pre class="tab">${esc(l.text)}</pre>`
    case 'empty':
      return '<div class="gap"></div>'
    case 'pagebreak':
      // Pages and columns are paper's: on a screen the chart flows on.
      return ''
    case 'delegate': {
      // "ABC notation — not shown"; the stage's label is empty: nothing there.
      const note = label(l.notation)
      return note ? `<p class="comment italic delegate">${esc(note)}</p>` : ''
    }
  }
}

/** A piece of a chart's markup, appended to the chart or to its last section. */
export interface ChartChunk {
  into: 'chart' | 'section'
  html: string
  /** The chart's last piece (known without building the pieces after it: there are none). */
  last?: boolean
}

/** The characters a lyrics line takes in a row: a pair is as wide as its chord or its text. */
function widthOf (l: ChartLine, chords: boolean): number {
  if (l.kind !== 'lyrics') return l.kind === 'comment' ? l.text.length : 0
  let width = 0
  for (const p of l.pairs) {
    width += chords && p.chord !== null
      ? Math.max(p.text.length, p.chord.length + 1)
      : p.text.length
  }
  return width
}

/**
 * Rows of text a line takes at least: a chord row above the lyrics, or one row; a line longer
 * than `rowChars` characters wraps (a phone shows ~40 characters a row at the default size).
 */
const rowsOf = (l: ChartLine, chords: boolean, rowChars: number) =>
  (chords && l.kind === 'lyrics' && l.pairs.some((p) => p.chord !== null) ? 2 : 1) *
  Math.max(1, Math.ceil(widthOf(l, chords) / rowChars))

/**
 * The chart's markup in pieces of about `lines` lines each, cut between blocks: the first piece
 * is what a screen shows, the rest can follow after the first paint. `label` names a section kind
 * (verse, chorus …) in the reader's language, and the note for music in another notation
 * (`abc`, `ly`, `svg`: empty on the stage, where it shows nothing). `firstRows` ends the first
 * piece once it holds that many rows of text (a line with chords is two, a line wider than
 * `rowChars` characters wraps): the screen's height in rows, so that the first piece is no larger
 * than what the musician sees (bench/stage-charts.ts). A generator: a piece's markup is built
 * only when it is asked for, so the first screen does not wait for the markup of the whole chart
 * (a third of the JavaScript of showing a 300-line chart).
 */
export function * chartPieces (chart: Chart, chords: boolean, label: (kind: string) => string,
  lines = Infinity, firstRows = Infinity, rowChars = Infinity):
  Generator<ChartChunk, void, undefined> {
  let chunk: ChartChunk = { into: 'chart', html: '' }
  let first = true
  let count = 0
  let rows = 0
  let sectionOpen = false
  const full = () => count >= lines || (first && rows >= firstRows)
  // Closes the piece; the next one continues the open section or starts after it.
  const cut = (inSection: boolean): ChartChunk => {
    if (sectionOpen) chunk.html += '</div>'
    const done = chunk
    chunk = { into: inSection ? 'section' : 'chart', html: '' }
    first = false
    count = 0
    sectionOpen = false
    return done
  }
  // Sections parsed (and transposed) as they are reached: the first piece waits for no others.
  for (const section of sectionsOf(chart)) {
    // A piece that continued a section ends with it: the next sections go into the chart.
    if (chunk.into === 'section' || full()) yield cut(false)
    const name = section.label ?? (section.kind === 'plain' ? '' : label(section.kind))
    chunk.html += `<div class="section ${section.kind}${section.recall ? ' recall' : ''}">`
    sectionOpen = true
    if (name) {
      chunk.html += `<p class="section-label">${esc(name)}</p>`
      rows++
    }
    for (let i = 0; i < section.lines.length;) {
      if (full()) yield cut(true)
      // The first screen's blocks are laid out at once: not deferred to the next frame as a new
      // `content-visibility: auto` block is (its visibility is known only then). So the first
      // piece may end inside one: it ends at the line that fills the screen.
      const screen = first && firstRows !== Infinity
      chunk.html += screen ? '<div class="block screen">' : '<div class="block">'
      const start = i
      const end = Math.min(i + BLOCK, section.lines.length)
      for (; i < end; i++) {
        if (screen && i > start && rows >= firstRows) break
        chunk.html += line(section.lines[i]!, chords, label)
        rows += rowsOf(section.lines[i]!, chords, rowChars)
      }
      chunk.html += '</div>'
      count += i - start
    }
    if (sectionOpen) chunk.html += '</div>'
    sectionOpen = false
  }
  // A piece is cut only where more follows: this one is the last.
  if (chunk.html !== '' || first) yield { ...chunk, last: true }
}

/** Every piece of the chart's markup at once (see chartPieces). */
export function chartChunks (chart: Chart, chords: boolean, label: (kind: string) => string,
  lines = Infinity, firstRows = Infinity, rowChars = Infinity): ChartChunk[] {
  return [...chartPieces(chart, chords, label, lines, firstRows, rowChars)]
}

/** The chart's markup, whole. */
export function chartHtml (chart: Chart, chords: boolean, label: (kind: string) => string):
string {
  return chartChunks(chart, chords, label)[0]!.html
}

/**
 * The text of every chord element chartHtml writes, in document order: a transposition changes
 * only these, so the view renames them in place instead of building the chart again.
 */
export function chordNames (chart: Chart): string[] {
  const names: string[] = []
  for (const section of chart.sections) {
    for (const l of section.lines) {
      if (l.kind !== 'lyrics' || !l.pairs.some((p) => p.chord !== null)) continue
      for (const p of l.pairs) names.push(p.chord ?? '')
    }
  }
  return names
}
