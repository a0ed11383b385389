import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { parseEvents } from '#test/ical-parse.js'
import {
  escapeText,
  foldLine,
  renderIcal,
  type CalendarGig,
  type CalendarRehearsal
} from '#src/documents/ical.js'
import type { DocumentLanguage } from '#src/documents/labels.js'

const gig = (overrides: Partial<CalendarGig>): CalendarGig => ({
  id: 1,
  name: 'Gig',
  date: '2026-06-13',
  kind: null,
  status: 'confirmed',
  venueName: null,
  venueAddress: null,
  venueCity: null,
  getInTime: null,
  soundcheckTime: null,
  doorsTime: null,
  startTime: '20:00',
  endTime: '23:00',
  notes: null,
  sequence: 0,
  updatedAt: '2026-05-01T10:00:00.000Z',
  ...overrides
})
const rehearsal = (overrides: Partial<CalendarRehearsal>): CalendarRehearsal => ({
  id: 1,
  date: '2026-06-10',
  startTime: '19:00',
  endTime: '21:00',
  location: null,
  notes: null,
  sequence: 0,
  updatedAt: '2026-05-01T10:00:00.000Z',
  ...overrides
})
const feed = (
  gigs: CalendarGig[],
  rehearsals: CalendarRehearsal[] = [],
  language: DocumentLanguage = 'de'
) =>
  renderIcal({
    calendarName: 'Die Blechbläser – Termine',
    language,
    timezone: 'Europe/Berlin',
    uidDomain: 'band.example',
    now: new Date('2026-05-02T08:00:00Z'),
    gigs,
    rehearsals
  })

test(
  'feed: calendar properties, UIDs, status, sequence, last-modified; declined gigs left out',
  () => {
    const text = feed(
      [
        gig({
          id: 1,
          name: 'Stadtfest',
          sequence: 3,
          updatedAt: '2026-04-30T09:15:00.000Z',
          venueName: 'Marktplatz',
          venueCity: 'Würzburg',
          getInTime: '17:00',
          notes: 'Parken hinter der Bühne'
        }),
        gig({ id: 2, name: 'Abgesagt', status: 'cancelled' }),
        gig({ id: 3, name: 'Abgelehnt', status: 'declined' }),
        gig({ id: 4, name: 'Anfrage', status: 'inquiry' })
      ],
      [rehearsal({ id: 9, location: 'Proberaum' })]
    )
    assert.match(text, /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/)
    assert.ok(text.endsWith('END:VCALENDAR\r\n'))
    const { calendar, events } = parseEvents(text)
    assert.equal(calendar.getFirstPropertyValue('x-wr-calname'), 'Die Blechbläser – Termine')
    assert.match(text, /\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n/)
    assert.match(text, /\r\nX-PUBLISHED-TTL:PT1H\r\n/)
    assert.deepEqual(
      events.map((e) => e.uid),
      ['gig-1@band.example', 'gig-2@band.example', 'gig-4@band.example', 'rehearsal-9@band.example']
    )
    const [stadtfest, cancelled, inquiry, probe] = events
    assert.equal(stadtfest!.status, 'CONFIRMED')
    assert.equal(stadtfest!.sequence, 3)
    assert.match(stadtfest!.lastModified, /^2026-04-30T09:15:00/)
    assert.equal(stadtfest!.location, 'Marktplatz, Würzburg')
    assert.equal(
      stadtfest!.description,
      'Status: Bestätigt\n\nGet-in 17:00\nBeginn 20:00\nEnde 23:00\n\nParken hinter der Bühne'
    )
    assert.equal(stadtfest!.start, '2026-06-13T18:00:00.000Z')
    assert.equal(cancelled!.status, 'CANCELLED')
    assert.equal(inquiry!.status, 'TENTATIVE')
    assert.equal(probe!.summary, 'Probe')
    assert.equal(probe!.location, 'Proberaum')
    assert.match(text, /DTSTAMP:20260502T080000Z/)
    assert.equal(inquiry!.summary, 'Anfrage (Anfrage)')
    assert.match(text, /\r\nPRODID:-\/\/Bandstand\/\/Bandstand Calendar\/\/DE\r\n/)
    assert.match(text, /\r\nCATEGORIES:Probe\r\n/)
    assert.equal(probe!.description, 'Probe 19:00–21:00')
  }
)

