// The directives of the ChordPro reference (chordpro.org) by what the reader does with them.
import type { ChartMeta } from './chordpro.js'

export type SectionKind = 'verse' | 'chorus' | 'bridge' | 'tab' | 'plain'

export const ALIASES: Record<string, string> = {
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
  colb: 'column_break',
  ns: 'new_song',
  col: 'columns',
  g: 'grid',
  ng: 'no_grid',
  cf: 'chordfont',
  cs: 'chordsize',
  tf: 'textfont',
  ts: 'textsize'
}

export const STARTS: Record<string, SectionKind> = {
  start_of_chorus: 'chorus',
  start_of_verse: 'verse',
  start_of_bridge: 'bridge',
  start_of_tab: 'tab',
  start_of_grid: 'tab'
}

/** Environments handed to another program by ChordPro: never lyrics, a note where it helps. */
export const DELEGATES = { start_of_abc: 'abc', start_of_ly: 'ly', start_of_svg: 'svg' } as const
export type Delegate = (typeof DELEGATES)[keyof typeof DELEGATES]

export const PAGE_BREAKS = new Set(['new_page', 'pagebreak', 'new_physical_page'])

// Metadata the reader keeps to itself (a song's fields come from title, artist, key …).
export const QUIET_META = new Set([
  'sorttitle', 'sortartist', 'album', 'composer', 'lyricist', 'arranger', 'year', 'copyright', 'tag'
])

export const directiveName = (written: string): string =>
  ALIASES[written.toLowerCase()] ?? written.toLowerCase()

// What members call their instrument, as ChordPro's instrument types name it.
const INSTRUMENT_TYPES: Record<string, string[]> = {
  gitarre: ['guitar'],
  'e-gitarre': ['guitar'],
  'electric guitar': ['guitar'],
  'acoustic guitar': ['guitar'],
  akustikgitarre: ['guitar'],
  klavier: ['piano', 'keyboard'],
  piano: ['piano', 'keyboard'],
  keys: ['keyboard', 'piano'],
  keyboard: ['keyboard', 'piano'],
  keyboards: ['keyboard', 'piano'],
  'e-bass': ['bass'],
  'bass guitar': ['bass'],
  ukulele: ['ukulele'],
  uke: ['ukulele'],
  mandoline: ['mandolin']
}

/**
 * The selectors a member's chart follows (`{title-piano: …}`): their instruments, lower case, with
 * the ChordPro instrument type each stands for, and their user name.
 */
export function memberSelectors (instruments: readonly string[], username?: string): string[] {
  const out = new Set<string>()
  for (const written of instruments) {
    const name = written.trim().toLowerCase()
    if (name === '') continue
    out.add(name)
    for (const type of INSTRUMENT_TYPES[name] ?? []) out.add(type)
  }
  if (username) out.add(username.toLowerCase())
  return [...out]
}

/** ChordPro's rule: `-sel` applies when sel is the instrument or the user, `-sel!` when not. */
export function selected (selector: string, selectors: readonly string[]): boolean {
  const negated = selector.endsWith('!')
  const name = (negated ? selector.slice(0, -1) : selector).toLowerCase()
  return selectors.includes(name) !== negated
}

/** Stores a metadata directive; false when the name is none. */
export function setMeta (meta: ChartMeta, name: string, value: string): boolean {
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
    default:
      return false
  }
}
