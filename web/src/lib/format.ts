/**
 * Dates and times with Intl, in the band's timezone (app config). The API speaks in three kinds of
 * time (docs/api.md): calendar dates `YYYY-MM-DD` and wall-clock times `HH:MM` /
 * `YYYY-MM-DDTHH:MM`, which are already band time and are only formatted (through UTC, so no shift
 * can happen), and instants (RFC 3339 UTC), which are converted to the band timezone.
 */
// The band-time arithmetic is the server's own (pure, no Node API): one implementation for both.
import { addSecondsLocal, todayIn, zonedToUtc } from '$shared/local-time'
import { i18n } from './i18n/index.svelte'
import { appConfig } from './state/config.svelte'

const cache = new Map<string, Intl.DateTimeFormat>()
function formatter (options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${i18n.locale}|${JSON.stringify(options)}`
  let format = cache.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(i18n.locale, options)
    cache.set(key, format)
  }
  return format
}

function wallClock (date: string, time = '00:00'): Date {
  return new Date(`${date}T${time}:00Z`)
}

/** "Sat, 14 Mar 2026" (the year only when it is not this year's). */
export function formatDate (
  date: string,
  options: { weekday?: boolean; year?: boolean } = {}
): string {
  const showYear = options.year ?? date.slice(0, 4) !== today().slice(0, 4)
  return formatter({
    timeZone: 'UTC',
    weekday: options.weekday === false ? undefined : 'short',
    day: 'numeric',
    month: 'short',
    year: showYear ? 'numeric' : undefined
  }).format(wallClock(date))
}

/** A wall-clock time "20:30" in the locale's style. */
export function formatTime (time: string): string {
  return formatter({ timeZone: 'UTC', hour: '2-digit', minute: '2-digit' }).format(
    wallClock('2000-01-01', time)
  )
}

/** A band-local date-time `YYYY-MM-DDTHH:MM`. */
export function formatLocalDateTime (value: string): string {
  return formatter({
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit'
  }).format(new Date(`${value}:00Z`))
}

/** An instant (RFC 3339) shown in the band timezone. */
export function formatInstant (instant: string): string {
  return formatter({
    timeZone: appConfig.timezone,
    dateStyle: 'medium',
    timeStyle: 'short'
  }).format(new Date(instant))
}

/** The band-local clock time of an instant (RFC 3339 or epoch ms): "21:07". */
export function formatInstantTime (instant: string | number): string {
  return formatter({ timeZone: appConfig.timezone, timeStyle: 'short' }).format(new Date(instant))
}

/** Durations: "4:05" below an hour, "1:02:05" above. */
export function formatDuration (seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m)
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`
}

/** Today's date in the band timezone, `YYYY-MM-DD`. */
export function today (now = new Date()): string {
  return todayIn(appConfig.timezone, now)
}

/** The calendar date `days` after `date`. */
export function addDays (date: string, days: number): string {
  return addSecondsLocal(`${date}T00:00`, days * 86_400).slice(0, 10)
}

/** A band-local `YYYY-MM-DDTHH:MM` as an RFC 3339 UTC instant (daylight saving included). */
export function bandTimeToInstant (local: string): string {
  return zonedToUtc(local, appConfig.timezone).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * A live-mode rating 1–3 as stars: "Note 1" reads as the best school grade to Germans, stars read
 * the same in every language.
 */
export function stars (rating: number): string {
  return '★'.repeat(Math.min(3, Math.max(1, Math.round(rating))))
}
