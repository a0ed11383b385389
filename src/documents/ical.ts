import type { GigRow, RehearsalRow } from '#src/db/schema.js'
import { joinPresent } from './format.js'
import {
  CALENDAR_LABELS,
  SCHEDULE_LABELS,
  STATUS_LABELS,
  type DocumentLanguage
} from './labels.js'
import { addSecondsLocal, endsNextDay, minutesOf, zonedToUtc } from '#shared/local-time.js'

// An iCalendar (RFC 5545) feed written by hand: the few properties needed, escaped and folded
// correctly. (The ics package folds by characters, which can split a multi-byte UTF-8 character
// across lines.)

export type CalendarGig = Pick<
  GigRow,
  | 'id'
  | 'name'
  | 'date'
  | 'kind'
  | 'status'
  | 'venueName'
  | 'venueAddress'
  | 'venueCity'
  | 'getInTime'
  | 'soundcheckTime'
  | 'doorsTime'
  | 'startTime'
  | 'endTime'
  | 'notes'
  | 'sequence'
  | 'updatedAt'
>
export type CalendarRehearsal = Pick<
  RehearsalRow,
  'id' | 'date' | 'startTime' | 'endTime' | 'location' | 'notes' | 'sequence' | 'updatedAt'
>

export interface CalendarFeedInput {
  calendarName: string
  /** The band's language: titles, categories and descriptions (the band's own text stays). */
  language: DocumentLanguage
  timezone: string
  /** Right-hand side of every UID (`gig-7@<uidDomain>`). */
  uidDomain: string
  now: Date
  gigs: CalendarGig[]
  rehearsals: CalendarRehearsal[]
}

const CALENDAR_STATUS = {
  inquiry: 'TENTATIVE',
  confirmed: 'CONFIRMED',
  declined: 'TENTATIVE',
  cancelled: 'CANCELLED'
} as const

/** A gig with a start time but no end lasts this long in the calendar. */
export const DEFAULT_GIG_SECONDS = 3 * 3600

/** TEXT value escaping: backslash, semicolon, comma and line breaks. */
export const escapeText = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')

/**
 * Folds a content line at 75 octets (RFC 5545 §3.1): continuation lines start with one space, which
 * counts towards their 75; a line is only ever broken between characters, never inside a UTF-8
 * sequence.
 */