/** The feed's own words per language (the gig data below is neutral: none of them). */
const CALENDAR_WORDS = {
  de: ['Anfrage', 'Probe', 'Get-in', 'Soundcheck', 'Einlass', 'Beginn', 'Ende', 'Status',
    'Bestätigt', 'Abgesagt'],
  en: ['Inquiry', 'Rehearsal', 'Get-in', 'Soundcheck', 'Doors', 'Start', 'End', 'Status',
    'Confirmed', 'Cancelled']
}
const wordsIn = (text: string, words: string[]) =>
  words.filter((word) => new RegExp(`(^|[^\\p{L}-])${word}($|[^\\p{L}-])`, 'u').test(text))

test('feed in the band\'s language: English for an English band, German as before', () => {
  const gigs = [
    gig({
      id: 1,
      name: 'Nord 7',
      getInTime: '17:00',
      soundcheckTime: '18:00',
      doorsTime: '19:00',
      notes: 'Strom links.'
    }),
    gig({ id: 2, name: 'Nord 8', status: 'cancelled' }),
    gig({ id: 3, name: 'Nord 9', status: 'inquiry', kind: 'Festival' })
  ]
  const rehearsals = [rehearsal({ id: 4, location: 'Halle 2', notes: 'Neue Lieder.' })]
  const texts = { de: feed(gigs, rehearsals, 'de'), en: feed(gigs, rehearsals, 'en') }
  const english = parseEvents(texts.en).events
  assert.deepEqual(
    english.map((e) => e.summary),
    ['Nord 7', 'Nord 8', 'Nord 9 (Inquiry)', 'Rehearsal']
  )
  assert.equal(
    english[0]!.description,
    'Status: Confirmed\n\nGet-in 17:00\nSoundcheck 18:00\nDoors 19:00\nStart 20:00\nEnd 23:00' +
      '\n\nStrom links.'
  )
  assert.equal(english[1]!.description, 'Status: Cancelled\n\nStart 20:00\nEnd 23:00')
  assert.equal(english[2]!.description, 'Status: Inquiry · Festival\n\nStart 20:00\nEnd 23:00')
  assert.equal(english[3]!.description, 'Rehearsal 19:00–21:00\n\nNeue Lieder.')
  assert.match(texts.en, /\r\nPRODID:-\/\/Bandstand\/\/Bandstand Calendar\/\/EN\r\n/)
  assert.match(texts.en, /\r\nCATEGORIES:Rehearsal\r\n/)

  const german = parseEvents(texts.de).events
  assert.deepEqual(german.map((e) => e.summary), ['Nord 7', 'Nord 8', 'Nord 9 (Anfrage)', 'Probe'])
  assert.equal(
    german[0]!.description,
    'Status: Bestätigt\n\nGet-in 17:00\nSoundcheck 18:00\nEinlass 19:00\nBeginn 20:00\n' +
      'Ende 23:00\n\nStrom links.'
  )
  assert.equal(german[3]!.description, 'Probe 19:00–21:00\n\nNeue Lieder.')

  // Word by word over everything an app shows: titles, descriptions, categories.
  const shown = (events: typeof english, text: string) =>
    [...events.flatMap((e) => [e.summary, e.description]),
      ...text.split('\r\n').filter((l) => l.startsWith('CATEGORIES:'))].join('\n')
  const onlyGerman = CALENDAR_WORDS.de.filter((w) => !CALENDAR_WORDS.en.includes(w))
  const onlyEnglish = CALENDAR_WORDS.en.filter((w) => !CALENDAR_WORDS.de.includes(w))
  assert.deepEqual(wordsIn(shown(english, texts.en), onlyGerman), [])
  assert.deepEqual(wordsIn(shown(german, texts.de), onlyEnglish), [])
  assert.deepEqual(wordsIn(shown(english, texts.en), onlyEnglish), onlyEnglish)
  assert.deepEqual(wordsIn(shown(german, texts.de), onlyGerman), onlyGerman)
})

