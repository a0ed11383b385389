import { test } from 'node:test'
import assert from 'node:assert/strict'
import { addSecondsLocal, utcToZoned, zonedToUtc } from '#shared/local-time.js'
import { computeSetlistTiming } from '#shared/timing.js'

test('zonedToUtc honours daylight saving in Europe/Berlin', () => {
  // Last Sunday of March 2026 is the 29th: 02:00 CET → 03:00 CEST.
  assert.equal(
    zonedToUtc('2026-03-29T01:30', 'Europe/Berlin').toISOString(),
    '2026-03-29T00:30:00.000Z'
  )
  assert.equal(
    zonedToUtc('2026-03-29T20:00', 'Europe/Berlin').toISOString(),
    '2026-03-29T18:00:00.000Z'
  )
  assert.equal(
    zonedToUtc('2026-03-29T02:30', 'Europe/Berlin').toISOString(),
    '2026-03-29T01:30:00.000Z'
  )
  // Last Sunday of October 2026 is the 25th: 03:00 CEST → 02:00 CET; 02:30 happens twice.
  assert.equal(
    zonedToUtc('2026-10-25T20:00', 'Europe/Berlin').toISOString(),
    '2026-10-25T19:00:00.000Z'
  )
  assert.equal(
    zonedToUtc('2026-10-25T02:30', 'Europe/Berlin').toISOString(),
    '2026-10-25T00:30:00.000Z'
  )
  assert.equal(
    zonedToUtc('2026-07-01T12:00', 'America/New_York').toISOString(),
    '2026-07-01T16:00:00.000Z'
  )
  assert.equal(utcToZoned(new Date('2026-10-25T19:00:00Z'), 'Europe/Berlin'), '2026-10-25T20:00')
})

test('addSecondsLocal crosses midnight and year end', () => {
  assert.equal(addSecondsLocal('2026-12-31T23:50', 20 * 60), '2027-01-01T00:10')
})

test('setlist timing: durations, gaps, skipped, breaks, after midnight', () => {
  const defaults = {
    defaultSongSeconds: 240,
    songGapSeconds: 30,
    setBreakSeconds: 600,
    defaultStartTime: '20:00'
  }
  const timing = computeSetlistTiming(
    '2026-06-06',
    '23:00',
    [
      {
        breakAfterSeconds: null,
        entries: [
          { durationSeconds: null, songDurationSeconds: 180, status: 'planned' },
          { durationSeconds: null, songDurationSeconds: null, status: 'skipped' },
          { durationSeconds: 300, songDurationSeconds: 180, status: 'played' }
        ]
      },
      {
        breakAfterSeconds: 900,
        entries: [{ durationSeconds: null, songDurationSeconds: null, status: 'planned' }]
      }
    ],
    defaults
  )
  const [first, second] = timing.sets
  assert.deepEqual(
    first!.entries.map((e) => e.plannedStart),
    ['23:00', '23:03', '23:03']
  )
  assert.equal(first!.end, '23:09') // 210 + 330 seconds
  assert.equal(second!.start, '23:19') // 10 min default break
  assert.equal(second!.entries[0]!.plannedStartAt, '2026-06-06T23:19')
  assert.equal(timing.totalSeconds, 540 + 600 + 270)
  assert.equal(timing.endAt, '2026-06-06T23:23')
  assert.equal(computeSetlistTiming('2026-06-06', null, [], defaults).startAt, '2026-06-06T20:00')
})
