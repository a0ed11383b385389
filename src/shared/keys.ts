// A song's key as music, not words: pitch class + mode, written once as a canonical
// string ("Bb" = B♭ major, "Gm" = G minor) and shown per language ("B♭ major" / "B-Dur",
// "Gm" / "g-Moll"). Shared by the server (API, PDFs, GEMA report, import, migration) and the web
// app (picker, live mode): no Node or Fastify imports. The API's schema of a key is in
// schemas/songs.ts.

/**
 * The tonics a key may have, spelled as in English chord symbols. Enharmonic twins (C#/Db …) are
 * both kept: the spelling says how the band reads the key (and whether charts use flats).
 */
export const TONICS = [
  'C', 'C#', 'Db', 'D', 'D#', 'Eb', 'E', 'F', 'F#', 'Gb', 'G', 'G#', 'Ab', 'A', 'A#', 'Bb', 'B'
] as const
export type Tonic = (typeof TONICS)[number]
export const KEY_MODES = ['major', 'minor'] as const
export type KeyMode = (typeof KEY_MODES)[number]

export interface MusicalKey {
  tonic: Tonic
  mode: KeyMode
}

/** Every canonical key: the majors ("C", "C#" …), then the minors ("Cm", "C#m" …). */
export const KEYS: readonly string[] = [
  ...TONICS.map((t) => t),
  ...TONICS.map((t) => `${t}m`)
]

const CANONICAL = new RegExp(`^(${TONICS.join('|')})(m?)$`)

/** The pattern of a canonical key string (the API's schema: schemas/songs.ts). */
export const KEY_PATTERN = CANONICAL.source

/** The canonical string of a key: "Bb", "Gm". */
export const keyString = (key: MusicalKey): string =>
  key.mode === 'minor' ? `${key.tonic}m` : key.tonic

/** A canonical key string read back; null for anything else (a legacy free-text value). */
export function canonicalKey (value: string | null | undefined): MusicalKey | null {
  const match = value ? CANONICAL.exec(value) : null
  if (!match) return null
  return { tonic: match[1] as Tonic, mode: match[2] ? 'minor' : 'major' }
}

const PITCH: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }

/** Pitch class of a tonic, 0 = C … 11 = B. */
export function tonicPitch (tonic: Tonic): number {
  const base = PITCH[tonic[0]!] ?? 0
  const shift = tonic[1] === '#' ? 1 : tonic[1] === 'b' ? -1 : 0
  return (base + shift + 12) % 12
}

// German note names: "is" raises, "es"/"s" lowers; H is B natural and B is B flat.
const GERMAN_TONIC: Record<string, Tonic> = {
  c: 'C',
  cis: 'C#',
  des: 'Db',
  d: 'D',
  dis: 'D#',
  es: 'Eb',
  e: 'E',
  f: 'F',
  fis: 'F#',
  ges: 'Gb',
  g: 'G',
  gis: 'G#',
  as: 'Ab',
  a: 'A',
  ais: 'A#',
  b: 'Bb',
  h: 'B'
}
const TONIC_BY_NAME = new Map<string, Tonic>(TONICS.map((t) => [t.toLowerCase(), t]))

const MAJOR_WORDS = new Set(['', 'dur', 'major', 'maj', 'M'])
const MINOR_WORDS = new Set(['m', 'moll', 'minor', 'min'])

/** How a bare letter B (no "Dur"/"Moll") is read: German B is B♭, English B is B. */
export type KeyNotation = 'english' | 'german'

/**
 * Reads a key as people write it: canonical ("Bb", "Gm"), English ("B♭ major", "G minor", "F#m",
 * "Ebm"), German ("B-Dur" = B♭ major, "H-Dur", "Es", "fis-Moll", "a-moll"; a lower-case German
 * name alone is minor). A bare "B"/"Bm" follows `notation` (default English); "B-Dur" and
 * "b-Moll" are German words and always B♭. Null when it is no key.
 */