test(
  'feed: UTC times across the daylight-saving changes (last Sundays of March and October)',
  () => {
    const { events } = parseEvents(
      feed(
        [
          gig({ id: 1, date: '2026-03-29', startTime: '20:00', endTime: '23:30' }),
          // Across the spring-forward night: 23:00 CET to 04:00 CEST is four real hours.
          gig({ id: 2, date: '2026-03-28', startTime: '23:00', endTime: '04:00' }),
          gig({ id: 3, date: '2026-10-25', startTime: '20:00', endTime: '01:00' }),
          gig({ id: 4, date: '2026-10-24', startTime: '22:00', endTime: '03:00' })
        ],
        [
          rehearsal({ id: 5, date: '2026-10-25', startTime: '10:00', endTime: '12:00' }),
          rehearsal({ id: 6, date: '2026-03-29', startTime: '01:00', endTime: '04:00' })
        ]
      )
    )
    const byUid = Object.fromEntries(events.map((e) => [e.uid.split('@')[0], e]))
    assert.deepEqual(
      [byUid['gig-1']!.start, byUid['gig-1']!.end],
      ['2026-03-29T18:00:00.000Z', '2026-03-29T21:30:00.000Z']
    )
    assert.deepEqual(
      [byUid['gig-2']!.start, byUid['gig-2']!.end],
      ['2026-03-28T22:00:00.000Z', '2026-03-29T02:00:00.000Z']
    )
    assert.deepEqual(
      [byUid['gig-3']!.start, byUid['gig-3']!.end],
      ['2026-10-25T19:00:00.000Z', '2026-10-26T00:00:00.000Z']
    )
    // 22:00 CEST to 03:00 CET (the night gains an hour): six real hours.
    assert.deepEqual(
      [byUid['gig-4']!.start, byUid['gig-4']!.end],
      ['2026-10-24T20:00:00.000Z', '2026-10-25T02:00:00.000Z']
    )
    assert.deepEqual(
      [byUid['rehearsal-5']!.start, byUid['rehearsal-5']!.end],
      ['2026-10-25T09:00:00.000Z', '2026-10-25T11:00:00.000Z']
    )
    assert.deepEqual(
      [byUid['rehearsal-6']!.start, byUid['rehearsal-6']!.end],
      ['2026-03-29T00:00:00.000Z', '2026-03-29T02:00:00.000Z']
    )
  }
)

test(
  'feed: a gig without times is an all-day event; a start without an end lasts three hours',
  () => {
    const { events } = parseEvents(
      feed([
        gig({ id: 1, startTime: null, endTime: null }),
        gig({ id: 2, startTime: '19:00', endTime: null })
      ])
    )
    assert.equal(events[0]!.allDay, true)
    assert.match(
      feed([gig({ startTime: null, endTime: null })]),
      /DTSTART;VALUE=DATE:20260613\r\nDTEND;VALUE=DATE:20260614/
    )
    assert.deepEqual(
      [events[1]!.start, events[1]!.end],
      ['2026-06-13T17:00:00.000Z', '2026-06-13T20:00:00.000Z']
    )
  }
)

test('text escaping and 75-octet folding never split a UTF-8 character', () => {
  assert.equal(escapeText('a,b;c\\d\ne'), 'a\\,b\\;c\\\\d\\ne')
  const notes = 'Größte Bühne; Bässe, Höhen \\ Übergänge\nZweite Zeile: 🎸🥁 äöüß '.repeat(8)
  const text = feed([
    gig({
      name: 'Über-lange Gig-Bezeichnung mit Ümläuten, Kommas; und Semikolons '.repeat(3),
      notes,
      venueName: 'Großer Saal, Köln'
    })
  ])
  for (const line of text.split('\r\n')) {
    assert.ok(Buffer.byteLength(line) <= 75, `line of ${Buffer.byteLength(line)} octets`)
  }
  // Unfolding gives back valid UTF-8 (no replacement characters) and the exact text.
  assert.doesNotMatch(Buffer.from(text).toString('utf8'), /\uFFFD/)
  const { events } = parseEvents(text)
  assert.equal(events[0]!.description.split('\n\n').slice(2).join('\n\n'), notes.trim())
  assert.equal(
    events[0]!.summary,
    'Über-lange Gig-Bezeichnung mit Ümläuten, Kommas; und Semikolons '.repeat(3)
  )
  assert.equal(events[0]!.location, 'Großer Saal, Köln')
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
      const line = `DESCRIPTION:${escapeText(value)}`
      const folded = foldLine(line)
      const parts = folded.split('\r\n')
      return (
        parts.every((p, i) => Buffer.byteLength(p) <= 75 && (i === 0 || p.startsWith(' '))) &&
        parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('') === line
      )
    })
  )
})
