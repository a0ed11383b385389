import { test } from 'node:test'
import assert from 'node:assert/strict'
import { renderSetlistText } from '#src/documents/setlist-text.js'
import { renderSetlistCsv } from '#src/documents/setlist-csv.js'
import { assembleGigDocument, type GigDocument } from '#src/documents/gig-document.js'
import type { DocumentLanguage } from '#src/documents/labels.js'
import { bigGig, gigFixture, TIMING } from '#test/document-fixtures.js'

// The plain-text setlist and the setlist CSV speak the band's language, as
// the PDFs do. The gig's data is neutral here, so a label word found can only be a label.

/** Label words of the German text and CSV (never in the English ones). */
const GERMAN = [
  'Beginn', 'geplant', 'Titel', 'ausgelassen', 'eingefügt', 'Noch', 'Setlist', 'leer', 'Pause',
  'Gesamt', 'Nr', 'Interpret', 'Tonart', 'Gesang', 'Dauer', 'Notizen', 'gespielt', 'Eingefügt',
  'Bewertung', 'Transponierung', 'Kapo', 'ja'
]
/** Label words of the English text and CSV (never in the German ones). */
const ENGLISH = [
  'Start', 'planned', 'songs?', 'skipped', 'added', 'No', 'setlist', 'Break', 'Total', 'sets?',
  'Title', 'Artist', 'Key', 'Vocals', 'Length', 'Notes', 'played', 'Added', 'Rating',
  'Transpose', 'Capo', 'yes'
]
const GERMAN_DATE = /\b(So|Mo|Di|Mi|Do|Fr|Sa), \d\d\.\d\d\.\d{4}\b/
const ENGLISH_DATE = /\b(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} [A-Z][a-z]{2} \d{4}\b/

const wordsIn = (text: string, words: string[]) =>
  words.filter((word) => new RegExp(`(^|[^\\p{L}-])${word}($|[^\\p{L}-])`, 'u').test(text))

const NEUTRAL = { name: 'Gig Nord', venueName: 'Kulturhalle', venueCity: 'Bremen' }

/** `sets` sets of `perSet` songs, by an artist whose name is no label word. */
function neutralGig (sets: number, perSet: number): GigDocument {
  const doc = bigGig(sets, perSet, NEUTRAL)
  for (const entry of doc.sets.flatMap((s) => s.entries)) entry.song.artist = 'Jo Kim'
  return doc
}

/** Two sets of two songs after the show: one played, one skipped, one added. */
function liveGig (): GigDocument {
  const doc = neutralGig(2, 2)
  const entries = doc.sets.flatMap((s) => s.entries)
  entries[0]!.status = 'played'
  entries[1]!.status = 'skipped'
  entries[2]!.inserted = true
  doc.liveUsed = true
  return doc
}

/** No setlist and no start time (the planned start is printed). */
const emptyGig = () =>
  assembleGigDocument(
    {
      gig: gigFixture({ ...NEUTRAL, startTime: null, endTime: null }),
      sets: [],
      entries: [],
      schedule: [],
      musicianCount: 0
    },
    TIMING
  )

const outputs = (language: DocumentLanguage) => ({
  live: renderSetlistText(liveGig(), language),
  planned: renderSetlistText(neutralGig(1, 3), language),
  empty: renderSetlistText(emptyGig(), language),
  csv: renderSetlistCsv(liveGig(), undefined, language).toString('utf8')
})

