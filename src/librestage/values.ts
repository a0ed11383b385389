import type {
  AnswerValue,
  AvailabilityStatus,
  GigStatus,
  Role,
  SongStatus,
  UserStatus,
  VoteValue
} from '#shared/enums.js'
import type { SourceValue } from './source.js'

// Pure translations of libreStage's values into Bandstand's. Each returns `undefined` for a value
// it does not know, so that the caller reports it (and decides the fallback) instead of guessing
// silently.

/** Python's str(None) and SQLAlchemy's empty values: stored as text, they mean "nothing". */
const EMPTY = new Set(['', 'none', 'null', 'nan', 'undefined'])

// Control characters other than tab and line feed would end up in PDFs, spreadsheets and calendar
// files (the API refuses them in bodies).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g

/** Text with line ends normalised, control characters removed, trimmed; null when empty. */
export function cleanText (value: SourceValue | undefined): string | null {
  if (value === null || value === undefined) return null
  const text = (Buffer.isBuffer(value) ? value.toString('utf8') : String(value))
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .trim()
  return EMPTY.has(text.toLowerCase()) ? null : text
}

/** Cuts text to `max` characters (whole code points), marking the cut with an ellipsis. */
export function shorten (text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…'
}

/** SQLAlchemy booleans are 0/1; older rows may hold text. */
export function flag (value: SourceValue | undefined): boolean {
  if (value === null || value === undefined) return false
  const text = String(value).trim().toLowerCase()
  return !['', '0', 'false', 'f', 'no', 'nein', 'none'].includes(text)
}

const pad = (n: number) => String(n).padStart(2, '0')

/** `HH:MM[:SS[.ffffff]]` (libreStage TIME) → `HH:MM`; null for empty, undefined if unreadable. */
export function parseTime (value: SourceValue | undefined): string | null | undefined {
  const text = cleanText(value)
  if (text === null) return null
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text)
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return undefined
  return `${pad(Number(m[1]))}:${m[2]}`
}

/**
 * A duration stored as TIME (`00:03:45`) → seconds; null for empty or zero. Two parts are read as
 * `MM:SS` (a song typed by hand) unless `twoParts` says `HH:MM` (a break).
 */
export function parseDuration (
  value: SourceValue | undefined,
  twoParts: 'MM:SS' | 'HH:MM' = 'MM:SS'
): number | null | undefined {
  const text = cleanText(value)
  if (text === null) return null
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(text)
  if (!m || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return undefined
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]
  const seconds =
    m[3] === undefined && twoParts === 'MM:SS' ? a * 60 + b : a * 3600 + b * 60 + c
  return seconds === 0 ? null : seconds
}

const validDate = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/**
 * A DATETIME (`2026-06-13 19:30:00[.ffffff]`, also with `T`, or German `13.06.2026 19:30`) → date
 * and wall-clock time; `time` is null when the value is a bare date. libreStage stores naive
 * date-times: event times are the band's local times.
 */
export function parseDateTime (
  value: SourceValue | undefined
): { date: string; time: string | null } | null | undefined {
  const text = cleanText(value)
  if (text === null) return null
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(?:Z|[+-]00:?00)?$/
    .exec(text)
  const german = /^(?:[A-Za-zÄÖÜäöü]{2,3}\.?,? )?(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,? (\d{1,2}):(\d{2})(?::(\d{2}))?(?: Uhr)?)?$/
    .exec(text)
  const parts = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]]
    : german
      ? [german[3], german[2], german[1], german[4], german[5], german[6]]
      : undefined
  if (!parts) return undefined
  const [y, mo, d, h, mi, s] = parts.map((p) => (p === undefined ? undefined : Number(p)))
  if (!validDate(y!, mo!, d!)) return undefined
  if (h !== undefined && (h > 23 || mi! > 59 || (s ?? 0) > 59)) return undefined
  return {
    date: `${y}-${pad(mo!)}-${pad(d!)}`,
    time: h === undefined ? null : `${pad(h)}:${pad(mi!)}`
  }
}

/**
 * A bookkeeping stamp (when a vote or answer was given) → RFC 3339 UTC, as Bandstand stores
 * instants. SQLAlchemy writes `datetime.utcnow()` for these, so naive values are read as UTC.
 */
