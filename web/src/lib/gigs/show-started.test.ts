import { describe, expect, it } from 'vitest'
import { showStarted } from './show-started'

describe('showStarted', () => {
  const gig = { date: '2026-07-04', startTime: '20:00' }
  it('is false before the start time on the day, in the band time zone', () => {
    // 19:59 in Berlin (summer time: UTC+2).
    expect(showStarted(gig, 'Europe/Berlin', Date.parse('2026-07-04T17:59:00Z'))).toBe(false)
  })
  it('is true from the start time on, and on the days after', () => {
    expect(showStarted(gig, 'Europe/Berlin', Date.parse('2026-07-04T18:00:00Z'))).toBe(true)
    expect(showStarted(gig, 'Europe/Berlin', Date.parse('2026-07-05T08:00:00Z'))).toBe(true)
  })
  it('takes the start of the day for a gig without a start time', () => {
    const day = { date: '2026-07-04', startTime: null }
    expect(showStarted(day, 'Europe/Berlin', Date.parse('2026-07-03T21:59:00Z'))).toBe(false)
    expect(showStarted(day, 'Europe/Berlin', Date.parse('2026-07-03T22:00:00Z'))).toBe(true)
  })
  it('is false for a gig in the future', () => {
    expect(showStarted(gig, 'UTC', Date.parse('2026-07-01T23:00:00Z'))).toBe(false)
  })
})
