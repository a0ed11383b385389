import { parseChord, type ChordNotation } from './chord.js'

// "Chords over lyrics" (as copied from chord websites): a line of chords above the lyric line it
// belongs to. Converted to ChordPro by putting each chord in brackets at its column.

const SECTION = /^\s*\[?\s*(verse|strophe|chorus|refrain|bridge|intro|outro|pre-?chorus|solo|interlude)\b[^\]]*\]?\s*:?\s*$/i

/** A line made only of chords (and bar lines, "N.C.", repeat marks). */
export function isChordLine (line: string, notation: ChordNotation): boolean {
  const tokens = line.trim().split(/\s+/).filter((t) => !/^(\||\/|-|x\d+|\(x?\d+x?\)|N\.?C\.?)$/i.test(t))
  if (tokens.length === 0) return false
  // Both notations are tried: a pasted English chart in a German band still converts.
  return tokens.every((t) => parseChord(t, notation) !== null || parseChord(t, 'english') !== null)
}

/** Puts chords at their columns into a lyric line: `[G]Amazing [C]grace`. */
function merge (chordLine: string, lyric: string): string {
  const chords: { column: number; chord: string }[] = []
  for (const match of chordLine.matchAll(/\S+/g)) {
    chords.push({ column: match.index ?? 0, chord: match[0] })
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

/** Converts chords-over-lyrics text to ChordPro; ChordPro input comes back unchanged. */
export function chordsOverLyricsToChordPro (source: string, notation: ChordNotation): string {
  const lines = source.replace(/\t/g, '    ').split(/\r\n|\r|\n/)
  if (lines.some((l) => /\[[^\]]+\]\S|^\s*\{.*\}\s*$/.test(l))) return source
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const section = SECTION.exec(line)
    if (section && !isChordLine(line, notation)) {
      out.push(`{comment: ${line.trim().replace(/^\[|\]$|:$/g, '').trim()}}`)
    } else if (isChordLine(line, notation)) {
      const next = lines[i + 1]
      const nextIsLyric = next !== undefined && next.trim() !== '' &&
        !isChordLine(next, notation) && !SECTION.test(next)
      if (nextIsLyric) {
        out.push(merge(line, next))
        i++
      } else {
        out.push(line.trim().split(/\s+/).map((c) => `[${c}]`).join(' '))
      }
    } else {
      out.push(line.replace(/\s+$/, ''))
    }
  }
  return out.join('\n')
}