export function foldLine (line: string): string {
  if (line.length <= 75 && Buffer.byteLength(line, 'utf8') <= 75) return line
  const parts: string[] = []
  let current = ''
  let octets = 0
  let limit = 75
  for (const char of line) {
    const code = char.codePointAt(0)!
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    if (octets + size > limit) {
      parts.push(current)
      current = ''
      octets = 0
      limit = 74
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

const utcStamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
const localStamp = (localDateTime: string, timezone: string) =>
  utcStamp(zonedToUtc(localDateTime, timezone))
const dateValue = (date: string) => date.replace(/-/g, '')

/**
 * DTSTART and DTEND of a wall-clock span on a date (an end before the start is the next day, as
 * everywhere in the API). An end equal to the start is a moment: RFC 5545 wants DTEND after
 * DTSTART, and an event without DTEND ends when it starts.
 */
function span (
  date: string,
  start: string,
  end: string | null,
  timezone: string,
  defaultSeconds: number
): string[] {
  const startAt = `${date}T${start}`
  let endAt: string
  if (end === null) endAt = addSecondsLocal(startAt, defaultSeconds)
  else if (minutesOf(end) === minutesOf(start)) return [`DTSTART:${localStamp(startAt, timezone)}`]
  else endAt = addSecondsLocal(`${date}T${end}`, endsNextDay(start, end) ? 86_400 : 0)
  return [`DTSTART:${localStamp(startAt, timezone)}`, `DTEND:${localStamp(endAt, timezone)}`]
}

function gigEvent (gig: CalendarGig, input: CalendarFeedInput): string[] {
  const words = SCHEDULE_LABELS[input.language].fields
  const times = joinPresent(
    [
      gig.getInTime && `${words.getIn} ${gig.getInTime}`,
      gig.soundcheckTime && `${words.soundcheck} ${gig.soundcheckTime}`,
      gig.doorsTime && `${words.doors} ${gig.doorsTime}`,
      gig.startTime && `${words.start} ${gig.startTime}`,
      gig.endTime && `${words.end} ${gig.endTime}`
    ],
    '\n'
  )
  const status = STATUS_LABELS[input.language][gig.status] ?? gig.status
  const description = joinPresent(
    [
      `${words.status}: ${status}${gig.kind ? ` · ${gig.kind}` : ''}`,
      times,
      gig.notes
    ],
    '\n\n'
  )
  const summary =
    gig.status === 'inquiry' ? CALENDAR_LABELS[input.language].inquiry(gig.name) : gig.name
  const lines = [`UID:gig-${gig.id}@${input.uidDomain}`, `DTSTAMP:${utcStamp(input.now)}`]
  if (gig.startTime) {
    lines.push(...span(gig.date, gig.startTime, gig.endTime, input.timezone, DEFAULT_GIG_SECONDS))
  } else {
    // No start time yet: an all-day event on the date rather than an invented hour.
    lines.push(
      `DTSTART;VALUE=DATE:${dateValue(gig.date)}`,
      `DTEND;VALUE=DATE:${dateValue(addSecondsLocal(`${gig.date}T00:00`, 86_400).slice(0, 10))}`
    )
  }
  lines.push(
    `SUMMARY:${escapeText(summary)}`,
    `STATUS:${CALENDAR_STATUS[gig.status]}`,
    `SEQUENCE:${gig.sequence}`,
    `LAST-MODIFIED:${utcStamp(new Date(gig.updatedAt))}`,
    'CATEGORIES:Gig'
  )
  const location = joinPresent([gig.venueName, gig.venueAddress, gig.venueCity])
  if (location) lines.push(`LOCATION:${escapeText(location)}`)
  lines.push(`DESCRIPTION:${escapeText(description)}`)
  return lines
}

function rehearsalEvent (rehearsal: CalendarRehearsal, input: CalendarFeedInput): string[] {
  const word = CALENDAR_LABELS[input.language].rehearsal
  const description = joinPresent(
    [`${word} ${rehearsal.startTime}–${rehearsal.endTime}`, rehearsal.notes],
    '\n\n'
  )
  return [
    `UID:rehearsal-${rehearsal.id}@${input.uidDomain}`,
    `DTSTAMP:${utcStamp(input.now)}`,
    ...span(rehearsal.date, rehearsal.startTime, rehearsal.endTime, input.timezone, 2 * 3600),
    `SUMMARY:${word}`,
    'STATUS:CONFIRMED',
    `SEQUENCE:${rehearsal.sequence}`,
    `LAST-MODIFIED:${utcStamp(new Date(rehearsal.updatedAt))}`,
    `CATEGORIES:${word}`,
    ...(rehearsal.location ? [`LOCATION:${escapeText(rehearsal.location)}`] : []),
    `DESCRIPTION:${escapeText(description)}`
  ]
}

/**
 * The feed: declined gigs are left out, cancelled ones stay with STATUS:CANCELLED so calendars
 * update.
 */
export function renderIcal (input: CalendarFeedInput): string {
  const labels = CALENDAR_LABELS[input.language]
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//Bandstand//Bandstand Calendar//${labels.prodIdLanguage}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(input.calendarName)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H'
  ]
  for (const gig of input.gigs) {
    if (gig.status === 'declined') continue
    lines.push('BEGIN:VEVENT', ...gigEvent(gig, input), 'END:VEVENT')
  }
  for (const rehearsal of input.rehearsals) {
    lines.push('BEGIN:VEVENT', ...rehearsalEvent(rehearsal, input), 'END:VEVENT')
  }
  lines.push('END:VCALENDAR')
  return lines.map(foldLine).join('\r\n') + '\r\n'
}