export function parseKey (text: string, notation: KeyNotation = 'english'): MusicalKey | null {
  const trimmed = text.trim().replace(/♭/g, 'b').replace(/♯/g, '#')
  const exact = canonicalKey(trimmed)
  if (exact && !(notation === 'german' && exact.tonic === 'B')) return exact
  const match = /^([A-Ha-h])(is|es|s|#|b)?\s*-?\s*(dur|moll|major|minor|maj|min|m)?\.?$/i
    .exec(trimmed)
  if (!match) return null
  const [, letter = '', accidental = '', rawMode = ''] = match
  const mode = rawMode === 'M' ? 'M' : rawMode.toLowerCase()
  const germanWord = mode === 'dur' || mode === 'moll'
  const germanSpelled = /^(is|es|s)$/i.test(accidental)
  const lower = letter === letter.toLowerCase()
  let tonic: Tonic | undefined
  if (germanSpelled || letter.toLowerCase() === 'h' ||
      (letter.toLowerCase() === 'b' && !accidental && (germanWord || notation === 'german'))) {
    // German names: "Es", "As" (the short "s" only after a vowel), "Fis", "H", "B".
    const name = letter.toLowerCase() + accidental.toLowerCase()
    if (accidental.toLowerCase() === 's' && !/^[ea]s$/.test(name)) return null
    tonic = GERMAN_TONIC[name]
    if (!tonic && accidental) return null
  } else {
    tonic = TONIC_BY_NAME.get(letter.toLowerCase() + accidental.toLowerCase())
  }
  if (!tonic) return null
  let minor: boolean
  if (MINOR_WORDS.has(mode)) minor = true
  else if (MAJOR_WORDS.has(mode)) {
    // German custom: a lower-case name alone ("a", "fis", "h") is minor.
    minor = mode === '' && lower && (notation === 'german' || germanSpelled ||
      letter.toLowerCase() === 'h')
  } else return null
  // "c-Dur" (lower case with Dur) is still major: the word wins over the letter's case.
  return { tonic, mode: minor ? 'minor' : 'major' }
}

/** The language a key is shown in: German, else English (as the web app and the documents). */
export type KeyLanguage = 'de' | 'en'

const GERMAN_NAME: Record<Tonic, string> = {
  C: 'C',
  'C#': 'Cis',
  Db: 'Des',
  D: 'D',
  'D#': 'Dis',
  Eb: 'Es',
  E: 'E',
  F: 'F',
  'F#': 'Fis',
  Gb: 'Ges',
  G: 'G',
  'G#': 'Gis',
  Ab: 'As',
  A: 'A',
  'A#': 'Ais',
  Bb: 'B',
  B: 'H'
}

/** Music signs (♭ ♯) for screens; ASCII (b #) for PDFs, whose font has no music signs. */
export type KeySigns = 'music' | 'ascii'

const englishTonic = (tonic: Tonic, signs: KeySigns) =>
  signs === 'ascii' ? tonic : tonic.replace('#', '♯').replace(/(?<=.)b/, '♭')

/** A tonic as a reader of `language` names it: "B♭" / "B", "B" / "H", "F♯" / "Fis". */
export const tonicName = (tonic: Tonic, language: KeyLanguage): string =>
  language === 'de' ? GERMAN_NAME[tonic] : englishTonic(tonic, 'music')

/**
 * A key as a reader of `language` writes it. English long: "B♭ major", "G minor"; English short
 * (tight columns, live mode): "B♭", "Gm". German, both: "B-Dur", "g-Moll".
 */
export function formatKey (
  key: MusicalKey,
  language: KeyLanguage,
  style: 'long' | 'short' = 'long',
  signs: KeySigns = 'music'
): string {
  if (language === 'de') {
    const name = GERMAN_NAME[key.tonic]
    return key.mode === 'minor' ? `${name.toLowerCase()}-Moll` : `${name}-Dur`
  }
  const tonic = englishTonic(key.tonic, signs)
  if (style === 'short') return key.mode === 'minor' ? `${tonic}m` : tonic
  return `${tonic} ${key.mode}`
}

/**
 * A stored key for display: a canonical key in the reader's language; a legacy value that could
 * not be read is shown as it was written; null stays null.
 */
export function showKey (
  stored: string | null | undefined,
  language: KeyLanguage,
  style: 'long' | 'short' = 'long',
  signs: KeySigns = 'music'
): string | null {
  if (!stored) return null
  const key = canonicalKey(stored)
  return key ? formatKey(key, language, style, signs) : stored
}

// Major keys written with flats (F, B♭, E♭, A♭, D♭, G♭); a minor key uses its relative major.
const FLAT_MAJORS = new Set([5, 10, 3, 8, 1, 6])
const SHARP_SPELLING: Tonic[] =
  ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B']
const FLAT_SPELLING: Tonic[] =
  ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B']

/** Whether music in a key is spelled with flats (F major, D minor, B♭ …). */
export function usesFlats (key: MusicalKey): boolean {
  const pc = tonicPitch(key.tonic)
  const major = key.mode === 'minor' ? (pc + 3) % 12 : pc
  // G♭ major / E♭ minor are written with flats, F♯ major / D♯ minor with sharps: as spelled.
  if (major === 6) return key.tonic.endsWith('b')
  return FLAT_MAJORS.has(major)
}

/**
 * The key moved by some semitones, spelled as that key is usually written: B♭ + 2 → C,
 * C + 1 → D♭, Gm + 1 → G♯m, F + 1 → F♯ (rather than G♭: the spelling charts mostly use).
 */
export function transposeKey (key: MusicalKey, semitones: number): MusicalKey {
  const steps = ((Math.trunc(semitones) % 12) + 12) % 12
  if (steps === 0) return key
  const pc = (tonicPitch(key.tonic) + steps) % 12
  const sharp = { tonic: SHARP_SPELLING[pc]!, mode: key.mode }
  const flat = { tonic: FLAT_SPELLING[pc]!, mode: key.mode }
  if (sharp.tonic === flat.tonic) return sharp
  // Prefer the spelling whose scale fits; F♯/G♭ major and D♯/E♭ minor: the sharp one.
  const major = key.mode === 'minor' ? (pc + 3) % 12 : pc
  return major === 6 || !FLAT_MAJORS.has(major) ? sharp : flat
}

/**
 * A stored key as a gig plays it, moved by the entry's transposition: canonical, or an old key
 * that could not be read as written (never moved); null for none.
 */
export function playedKey (stored: string | null | undefined, semitones: number): string | null {
  const key = canonicalKey(stored)
  return key ? keyString(transposeKey(key, semitones)) : (stored ?? null)
}
