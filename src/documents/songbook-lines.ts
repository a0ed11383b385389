import type { Content } from 'pdfmake/interfaces.js'
import type { ChartLine, ChartPair } from '#shared/chords/chordpro.js'
import { textWidth } from './pdf.js'

// A lyric line of the songbook: chords over their syllables, words never split. Each word (with
// the chords inside it) is one block as wide as its text or its chords, whichever is wider: a
// chord wider than its syllable moves the next word on, never the rest of its own word; a line
// wider than the page wraps between words, the chords going along.

/** The type sizes of one print: normal, or large for a music stand. */
export interface PrintSize {
  lyrics: number
  chords: number
  title: number
  facts: number
  tab: number
}

export const PRINT_SIZES = {
  normal: { lyrics: 12, chords: 10, title: 20, facts: 10, tab: 9 },
  large: { lyrics: 17, chords: 15, title: 26, facts: 13, tab: 12 }
} as const satisfies Record<string, PrintSize>

export const CHORD_COLOUR = '#0b4f9c'
const NBSP = '\u00a0'

interface Segment {
  chord: string | null
  annotation: boolean
  text: string
}

/** The line's words, each with the chords that stand over it (and its trailing spaces). */
export function wordsOf (pairs: ChartPair[]): Segment[][] {
  const words: Segment[][] = []
  let open = false
  for (const pair of pairs) {
    const pieces = pair.text === '' ? [''] : pair.text.split(/(?<=\s)(?=\S)/)
    pieces.forEach((text, i) => {
      const segment = i === 0
        ? { chord: pair.chord, annotation: pair.annotation === true, text }
        : { chord: null, annotation: false, text }
      if (open && i === 0) words.at(-1)!.push(segment)
      else words.push([segment])
      if (text !== '') open = !/\s$/.test(text)
      else open = true
    })
  }
  return words
}

function wordBlock (word: Segment[], size: PrintSize): { width: number; content: Content } {
  const gap = size.chords * 0.4
  const placed: { at: number; segment: Segment }[] = []
  let x = 0
  let chordEnd = 0
  for (const segment of word) {
    if (segment.chord !== null) {
      const at = placed.length ? Math.max(x, chordEnd + gap) : x
      placed.push({ at, segment })
      chordEnd = at + textWidth(segment.chord, size.chords, !segment.annotation)
    }
    x += textWidth(segment.text, size.lyrics)
  }
  const width = Math.max(x, placed.length ? chordEnd + gap : 0)
  const chordStyle = (s: Segment) => ({
    color: CHORD_COLOUR, bold: !s.annotation, italics: s.annotation, fontSize: size.chords
  })
  const chordRow: Content = placed.length === 0
    ? { text: NBSP, fontSize: size.chords }
    : {
        columns: [
          ...(placed[0]!.at > 0.01 ? [{ width: placed[0]!.at, text: '' }] : []),
          ...placed.map(({ at, segment }, i) => ({
            width: (placed[i + 1]?.at ?? width) - at,
            text: segment.chord!,
            noWrap: true,
            ...chordStyle(segment)
          }))
        ],
        columnGap: 0
      } as Content
  const text = word.map((s) => s.text).join('').trimEnd()
  return {
    width,
    content: {
      width,
      stack: [chordRow, { text: text.replace(/ /g, NBSP) || NBSP, noWrap: true }]
    } as Content
  }
}

/**
 * One lyric line as rows no wider than `available` points: the words with their chords, wrapped
 * between words. A line without chords is plain text (wrapped by pdfmake, also between words).
 */
export function lyricRows (
  line: Extract<ChartLine, { kind: 'lyrics' }>,
  size: PrintSize,
  available: number
): Content[] {
  if (!line.pairs.some((p) => p.chord !== null)) {
    return [{ text: line.pairs.map((p) => p.text).join('') || NBSP, margin: [0, 1] }]
  }
  const rows: Content[][] = [[]]
  let used = 0
  for (const word of wordsOf(line.pairs)) {
    const block = wordBlock(word, size)
    if (used > 0 && used + block.width > available) {
      rows.push([])
      used = 0
    }
    rows.at(-1)!.push(block.content)
    used += block.width
  }
  return rows.map((columns) => ({ columns, columnGap: 0, margin: [0, 1] }) as Content)
}