test('plain-text setlist and CSV in English: every label English, no German word', () => {
  const english = outputs('en')
  assert.equal(
    english.live,
    'Gig Nord\nSat 13 Jun 2026 · Kulturhalle, Bremen · Start 20:00\n\n' +
      'Set 1  20:00–20:08  (8 min, 2 songs)\n' +
      '  1. 20:00  Song 1 – Jo Kim  [C, Björn]  3:20\n' +
      '  2. 20:03  Song 2 – Jo Kim  [C, Carla]  3:40 (skipped)\n' +
      '  Break 10 min  (20:08–20:18)\n\n' +
      'Set 2  20:18–20:27  (9 min, 2 songs)\n' +
      '  3. 20:18  Song 3 – Jo Kim  [C, Anna]  4:00 (+ added)\n' +
      '  4. 20:22  Song 4 – Jo Kim  [C, Björn]  4:20\n\n' +
      'Total: 27 min · 20:00–20:27 · 4 songs in 2 sets\n'
  )
  assert.match(english.planned, /\(\d+ min, 3 songs\)/)
  assert.match(english.planned, /3 songs in 1 set\n$/)
  assert.doesNotMatch(english.planned, /skipped|added/)
  assert.equal(
    english.empty,
    'Gig Nord\nSat 13 Jun 2026 · Kulturhalle, Bremen · Start 20:00 (planned)\n\nNo setlist yet.\n'
  )
  const rows = english.csv.replace(/^\uFEFF/, '').split('\r\n').map((row) => row.split(';'))
  assert.deepEqual(rows[0], [
    'Set', 'No.', 'Start', 'Title', 'Artist', 'Key', 'Vocals', 'Length', 'Notes', 'Status',
    'Added', 'Rating', 'Transpose', 'Capo', 'Chart'
  ])
  assert.deepEqual(rows.slice(1, 5).map((row) => [row[5], row[9], row[10]]), [
    ['C', 'played', ''], ['C', 'skipped', ''], ['C', 'planned', 'yes'], ['C', 'planned', '']
  ])
  for (const [variant, text] of Object.entries(english)) {
    assert.deepEqual(wordsIn(text, GERMAN), [], `no German label in the English ${variant}`)
    assert.doesNotMatch(text, GERMAN_DATE, `no German date in the English ${variant}`)
  }
})

test('plain-text setlist and CSV in German: exactly as before, no English word', () => {
  const german = outputs('de')
  // What the renderers wrote before they took a language (the same fixture).
  assert.equal(
    german.live,
    'Gig Nord\nSa, 13.06.2026 · Kulturhalle, Bremen · Beginn 20:00\n\n' +
      'Set 1  20:00–20:08  (8 min, 2 Titel)\n' +
      '  1. 20:00  Song 1 – Jo Kim  [C-Dur, Björn]  3:20\n' +
      '  2. 20:03  Song 2 – Jo Kim  [C-Dur, Carla]  3:40 (ausgelassen)\n' +
      '  Pause 10 min  (20:08–20:18)\n\n' +
      'Set 2  20:18–20:27  (9 min, 2 Titel)\n' +
      '  3. 20:18  Song 3 – Jo Kim  [C-Dur, Anna]  4:00 (+ eingefügt)\n' +
      '  4. 20:22  Song 4 – Jo Kim  [C-Dur, Björn]  4:20\n\n' +
      'Gesamt: 27 min · 20:00–20:27 · 4 Titel in 2 Sets\n'
  )
  assert.equal(
    german.csv,
    '\uFEFFSet;Nr.;Beginn;Titel;Interpret;Tonart;Gesang;Dauer;Notizen;Status;Eingefügt;' +
      'Bewertung;Transponierung;Kapo;Chart\r\n' +
      'Set 1;1;20:00;Song 1;Jo Kim;C-Dur;Björn;0:03:20;;gespielt;;;;;\r\n' +
      'Set 1;2;20:03;Song 2;Jo Kim;C-Dur;Carla;0:03:40;;ausgelassen;;;;;\r\n' +
      'Set 2;3;20:18;Song 3;Jo Kim;C-Dur;Anna;0:04:00;;geplant;ja;;;;\r\n' +
      'Set 2;4;20:22;Song 4;Jo Kim;C-Dur;Björn;0:04:20;;geplant;;;;;\r\n'
  )
  assert.match(german.planned, /3 Titel in 1 Set\n$/)
  assert.match(german.empty, /Beginn 20:00 \(geplant\)\n\nNoch keine Setlist\.\n$/)
  for (const [variant, text] of Object.entries(german)) {
    // "Set" is the same word in both languages: only the English lower-case plural counts.
    assert.deepEqual(wordsIn(text, ENGLISH), [], `no English label in the German ${variant}`)
    assert.doesNotMatch(text, ENGLISH_DATE, `no English date in the German ${variant}`)
  }
})
