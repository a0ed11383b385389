import { parseChordPro, type ChordNotation } from '#shared/chords/index.js'
import {
  convertChordsOverLyrics, looksLikeChordsOverLyrics
} from '#shared/chords/chords-over-lyrics.js'
import { keyString, parseKey } from '#shared/keys.js'
import { SONG_LIMITS } from '#shared/limits.js'
import type { Refusal } from './zip-read.js'

// One uploaded chart file read as text and made into songs: its encoding guessed, chords over
// lyrics converted, a file of several songs ({new_song}) split, the song's fields read from its
// directives (docs/importing.md → Moving in with a songbook).

/** The file types a songbook holds. */
export const CHART_EXTENSIONS = ['.cho', '.chopro', '.chordpro', '.crd', '.pro', '.txt']
const ARCHIVES = ['.zip', '.rar', '.7z', '.tar', '.gz', '.tgz', '.bz2', '.xz']

export interface ImportedChart {
  file: string
  chart: string
  title: string
  artist: string | null
  key: string | null
  tempoBpm: number | null
  durationSeconds: number | null
}

export const extensionOf = (name: string): string => {
  const base = name.slice(name.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  return dot <= 0 ? '' : base.slice(dot).toLowerCase()
}

/** Why a file is no chart by its name; null when it may be one. */
export function refusalByName (name: string): Refusal | null {
  const ext = extensionOf(name)
  if (ARCHIVES.includes(ext)) {
    return { reason: 'nested_archive', message: 'an archive inside an archive is not opened' }
  }
  if (CHART_EXTENSIONS.includes(ext)) return null
  return {
    reason: 'unsupported_type',
    message: `not a chart file (${CHART_EXTENSIONS.join(', ')} or .zip)`
  }
}

/** What a file system or an archiver adds beside the files: passed over without a word. */
export const isClutter = (name: string): boolean =>
  /(^|\/)__MACOSX\//.test(name) || /(^|\/)(\._[^/]*|\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(name)

// C0 controls but tab, line feed and carriage return; C1 controls; bidi overrides and isolates:
// what the API refuses in any text (INVALID_TEXT), and what binary files are full of.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/

/**
 * The file's text: UTF-8 (a byte order mark dropped), UTF-16 with its mark, else Windows-1252
 * (which Latin-1 files are too). A refusal when it is empty or not text.
 */
export function decodeText (bytes: Uint8Array): string | Refusal {
  let text: string
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes)
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes)
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes)
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (CONTROL.test(text) || text.includes('\uFFFD')) {
    return { reason: 'binary', message: 'not a text file (it holds control characters)' }
  }
  if (text.trim() === '') return { reason: 'empty', message: 'the file holds no text' }
  return text
}

const NEW_SONG = /^[ \t]*\{[ \t]*(?:new_song|ns)[ \t]*\}[ \t]*$/im

/** "3:05", "1:02:30" or seconds; null when unreadable or out of the song's range. */
function durationOf (text: string | null): number | null {
  if (!text || !/^\d+(?::\d{1,2}){0,2}$/.test(text.trim())) return null
  const seconds = text.trim().split(':').reduce((sum, part) => sum * 60 + Number(part), 0)
  return seconds >= 1 && seconds <= 7200 ? seconds : null
}

const cut = (text: string, max: number) => [...text].slice(0, max).join('').trim()

/** The songs of one file (more than one when it holds `{new_song}`), named `file` in the report. */
export function chartsOfText (file: string, text: string, notation: ChordNotation):
ImportedChart[] {
  const source = looksLikeChordsOverLyrics(text, notation)
    ? convertChordsOverLyrics(text, notation).chart
    : text
  const parts = source.split(NEW_SONG).filter((part) => part.trim() !== '')
  const base = file.slice(file.lastIndexOf('/') + 1)
  const fallback = cut(base.slice(0, base.length - extensionOf(base).length), SONG_LIMITS.title)
  return parts.map((chart, index) => {
    const { meta } = parseChordPro(chart, { notation })
    const key = meta.key ? parseKey(meta.key, notation) : null
    const title = cut(meta.title ?? '', SONG_LIMITS.title)
    return {
      file: parts.length > 1 ? `${file} (song ${index + 1})` : file,
      chart,
      title: title || fallback || 'Untitled',
      artist: cut(meta.artist ?? '', SONG_LIMITS.artist) || null,
      key: key ? keyString(key) : null,
      tempoBpm: meta.tempo !== null && meta.tempo >= 20 && meta.tempo <= 400 ? meta.tempo : null,
      durationSeconds: durationOf(meta.duration)
    }
  })
}
