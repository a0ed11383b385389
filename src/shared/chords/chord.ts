// Chord symbols: parsing the root and bass note, transposing, spelling in English or German.
// Shared by the server (songbook PDF) and the web app (stage view): no Node or Fastify imports.
// Relative: the web app bundles src/shared through $shared and knows no #src alias.
// eslint-disable-next-line no-restricted-imports
import { parseKey as parseMusicalKey, tonicPitch } from '../keys.js'

/** How the band writes note names: English (B, Bb) or German (H = B natural, B = B flat). */
export type ChordNotation = 'english' | 'german'
export const CHORD_NOTATIONS = ['english', 'german'] as const

export interface ParsedChord {
  /** Pitch class of the root, 0 = C … 11 = B (H). */
  root: number
  /** Everything between the root and the bass: "m7", "sus4", "add9", "dim", "maj7(#11)" … */
  quality: string
  /** Pitch class of the bass note of a slash chord. */
  bass: number | null
}

const LETTER: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }
const SHARP_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B']
const FLAT_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B']

// A note: letter, then an optional accidental (also the Unicode signs).
const NOTE = '([A-H])(#|b|♯|♭|is|es|s)?'

function pitch (letter: string, accidental: string | undefined, notation: ChordNotation):
number | null {
  let base: number
  if (letter === 'H') {
    // H is B natural in German notation; an English chart has no H.
    if (notation !== 'german') return null
    base = 11
  } else if (letter === 'B' && notation === 'german') {
    // German B is B flat; "Bb" written by a German band means the same.
    return 10
  } else {
    base = LETTER[letter] ?? -1
    if (base < 0) return null
  }
  // German spelled names ("Fis", "Es", "As") are read in German notation only.
  const germanSpelled = accidental === 'is' || accidental === 'es' || accidental === 's'
  if (germanSpelled && notation !== 'german') return null
  if (accidental === 's' && letter !== 'E' && letter !== 'A') return null
  const sharp = accidental === '#' || accidental === '♯' || accidental === 'is'
  const shift = sharp ? 1 : accidental ? -1 : 0
  return (base + shift + 12) % 12
}

// What may follow the root: the common qualities and extensions, so that words in brackets
// ("[Bridge]", "[Chorus]") are not taken for chords. One pattern, so that "Esus4" backtracks
// from the German "Es" to E + sus4.
const QUALITY = '(?:maj|min|m|M|dim|aug|sus|add|no|alt|o|ø|°|\\+|-|Δ|\\d|\\(|\\)|#|b|♯|♭|,)*'
const CHORD_RE = new RegExp(`^${NOTE}(${QUALITY})(?:/${NOTE})?$`)

/** Parses a chord symbol; null when it is none (then it is shown but never transposed). */
export function parseChord (symbol: string, notation: ChordNotation): ParsedChord | null {
  const match = CHORD_RE.exec(symbol.trim())
  if (!match) return null
  const [, letter = '', accidental, quality = '', bassLetter, bassAccidental] = match
  const root = pitch(letter, accidental, notation)
  if (root === null) return null
  let bass: number | null = null
  if (bassLetter) {
    bass = pitch(bassLetter, bassAccidental, notation)
    if (bass === null) return null
  }
  return { root, quality, bass }
}

/** A note name in the band's notation; flats or sharps as the key asks. */
export function noteName (pc: number, notation: ChordNotation, flats: boolean): string {
  const name = (flats ? FLAT_NAMES : SHARP_NAMES)[((pc % 12) + 12) % 12] ?? 'C'
  if (notation !== 'german') return name
  if (name === 'B') return 'H'
  if (name === 'Bb') return 'B'
  return name
}

/** Keys whose scale is written with flats (major roots; a minor key uses its relative major). */
// F sharp rather than G flat: the spelling chord charts mostly use.
const FLAT_MAJOR_KEYS = new Set([5, 10, 3, 8, 1])

/** Whether chords in a key (its root pitch class, minor or not) are spelled with flats. */
export function keyUsesFlats (root: number, minor: boolean): boolean {
  return FLAT_MAJOR_KEYS.has(minor ? (root + 3) % 12 : root)
}

export interface TransposeOptions {
  /** How the chord is read. */
  notation: ChordNotation
  /** How the moved chord is written; default: as it is read. */
  write?: ChordNotation
  /** Spell with flats (true) or sharps (false); default: as the original chord was written. */
  flats?: boolean
}