export function toInstant (value: SourceValue | undefined): string | null {
  const text = cleanText(value)
  if (text === null) return null
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?/.exec(text)
  const date = m ? new Date(`${m[1]}T${m[2]}Z`) : new Date(`${text}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/**
 * A free-text list of people (`Lennon/McCartney`, `Benny Andersson, Björn Ulvaeus`,
 * `Rodgers & Hammerstein`, `Text: trad. und Hans Meier`) → names. libreStage had one text field
 * per role, so a comma separates people here, never surname and first name.
 */
export function splitNames (value: SourceValue | undefined): string[] {
  const text = cleanText(value)
  if (text === null) return []
  const names = text
    .split(/\s*(?:[,;/&+\n]|\bund\b|\band\b|\bu\.)\s*/i)
    .map((name) => name.trim())
    .filter((name) => name !== '' && !EMPTY.has(name.toLowerCase()))
  const seen = new Set<string>()
  return names.filter((name) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
}

/**
 * A translation written as Bandstand's value → the spellings libreStage bands used for it (lower
 * case, blanks and underscores as one space). Read case-insensitively; an unknown spelling is
 * undefined. A spelling listed under two values is a mistake in the table: it fails at load.
 */
const lookup = <T extends string>(aliases: Record<T, readonly string[]>) => {
  const table = new Map<string, T>()
  for (const [target, spellings] of Object.entries(aliases) as [T, readonly string[]][]) {
    for (const spelling of spellings) {
      if (table.has(spelling)) throw new Error(`libreStage alias "${spelling}" listed twice`)
      table.set(spelling, target)
    }
  }
  return (value: SourceValue | undefined): T | undefined => {
    const key = cleanText(value)?.toLowerCase().replace(/[\s_]+/g, ' ')
    return key === undefined ? undefined : table.get(key)
  }
}

export const mapSongStatus = lookup<SongStatus>({
  proposed: ['vorschlag', 'vorgeschlagen', 'proposed'],
  accepted: ['angenommen', 'accepted'],
  rehearsing: ['proben', 'probe', 'in probe', 'rehearsing'],
  ready: ['spielbar', 'bereit', 'ready'],
  retired: ['retired', 'archiviert', 'abgelegt', 'ausgemustert', 'abgelehnt']
})

export const mapGigStatus = lookup<GigStatus>({
  inquiry: ['anfrage', 'angefragt', 'option', 'inquiry'],
  confirmed: ['zugesagt', 'bestätigt', 'bestaetigt', 'fix', 'gebucht', 'angenommen', 'gespielt',
    'confirmed'],
  declined: ['abgelehnt', 'declined'],
  cancelled: ['abgesagt', 'storniert', 'ausgefallen', 'cancelled', 'canceled']
})

export const mapRole = lookup<Role>({
  admin: ['admin', 'administrator'],
  editor: ['editor', 'bandleader', 'leader', 'leitung', 'manager', 'moderator'],
  member: ['user', 'member', 'mitglied', 'musiker', 'musician', 'guest', 'gast']
})

export const mapUserStatus = lookup<UserStatus>({
  active: ['active', 'aktiv'],
  inactive: ['inactive', 'inaktiv', 'deactivated', 'deaktiviert', 'disabled', 'deleted', 'gelöscht']
})

export const mapAvailability = lookup<AvailabilityStatus>({
  yes: ['yes', 'ja', 'zugesagt', 'zusage', 'available', 'verfügbar', 'kann', 'dabei', 'true', '1'],
  no: ['no', 'nein', 'abgesagt', 'absage', 'unavailable', 'nicht verfügbar', 'kann nicht', 'false',
    '0'],
  maybe: ['maybe', 'vielleicht', 'unsicher', 'unklar', 'evtl', 'evtl.']
})

// libreStage's web app writes a song vote as `a` (yes), `na` (no) or `o` (abstain); its demo
// script and older rows hold words.
export const mapVote = lookup<VoteValue>({
  yes: ['a', 'yes', 'ja', 'dafür', 'dafuer', '+1', '1', '👍', 'like', 'gut'],
  no: ['na', 'no', 'nein', 'dagegen', '-1', '👎', 'dislike'],
  abstain: ['o', 'abstain', 'enthaltung', 'egal', 'neutral', '0', 'vielleicht', 'maybe']
})

// libreStage's date polls store `a` (yes), `m` (maybe), `o` (no: unlike a song vote's `o`); its
// opinion polls `a` for a chosen option (`o`, `na`: not chosen). Words as its demo script writes.
export const mapAnswer = lookup<AnswerValue>({
  yes: ['a', 'yes', 'ja', 'x', '1', 'true', 'kann'],
  maybe: ['m', 'maybe', 'vielleicht', '?', 'evtl', 'evtl.', 'unsicher'],
  no: ['o', 'na', 'no', 'nein', '0', 'false', 'kann nicht']
})

/** Availability answers are kept for gigs and rehearsals. */
export const mapEventType = lookup<'gig' | 'rehearsal'>({
  gig: ['gig', 'gigs', 'auftritt'],
  rehearsal: ['rehearsal', 'probe']
})

/** libreStage's live rating of a played song: Bandstand keeps 1–3 (ok, good, great). */
export function mapRating (value: SourceValue | undefined): number | null | undefined {
  if (value === null || value === undefined) return null
  const n = Number(value)
  if (n === 0) return null
  return Number.isInteger(n) && n >= 1 && n <= 3 ? n : undefined
}

/** http(s) URLs in a free-text link field; the rest is returned for the notes. */
export function parseLinks (value: SourceValue | undefined): { links: string[]; rest: string[] } {
  const text = cleanText(value)
  if (text === null) return { links: [], rest: [] }
  const links: string[] = []
  const rest: string[] = []
  for (const part of text.split(/[\s,;]+/).filter(Boolean)) {
    if (EMPTY.has(part.toLowerCase())) continue
    if (/^https?:\/\/\S+$/i.test(part) && part.length <= 500) links.push(part)
    else if (/^(www\.|youtu\.be\/|(m\.)?youtube\.com\/)\S+$/i.test(part) && part.length <= 492) {
      links.push(`https://${part}`)
    } else rest.push(part)
  }
  return { links: [...new Set(links)], rest }
}

const TRANSLITERATION: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue'
}

/**
 * A Bandstand username (3–40 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit) from a
 * libreStage one: umlauts transliterated, other characters replaced by dots; `taken` (lower case)
 * is respected by appending -2, -3, ….
 */
export function makeUsername (raw: string, fallback: string, taken: Set<string>): string {
  const ascii = raw
    .replace(/[äöüßÄÖÜ]/g, (c) => TRANSLITERATION[c]!)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[._-]+$/, '')
    .slice(0, 36)
  const base = ascii.length >= 3 ? ascii : fallback
  let name = base
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`
  taken.add(name.toLowerCase())
  return name
}

/** What Bandstand's API accepts as an e-mail address (the `email` format, at most 254). */
export function cleanEmail (value: SourceValue | undefined): string | null | undefined {
  const text = cleanText(value)
  if (text === null) return null
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) && text.length <= 254 ? text : undefined
}
