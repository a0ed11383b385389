import type { Chart, ChartLine, ChartMeta, ChartSection } from './chordpro.js'
import { attributes, markupText } from './chordpro-text.js'

// A parsed chart written as ChordPro again: what the converter and the tests' round trip use.
// Parsing what this prints gives the same chart (metadata first, then the sections in order).

const META: (keyof ChartMeta)[] =
  ['title', 'subtitle', 'artist', 'key', 'capo', 'tempo', 'time', 'duration']

function printLine (line: ChartLine, textblock = false): string {
  switch (line.kind) {
    case 'lyrics': {
      const text = line.pairs.map((p) =>
        (p.chord === null ? '' : `[${p.annotation ? '*' : ''}${p.chord}]`) + markupText(p.text)
      ).join('')
      // A lyric that begins like a comment, a directive or a byte order mark (`#1 hit`, once
      // markup before it): an empty tag keeps it a lyric.
      return !textblock && /^(?:\s*[#{]|\uFEFF)/.test(text) ? `<span/>${text}` : text
    }
    case 'comment':
      return `{${line.italic ? 'comment_italic' : 'comment'}: ${markupText(line.text)}}`
    case 'tab':
      return line.text
    case 'empty':
      return ''
    case 'pagebreak':
      return '{new_page}'
    case 'delegate':
      return `{start_of_${line.notation}}\n{end_of_${line.notation}}`
  }
}

/** A label as `{start_of_verse: …}` reads it back. */
function printLabel (label: string | null): string {
  if (label === null) return ''
  const text = markupText(label)
  if (!attributes(text)) return `: ${text}`
  return text.includes('"') ? `: label='${text}'` : `: label="${text}"`
}

function printSection (section: ChartSection): string[] {
  if (section.recall) return [`{chorus${printLabel(section.label)}}`]
  if (section.textblock) {
    return ['{start_of_textblock}', ...section.lines.map((l) => printLine(l, true)),
      '{end_of_textblock}']
  }
  const lines = section.lines.map((l) => printLine(l))
  if (section.kind === 'plain') return lines
  return [`{start_of_${section.kind}${printLabel(section.label)}}`, ...lines,
    `{end_of_${section.kind}}`]
}

/** The chart as ChordPro text, lines joined by `\n`. */
export function printChordPro (chart: Chart): string {
  const out: string[] = []
  for (const name of META) {
    const value = chart.meta[name]
    if (value !== null) out.push(`{${name}: ${markupText(String(value))}}`)
  }
  for (const section of chart.sections) out.push(...printSection(section))
  return out.join('\n')
}
