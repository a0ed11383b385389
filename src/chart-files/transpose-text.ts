import {
  chordMover, parseChordPro, transposeKey, type ChordNotation
} from '#shared/chords/index.js'
import type { MusicalKey } from '#shared/keys.js'

// A ChordPro file moved by some semitones with everything else kept as written: the chords in
// brackets and the `{key}` change, comments, layout and tablature stay byte for byte.

const CHORD = /\[(?!\*)([^\]]+)\]/g
const DIRECTIVE = /^\s*\{\s*([A-Za-z_]+)/
const KEY = /^(\s*\{\s*key\s*[:\s]\s*)([^}]*?)(\s*\}\s*)$/i
// Sections whose lines are not lyrics: tablature, grids, music for other programs, text blocks.
const VERBATIM = /^(start_of_|so)(tab|grid|abc|ly|svg|textblock|t|g)$/i

export function transposeChordProText (
  source: string,
  semitones: number,
  notation: ChordNotation,
  songKey: MusicalKey | null
): string {
  const move = chordMover(parseChordPro(source, { notation }), semitones, notation, songKey)
  if (!move) return source
  const steps = ((Math.trunc(semitones) % 12) + 12) % 12
  let verbatim = false
  return source.split(/(\r\n|\r|\n)/).map((line, i) => {
    // Odd parts are the line breaks, kept as they were.
    if (i % 2 === 1) return line
    const name = DIRECTIVE.exec(line)?.[1]
    if (name) {
      if (VERBATIM.test(name)) verbatim = true
      else if (/^(end_of_|eo)/i.test(name)) verbatim = false
      const key = KEY.exec(line)
      return key ? `${key[1]}${transposeKey(key[2]!, steps, notation)}${key[3]}` : line
    }
    if (verbatim || line.trimStart().startsWith('#')) return line
    return line.replace(CHORD, (_, chord: string) => `[${move(chord)}]`)
  }).join('')
}
