// Whether a gig's show has begun: what happened at it (the "After the show" statistics) is shown
// from then on, not on the morning of the gig (its setlist would read "10 / 10 played").
import { zonedToUtc } from '$shared/local-time'

export interface ShowTimes {
  /** YYYY-MM-DD, band time. */
  date: string
  /** HH:MM, band time; without one, the show begins with its day. */
  startTime: string | null
}

export function showStarted (gig: ShowTimes, zone: string, now = Date.now()): boolean {
  const start = zonedToUtc(`${gig.date}T${gig.startTime ?? '00:00'}`, zone)
  return now >= start.getTime()
}