/** Whether a chord's root is written flat ("Bb", "E♭", German "Es", "B"). */
function writtenFlat (symbol: string, notation: ChordNotation): boolean {
  const [, letter, accidental] = CHORD_RE.exec(symbol.trim()) ?? []
  if (accidental) return /^(b|♭|es|s)$/.test(accidental)
  return notation === 'german' && letter === 'B'
}

/** Transposes one chord symbol; anything that is not a chord comes back unchanged. */
export function transposeChord (symbol: string, semitones: number, options: TransposeOptions):
string {
  const chord = parseChord(symbol, options.notation)
  if (!chord) return symbol
  const steps = ((Math.trunc(semitones) % 12) + 12) % 12
  const write = options.write ?? options.notation
  // Unchanged chords keep their spelling (a German "B" stays "B", "Bb" stays as written).
  if (steps === 0 && options.flats === undefined && write === options.notation) return symbol
  const flats = options.flats ?? writtenFlat(symbol, options.notation)
  const name = (pc: number) => noteName(pc + steps, write, flats)
  const bass = chord.bass === null ? '' : `/${name(chord.bass)}`
  return `${name(chord.root)}${chord.quality}${bass}`
}

/**
 * A key as the band writes it ("C-Dur", "a-Moll", "F#m", "Bb"): root and minor, or null. Read by
 * the one key parser of src/shared/keys.ts.
 */
export function parseKey (key: string, notation: ChordNotation):
{ root: number; minor: boolean } | null {
  const parsed = parseMusicalKey(key, notation)
  return parsed ? { root: tonicPitch(parsed.tonic), minor: parsed.mode === 'minor' } : null
}

const GERMAN_NAMES_SHARP =
  ['C', 'Cis', 'D', 'Dis', 'E', 'F', 'Fis', 'G', 'Gis', 'A', 'Ais', 'H']
const GERMAN_NAMES_FLAT = ['C', 'Des', 'D', 'Es', 'E', 'F', 'Ges', 'G', 'As', 'A', 'B', 'H']

/**
 * A key label moved by some semitones, in the form it was written: "C-Dur" + 2 → "D-Dur",
 * "a-Moll" + 2 → "h-Moll", "Bb" + 2 → "C". Unknown labels come back unchanged.
 */
export function transposeKey (
  key: string,
  semitones: number,
  notation: ChordNotation,
  write: ChordNotation = notation
): string {
  const parsed = parseKey(key, notation)
  if (!parsed || (semitones % 12 === 0 && write === notation)) return key
  const root = (((parsed.root + semitones) % 12) + 12) % 12
  // Unmoved (only written in the band's notation): flats or sharps as written.
  const flats = semitones % 12 === 0 ? undefined : keyUsesFlats(root, parsed.minor)
  if (/(Dur|Moll)$/.test(key.trim())) {
    if (flats === undefined) return key
    const name = (flats ? GERMAN_NAMES_FLAT : GERMAN_NAMES_SHARP)[root] ?? 'C'
    return parsed.minor ? `${name.toLowerCase()}-Moll` : `${name}-Dur`
  }
  return transposeChord(key.trim(), semitones, { notation, write, flats })
}

/** How a chart's chords are read, and how they are written out (the band's notation). */
export interface Notations {
  read: ChordNotation
  write: ChordNotation
}

// A chord in brackets, and a `{key}` directive: what chartNotations looks at.
const BRACKETED = /\[([^\]\r\n*][^\]\r\n]*)\]|\{\s*key\s*:\s*([^}\r\n]*)\}/gi

/**
 * The notation a chart is written in, from its source: its own H (or a German name: Fis, Es, As)
 * means German; a B♭ written "Bb" (with no H) means English; else the band's notation.
 * The chords are written out in the band's notation either way.
 */
export function chartNotations (source: string, band: ChordNotation): Notations {
  let english = false
  for (const [, chord, key] of source.matchAll(BRACKETED)) {
    const match = CHORD_RE.exec((chord ?? key ?? '').trim().replace(/\s*-?\s*(Dur|Moll)$/i, ''))
    if (!match) continue
    for (const [letter, accidental] of [[match[1], match[2]], [match[4], match[5]]]) {
      if (letter === 'H' || (accidental && /^(is|es|s)$/.test(accidental))) {
        return { read: 'german', write: band }
      }
      if (letter === 'B' && (accidental === 'b' || accidental === '♭')) english = true
    }
  }
  return { read: english ? 'english' : band, write: band }
}
