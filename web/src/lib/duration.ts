/** "3:45" or "225" (seconds) typed by a user → seconds; null when empty; NaN when unreadable. */
export function parseDuration (text: string): number | null {
  const value = text.trim()
  if (value === '') return null
  const match = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(value) ?? /^()(\d+)$/.exec(value)
  if (!match) return Number.NaN
  if (match[3] === undefined) return Number(match[2]) * 60
  return Number(match[1] || 0) * 3600 + Number(match[2]) * 60 + Number(match[3])
}
