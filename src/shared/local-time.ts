// Wall-clock arithmetic in the band's timezone. Local values are naive strings (`YYYY-MM-DD`,
// `HH:MM`, `YYYY-MM-DDTHH:MM`); they become instants only through zonedToUtc, which honours
// daylight saving.

const pad = (n: number) => String(n).padStart(2, '0')

/** Minutes since midnight of `HH:MM`. */
export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/**
 * The one rule for a span of wall-clock times on one date (docs/api.md: an end before the start is
 * the next day): an end before the start ends after midnight; an end equal to the start is the same
 * moment, not 24 hours later. The API's `endsNextDay`, the running order and the calendar use it.
 */
export const endsNextDay = (start: string | null, end: string | null) =>
  start !== null && end !== null && minutesOf(end) < minutesOf(start)

/** Adds seconds to a local date-time; crosses midnight and month ends like a calendar does. */
export function addSecondsLocal (localDateTime: string, seconds: number): string {
  const naive = new Date(`${localDateTime}:00Z`)
  naive.setUTCSeconds(naive.getUTCSeconds() + seconds)
  return formatNaive(naive)
}

/** `YYYY-MM-DDTHH:MM` of a naive Date that holds local wall-clock fields in its UTC fields. */
function formatNaive (date: Date): string {
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
  return `${day}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`
}

export const timeOf = (localDateTime: string) => localDateTime.slice(11, 16)
export const dateOf = (localDateTime: string) => localDateTime.slice(0, 10)

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter (timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit'
    })
    formatters.set(timeZone, f)
  }
  return f
}

// Offsets only change at transitions, which (since 1970, in every zone) fall on quarter hours: one
// lookup per zone and quarter hour serves every instant in it (the calendar feed converts thousands
// of times).
const QUARTER_HOUR = 15 * 60_000
const offsetCache = new Map<string, number>()

/** Offset of the zone from UTC at an instant, in milliseconds. */
function offsetAt (instant: number, timeZone: string): number {
  const bucket = Math.floor(instant / QUARTER_HOUR)
  const key = `${timeZone} ${bucket}`
  let offset = offsetCache.get(key)
  if (offset === undefined) {
    if (offsetCache.size >= 50_000) offsetCache.clear()
    offset = computeOffset(bucket * QUARTER_HOUR, timeZone)
    offsetCache.set(key, offset)
  }
  return offset
}

function computeOffset (instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value])
  )
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second)
  )
  return asUtc - Math.floor(instant / 1000) * 1000
}

/**
 * The instant of a local date-time in a timezone. A time skipped by the spring-forward gap moves
 * forward by the gap (02:30 → 03:30 in Berlin); an ambiguous autumn time takes its first
 * (summer-time) meaning.
 */
export function zonedToUtc (localDateTime: string, timeZone: string): Date {
  const naive = Date.parse(`${localDateTime}:00Z`)
  // Offsets half a day either side bracket any transition near this wall-clock time.
  const before = offsetAt(naive - 12 * 3600_000, timeZone)
  const after = offsetAt(naive + 12 * 3600_000, timeZone)
  // No transition near this time (the common case): the offset is the answer, two lookups instead
  // of four.
  if (before === after && Math.abs(before) <= 12 * 3600_000) return new Date(naive - before)
  const matches = [naive - before, naive - after]
    .filter((c) => c + offsetAt(c, timeZone) === naive)
    .sort((a, b) => a - b)
  return new Date(matches[0] ?? naive - before)
}

/** The local date-time (`YYYY-MM-DDTHH:MM`) of an instant in a timezone. */
export function utcToZoned (instant: Date, timeZone: string): string {
  return formatNaive(new Date(instant.getTime() + offsetAt(instant.getTime(), timeZone)))
}

/** Today's date in the band timezone. */
export const todayIn = (timeZone: string, now: Date) => dateOf(utcToZoned(now, timeZone))

export function isValidTimeZone (timeZone: string): boolean {
  try {
    formatter(timeZone)
    return true
  } catch {
    return false
  }
}
