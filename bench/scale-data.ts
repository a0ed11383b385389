import { openDatabase } from '#src/db/client.js'
import { hashToken } from '#src/auth/tokens.js'

// The band's data at a scale factor: ×1 is the standard data set (3 members, 500 songs, one season
// of 300 gigs and 100 rehearsals), ×10 ten times each (30 members, 5,000 songs, 3,000 gigs over
// ten seasons). Per gig the same shape at every scale (two sets of ten songs, three answers, three
// running-order items), so a growth beyond ×10 is the code's and not the data's. Written with
// prepared statements in one transaction: 100,000 rows in about a second, where HTTP would take
// minutes.

export interface ScaleData {
  /** Its admin's session is made by the measuring process (it signs with its own secret). */
  adminId: number
  /** A gig of the last season: the live view, the documents and a gig's stats. */
  gigId: number
  songId: number
  calendarToken: string
  /** The season every scale has (the last one). */
  season: number
  rows: number
}

export const SCALE_LAST_SEASON = 2025
const SONGS = 500
const GIGS_PER_SEASON = 300
const REHEARSALS_PER_SEASON = 100
const MEMBERS = 3
const SETS = 2
const PER_SET = 10

const stamp = '2025-01-01T10:00:00.000Z'
const CHART = Array.from({ length: 40 }, (_, i) =>
  i % 2 === 0
    ? `{comment: Strophe ${i / 2 + 1}}`
    : '[C]Über den [Am]Wolken, [F]dort wo die [G]Freiheit'
).join('\n')

/** The day `index` of `count` spread over a year, as YYYY-MM-DD. */
const dayOf = (year: number, index: number, count: number) =>
  new Date(Date.UTC(year, 0, 1 + Math.floor((index * 365) / count))).toISOString().slice(0, 10)

export function seedScaleData (databaseFile: string, factor: number): ScaleData {
  const handle = openDatabase(databaseFile)
  const { sqlite } = handle
  const prepare = (sql: string) => sqlite.prepare(sql)
  const insertUser = prepare(
    'INSERT INTO users (username, display_name, role, password_hash, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?)'
  )
  const insertSong = prepare(
    'INSERT INTO songs (title, artist, genre, duration_seconds, key, tempo_bpm, lead_singer, ' +
      'composers, lyricists, gema_work_number, status, chart, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
  )
  const insertGig = prepare(
    'INSERT INTO gigs (name, date, kind, status, venue_name, venue_city, start_time, end_time, ' +
      'created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
  )
  const insertSet = prepare(
    'INSERT INTO setlist_sets (gig_id, position, name, break_after_seconds) VALUES (?, ?, ?, ?)'
  )
  const insertEntry = prepare(
    'INSERT INTO setlist_entries (gig_id, set_id, position, song_id, status, rating) ' +
      'VALUES (?, ?, ?, ?, ?, ?)'
  )
  const insertGigAnswer = prepare(
    'INSERT INTO gig_availability (gig_id, user_id, status, updated_at) VALUES (?, ?, ?, ?)'
  )
  const insertScheduleItem = prepare(
    'INSERT INTO gig_schedule_items (gig_id, at, title, who) VALUES (?, ?, ?, ?)'
  )
  const insertRehearsal = prepare(
    'INSERT INTO rehearsals (date, start_time, end_time, location, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?)'
  )
  const insertRehearsalSong = prepare(
    'INSERT INTO rehearsal_songs (rehearsal_id, song_id, position) VALUES (?, ?, ?)'
  )
  const insertRehearsalAnswer = prepare(
    'INSERT INTO rehearsal_availability (rehearsal_id, user_id, status, updated_at) ' +
      'VALUES (?, ?, ?, ?)'
  )
  const id = (result: { lastInsertRowid: number | bigint }) => Number(result.lastInsertRowid)
  const calendarToken = 'scale-calendar-token-0123456789abcdef'
  let rows = 0
  const seed = sqlite.transaction(() => {
    const members: number[] = []
    for (let m = 0; m < MEMBERS * factor; m++) {
      members.push(id(insertUser.run(m === 0 ? 'bench' : `member${m}`, `Member ${m}`,
        m === 0 ? 'admin' : 'member', 'x', stamp, stamp)))
    }
    prepare('INSERT INTO calendar_tokens (user_id, token_hash, created_at) VALUES (?, ?, ?)')
      .run(members[0], hashToken(calendarToken), stamp)
    const songs: number[] = []
    for (let s = 0; s < SONGS * factor; s++) {
      songs.push(id(insertSong.run(
        `Song ${s + 1} – Über den Wolken`, `Artist ${s % 97}`, 'Pop', 150 + (s % 120),
        ['C', 'G', 'Am', 'F#m', 'Bb'][s % 5], 80 + (s % 90), ['Anna', 'Ben', 'Clara'][s % 3],
        JSON.stringify(['Müller, Hans']), JSON.stringify(['Weiß, Jörg']),
        s % 3 === 0 ? `${1_000_000 + s}-001` : null, s % 7 === 0 ? 'proposed' : 'ready',
        s % 10 === 0 ? CHART : null, stamp, stamp)))
    }
    rows += members.length + songs.length
    let gigId = 0
    let gigIndex = 0
    const firstSeason = SCALE_LAST_SEASON - factor + 1
    for (let season = firstSeason; season <= SCALE_LAST_SEASON; season++) {
      for (let g = 0; g < GIGS_PER_SEASON; g++, gigIndex++) {
        const date = dayOf(season, g, GIGS_PER_SEASON)
        gigId = id(insertGig.run(`Gig ${gigIndex + 1}`, date,
          ['Club', 'Hochzeit', 'Stadtfest'][g % 3], g % 25 === 0 ? 'cancelled' : 'confirmed',
          'Zur Linde', 'Köln', '20:00', '23:30', stamp, stamp))
        for (let s = 0; s < SETS; s++) {
          const setId = id(insertSet.run(gigId, s, `Set ${s + 1}`, 900))
          for (let e = 0; e < PER_SET; e++) {
            const song = songs[(gigIndex * 7 + s * PER_SET + e) % songs.length]!
            insertEntry.run(gigId, setId, e, song, e === 9 ? 'skipped' : 'played',
              e % 3 === 0 ? null : 1 + (e % 3))
          }
        }
        for (let a = 0; a < 3; a++) {
          insertGigAnswer.run(gigId, members[(gigIndex + a) % members.length],
            ['yes', 'maybe', 'no'][a], stamp)
          insertScheduleItem.run(gigId, `${date}T${17 + a}:00`,
            ['Get-in', 'Soundcheck', 'Dinner'][a], 'Alle')
        }
        rows += 1 + SETS + SETS * PER_SET + 6
      }
      for (let r = 0; r < REHEARSALS_PER_SEASON; r++) {
        const rehearsal = id(insertRehearsal.run(dayOf(season, r, REHEARSALS_PER_SEASON), '19:00',
          '21:30', 'Proberaum', stamp, stamp))
        for (let k = 0; k < 5; k++) {
          insertRehearsalSong.run(rehearsal, songs[(r * 5 + k) % songs.length], k)
        }
        for (let a = 0; a < 3; a++) {
          insertRehearsalAnswer.run(rehearsal, members[(r + a) % members.length], 'yes', stamp)
        }
        rows += 9
      }
    }
    return { adminId: members[0]!, gigId, songId: songs[0]! }
  })
  try {
    return { ...seed(), calendarToken, season: SCALE_LAST_SEASON, rows }
  } finally {
    handle.close()
  }
}
