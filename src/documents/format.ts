// Formatting shared by the document renderers; the words they print are in ./labels.ts, one
// table per language.

/** `3:45`, `1:02:05`: hours are kept, never folded into minutes. */
export function formatDuration (seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`
}

/** `1 h 05 min`, `45 min`. */
export function formatLength (seconds: number): string {
  const minutes = Math.round(seconds / 60)
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`
}

const WEEKDAYS = ['So', 'Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa']

/** `Sa, 21.11.2026` from `2026-11-21`. */
export function formatDate (date: string): string {
  const [y, m, d] = date.split('-')
  const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]
  return `${weekday}, ${d}.${m}.${y}`
}

const WEEKDAYS_EN = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS_EN =
  ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** German `Sa, 21.11.2026`; English `Sat 21 Nov 2026` (no day/month order to misread). */
export function formatDateIn (date: string, language: 'de' | 'en'): string {
  if (language === 'de') return formatDate(date)
  const [y, m, d] = date.split('-')
  const weekday = WEEKDAYS_EN[new Date(`${date}T12:00:00Z`).getUTCDay()]
  return `${weekday} ${Number(d)} ${MONTHS_EN[Number(m) - 1]} ${y}`
}

/** `21.11.2026 20:15` from a local `YYYY-MM-DDTHH:MM`. */
export const formatLocalDateTime = (local: string) =>
  `${local.slice(8, 10)}.${local.slice(5, 7)}.${local.slice(0, 4)} ${local.slice(11, 16)}`

/** German `21.11.2026 20:15`, English `Sat 21 Nov 2026 20:15`, from a local date-time. */
export const formatLocalDateTimeIn = (local: string, language: 'de' | 'en') =>
  language === 'de'
    ? formatLocalDateTime(local)
    : `${formatDateIn(local.slice(0, 10), 'en')} ${local.slice(11, 16)}`

export const joinPresent = (parts: Array<string | null | undefined>, separator = ', ') =>
  parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .join(separator)

/**
 * An entry's length as printed: a free-text entry without a duration of its own (a heading, a
 * medley intro) takes no time and shows none.
 */
export function entryLength (
  entry: { songId: number | null; durationSeconds: number | null; seconds: number }
): string {
  const none = entry.songId === null && entry.durationSeconds === null
  return none ? '' : formatDuration(entry.seconds)
}
