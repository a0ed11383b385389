import { parseChord, type ChordNotation } from './chord.js'
// Relative: the web app bundles src/shared through $shared and knows no #src alias.
// eslint-disable-next-line no-restricted-imports
import type { ConvertWarningCode } from '../enums.js'

// "Chords over lyrics" (as copied from chord websites): a line of chords above the lyric line it
// belongs to. Converted to ChordPro by putting each chord in brackets at its column; the rules
// are in docs/importing.md.

const HEADING_WORDS =
  'verse|strophe|chorus|refrain|bridge|intro|outro|pre-?chorus|solo|interlude|instrumental|coda'
const HEADING = new RegExp(`^\\s*\\[?\\s*((${HEADING_WORDS})\\b[^\\]:]*?)\\s*\\]?\\s*:?\\s*$`, 'i')
const MARK = /^(\||\|\||\/|-|%|x\d+|\d+x|\(x?\d+x?\)|N\.?C\.?|:?\|\|?:?)$/i
// A line of guitar tablature: a string name, a bar and frets (`e|--0--3-|`).
const TAB_STAFF = /^\s*[A-Ga-g][#b]?\s*\|[-0-9a-z|/\\~().*^ ]*$/
const TAB_STOP = 8

export interface ConvertWarning {
  /** The line of the pasted text, from 1 (0: the whole text). */
  line: number
  code: ConvertWarningCode
  message: string
}

const isChord = (token: string, notation: ChordNotation) =>
  parseChord(token, notation) !== null || parseChord(token, 'english') !== null

const tokensOf = (line: string) => line.trim().split(/\s+/).filter((t) => t !== '')

/** A line made only of chords (and bar lines, "N.C.", repeat marks). */
export function isChordLine (line: string, notation: ChordNotation): boolean {
  const tokens = tokensOf(line).filter((t) => !MARK.test(t))
  if (tokens.length === 0) return false
  // Both notations are tried: a pasted English chart in a German band still converts.
  return tokens.every((t) => isChord(t, notation))
}

/** Puts chords at their columns into a lyric line: `[G]Amazing [C]grace`. */
function merge (chordLine: string, lyric: string): string {
  const chords: { column: number; chord: string }[] = []
  for (const match of chordLine.matchAll(/\S+/g)) {
    // Bar lines, repeats and "N.C." are shown where they stand but never transposed.
    const chord = MARK.test(match[0]) ? `*${match[0]}` : match[0]
    chords.push({ column: match.index, chord })
  }
  let out = ''
  let at = 0
  const padded = lyric.padEnd(Math.max(...chords.map((c) => c.column)), ' ')
  for (const { column, chord } of chords) {
    out += padded.slice(at, column) + `[${chord}]`
    at = column
  }
  return (out + padded.slice(at)).replace(/\s+$/, '')
}

/** Tab characters to spaces at 8-column stops, as a browser shows pasted text. */
function expandTabs (line: string): string {
  let out = ''
  for (const c of line) out += c === '\t' ? ' '.repeat(TAB_STOP - (out.length % TAB_STOP)) : c
  return out
}

const SECTION_OF: Record<string, string> = { chorus: 'chorus', refrain: 'chorus', bridge: 'bridge' }

/** Whether a line holds ChordPro already: a `[C]` touching a word, or a directive line. */
const looksLikeChordPro = (line: string) => /\[[^\]\s]+\]\S|^\s*\{.*\}\s*$/.test(line)

/**
 * Converts chords-over-lyrics text to ChordPro, with what the reader should check; ChordPro
 * input and text without a chord line come back unchanged.
 */
export function convertChordsOverLyrics (source: string, notation: ChordNotation):
{ chart: string; warnings: ConvertWarning[] } {
  const warnings: ConvertWarning[] = []
  const raw = source.split(/\r\n|\r|\n/)
  if (raw.some(looksLikeChordPro)) {
    const message = 'the text is ChordPro already: left as it is'
    return { chart: source, warnings: [{ line: 0, code: 'already_chordpro', message }] }
  }
  const tabbed = raw.findIndex((l) => l.includes('\t'))
  if (tabbed >= 0) {
    warnings.push({
      line: tabbed + 1,
      code: 'tab_characters',
      message: 'tab characters read as stops every 8 columns: check the chords over that line'
    })
  }
  const lines = raw.map(expandTabs)
  const out: string[] = []
  let open: string | null = null
  let openAt = -1
  let label = ''
  let inTab = false
  let converted = false
  const close = () => {
    if (open) out.push(`{end_of_${open}}`)
    open = null
  }
  const closeTab = () => {
    if (inTab) out.push('{end_of_tab}')
    inTab = false
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (TAB_STAFF.test(line) && /-{3}/.test(line)) {
      if (!inTab && open && openAt === out.length - 1) {
        // A heading right above tablature names the tab ("Solo", "Intro").
        out[openAt] = `{start_of_tab: ${label}}`
        open = null
      } else if (!inTab) {
        close()
        out.push('{start_of_tab}')
      }
      inTab = true
      out.push(line.replace(/\s+$/, ''))
      continue
    }
    closeTab()
    const heading = HEADING.exec(line)
    const chordLine = isChordLine(line, notation)
    if (heading && !chordLine) {
      close()
      open = SECTION_OF[heading[2]!.toLowerCase()] ?? 'verse'
      label = heading[1]!.trim()
      openAt = out.length
      out.push(`{start_of_${open}: ${label}}`)
    } else if (chordLine) {
      converted = true
      const next = lines[i + 1]
      const nextIsLyric = next !== undefined && next.trim() !== '' &&
        !isChordLine(next, notation) && !HEADING.test(next) && !TAB_STAFF.test(next)
      out.push(merge(line, nextIsLyric ? next : ''))
      if (nextIsLyric) i++
    } else if (line.trim() === '') {
      close()
      out.push('')
    } else {
      const tokens = tokensOf(line)
      const unknown = tokens.filter((t) => !MARK.test(t) && !isChord(t, notation))
      if (tokens.length >= 2 && unknown.length > 0 && unknown.length * 4 <= tokens.length) {
        warnings.push({
          line: i + 1,
          code: 'not_a_chord',
          message: `"${unknown[0]!.slice(0, 20)}" is no chord: the line was kept as lyrics`
        })
      }
      out.push(line.replace(/\s+$/, ''))
    }
  }
  closeTab()
  close()
  if (!converted) {
    const message = 'no line of chords found: left as it is'
    return { chart: source, warnings: [{ line: 0, code: 'no_chord_lines', message }] }
  }
  return { chart: out.join('\n'), warnings }
}

/** Converts chords-over-lyrics text to ChordPro; ChordPro input comes back unchanged. */
export function chordsOverLyricsToChordPro (source: string, notation: ChordNotation): string {
  return convertChordsOverLyrics(source, notation).chart
}

/** Whether pasted text is worth offering a conversion: a chord line above a lyric line. */
export function looksLikeChordsOverLyrics (text: string, notation: ChordNotation): boolean {
  const lines = text.split(/\r\n|\r|\n/)
  if (lines.some(looksLikeChordPro)) return false
  return lines.some((l, i) => isChordLine(l, notation) && (lines[i + 1] ?? '').trim() !== '' &&
    !isChordLine(lines[i + 1]!, notation))
}
