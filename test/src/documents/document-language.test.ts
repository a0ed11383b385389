import { test } from 'node:test'
import assert from 'node:assert/strict'
import { renderSetlistPdf, type SetlistStyle } from '#src/documents/setlist-pdf.js'
import { renderSchedulePdf } from '#src/documents/schedule-pdf.js'
import { assembleGigDocument, type GigDocument } from '#src/documents/gig-document.js'
import { FILE_PREFIXES, STATUS_LABELS } from '#src/documents/labels.js'
import { GIG_STATUSES } from '#shared/enums.js'
import { bigGig, contextFixture, gigFixture, songFixture, TIMING } from '#test/document-fixtures.js'
import { pdfInfo, pdfText } from '#test/pdf-tools.js'

// The setlist and schedule PDFs speak the band's language: every word the
// document itself prints is English for an English band and German (as before) for a German one.
// The gig's data is neutral here, so a label word found can only be a label.

/** Label words of the German documents (never in the English ones). */
const GERMAN = [
  'Datum', 'Art', 'Veranstalter', 'Kontakt', 'Location', 'Adresse', 'Einlass', 'Beginn', 'Ende',
  'Notizen', 'geplant', 'Live-Protokoll', 'Seite', 'von', 'Gesamt', 'Titel', 'Pause',
  'ausgelassen', 'eingefügt', 'leer', 'Stammdaten', 'Ablauf', 'Ablaufplan', 'Erstellt',
  'Bestätigt', 'Anfrage', 'Zeit', 'Programmpunkt', 'Wer', 'Wo', 'Noch', 'Bewertung'
]
/** Label words of the English documents (never in the German ones). */
const ENGLISH = [
  'Date', 'Kind', 'Organizer', 'Contact', 'Venue', 'Address', 'Doors', 'Start', 'End', 'Notes',
  'planned', 'Live record', 'Page', 'of', 'Total', 'songs?', 'Break', 'skipped', 'added', 'empty',
  'Details', 'Timeline', 'Running order', 'Generated', 'Confirmed', 'Inquiry', 'Time', 'What',
  'Who', 'Where', 'No setlist', 'rating'
]
const GERMAN_DATE = /\b(So|Mo|Di|Mi|Do|Fr|Sa), \d\d\.\d\d\.\d{4}\b/
const ENGLISH_DATE = /\b(Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} [A-Z][a-z]{2} \d{4}\b/

/** The document's title (metadata): pdfinfo's own field names are English. */
const titleOf = (pdf: Buffer) => /Title:\s+(.*)/.exec(pdfInfo(pdf))![1]

const wordsIn = (text: string, words: string[]) =>
  words.filter((word) => new RegExp(`(^|[^\\p{L}-])${word}($|[^\\p{L}-])`, 'u').test(text))

// Neutral data: no word of it is a label word of either language.
const NEUTRAL = {
  name: 'Gig Nord',
  kind: 'Festival',
  venueName: 'Kulturhalle',
  venueAddress: 'Hafenweg 3',
  venueCity: 'Bremen',
  organizerName: 'Jo Kim',
  organizerContact: '+49 170 1234567',
  notes: 'Strom links.'
}

function liveGig (): GigDocument {
  const doc = bigGig(2, 4, NEUTRAL)
  const entries = doc.sets.flatMap((s) => s.entries)
  entries[0]!.status = 'played'
  entries[0]!.rating = 3
  entries[1]!.status = 'skipped'
  entries[2]!.inserted = true
  doc.liveUsed = true
  return doc
}

/** No setlist, no start time (the planned start is printed), and one set without songs. */
function emptyGigs (): GigDocument[] {
  const gig = gigFixture({ ...NEUTRAL, startTime: null, endTime: null })
  const none = assembleGigDocument(
    { gig, sets: [], entries: [], schedule: [], musicianCount: 0 },
    TIMING
  )
  const song = songFixture(1, { artist: null })
  const oneEmptySet = assembleGigDocument(
    {
      gig,
      sets: [
        { id: 1, name: 'Set 1', breakAfterSeconds: null },
        { id: 2, name: 'Set 2', breakAfterSeconds: null }
      ],
      entries: [
        {
          id: 1,
          setId: 1,
          songId: 1,
          song,
          notes: null,
          durationSeconds: null,
          status: 'planned',
          inserted: false,
          rating: null
        }
      ],
      schedule: [],
      musicianCount: 0
    },
    TIMING
  )
  return [none, oneEmptySet]
}

async function setlistTexts (locale: string) {
  const ctx = contextFixture({ locale })
  const styles: SetlistStyle[] = ['print', 'stage', 'stage-dark']
  const texts: Record<string, string> = {}
  for (const style of styles) {
    const pdf = await renderSetlistPdf(liveGig(), ctx, style)
    texts[`live ${style}`] = `${pdfText(pdf)}\n${titleOf(pdf)}`
  }
  texts.planned = pdfText(await renderSetlistPdf(bigGig(1, 3, NEUTRAL), ctx))
  for (const [index, doc] of emptyGigs().entries()) {
    texts[`empty ${index}`] = pdfText(await renderSetlistPdf(doc, ctx, 'stage'))
  }
  return texts
}

test('setlist PDF in English: live record, stage styles, empty ones; no German word', async () => {
  const texts = await setlistTexts('en-GB')
  const live = texts['live print']!
  for (const expected of [
    'Sat 13 Jun 2026', 'Kulturhalle, Bremen', 'Start 20:00', 'Live record: struck through = ',
    'Song 2 (skipped)', 'Song 3 + added', 'Song 1 ●●●', '4 songs', 'Break 10 min',
    'Total: ', '8 songs in 2 sets', 'Page 1 of 1', 'Setlist – Gig Nord – Sat 13 Jun 2026'
  ]) assert.ok(live.includes(expected), `English setlist has ${expected}:\n${live}`)
  assert.match(texts['live stage']!, /Song 2 \(skipped\)[\s\S]*Page 2 of 2/)
  assert.match(texts['live stage-dark']!, /Live record:/)
  assert.doesNotMatch(texts.planned!, /Live record|skipped|added/)
  assert.match(texts['empty 0']!, /No setlist yet\./)
  assert.match(texts['empty 0']!, /Start 20:00 \(planned\)/)
  assert.match(texts['empty 1']!, /Set 2 +20:\d\d–20:\d\d · 0 min · 0 songs\s+\(empty\)/)
  assert.match(texts['empty 1']!, /1 song in 2 sets/)
  for (const [variant, text] of Object.entries(texts)) {
    assert.deepEqual(wordsIn(text, GERMAN), [], `no German label in the ${variant} setlist`)
    assert.doesNotMatch(text, GERMAN_DATE, `no German date in the ${variant} setlist`)
  }
})

test('setlist PDF in German: the same words as before, no English label', async () => {
  const texts = await setlistTexts('de-DE')
  const live = texts['live print']!
  for (const expected of [
    'Sa, 13.06.2026', 'Kulturhalle, Bremen', 'Beginn 20:00',
    'Live-Protokoll: durchgestrichen = ausgelassen, + eingefügt = während der',
    'Song 2 (ausgelassen)', 'Song 3 + eingefügt', 'Song 1 ●●●', '4 Titel', 'Pause 10 min',
    'Gesamt: ', '8 Titel in 2 Sets', 'Seite 1 von 1', 'Setlist – Gig Nord – Sa, 13.06.2026'
  ]) assert.ok(live.includes(expected), `German setlist has ${expected}:\n${live}`)
  assert.match(texts['live stage']!, /Song 2 \(ausgelassen\)[\s\S]*Seite 2 von 2/)
  assert.match(texts['empty 0']!, /Noch keine Setlist\./)
  assert.match(texts['empty 0']!, /Beginn 20:00 \(geplant\)/)
  assert.match(texts['empty 1']!, /0 Titel\s+\(leer\)/)
  assert.match(texts['empty 1']!, /1 Titel in 2 Sets/)
  for (const [variant, text] of Object.entries(texts)) {
    assert.deepEqual(wordsIn(text, ENGLISH), [], `no English label in the ${variant} setlist`)
    assert.doesNotMatch(text, ENGLISH_DATE, `no English date in the ${variant} setlist`)
  }
})

async function scheduleText (locale: string, status: GigDocument['gig']['status']) {
  const doc = bigGig(2, 3, { ...NEUTRAL, status })
  const item = { id: 1, at: '2026-06-13T18:00', title: 'Essen' }
  doc.schedule.push({ ...item, who: null, where: null, notes: null })
  const pdf = await renderSchedulePdf(doc, contextFixture({ locale }))
  return `${pdfText(pdf)}\n${titleOf(pdf)}`
}

test('schedule PDF: master data, headings, status, footer and dates per language', async () => {
  const english = await scheduleText('en-GB', 'confirmed')
  for (const expected of [
    'Running order', 'Details', 'Timeline', 'Date', 'Sat 13 Jun 2026', 'Kind', 'Festival',
    'Status', 'Confirmed', 'Organizer', 'Jo Kim', 'Contact', 'Venue', 'Address',
    'Hafenweg 3, Bremen', 'Get-in', 'Soundcheck', 'Doors', 'Start', 'End', 'Notes',
    'Generated Mon 1 Jun 2026 12:00 (Europe/Berlin) · Die Blechbläser', 'Page 1 of 1',
    'Running order – Gig Nord – Sat 13 Jun 2026'
  ]) assert.ok(english.includes(expected), `English schedule has ${expected}:\n${english}`)
  assert.deepEqual(wordsIn(english, GERMAN), [], 'no German label in the English schedule')
  assert.doesNotMatch(english, GERMAN_DATE)
  assert.match(await scheduleText('en-US', 'inquiry'), /Status\s+Inquiry/)

  const german = await scheduleText('de-DE', 'confirmed')
  for (const expected of [
    'Ablaufplan', 'Stammdaten', 'Ablauf', 'Datum', 'Sa, 13.06.2026', 'Art', 'Festival',
    'Status', 'Bestätigt', 'Veranstalter', 'Kontakt', 'Location', 'Adresse', 'Get-in',
    'Soundcheck', 'Einlass', 'Beginn', 'Ende', 'Notizen',
    'Erstellt 01.06.2026 12:00 (Europe/Berlin) · Die Blechbläser', 'Seite 1 von 1',
    'Ablaufplan – Gig Nord – Sa, 13.06.2026'
  ]) assert.ok(german.includes(expected), `German schedule has ${expected}:\n${german}`)
  assert.deepEqual(wordsIn(german, ENGLISH), [], 'no English label in the German schedule')
  assert.doesNotMatch(german, ENGLISH_DATE)
  assert.match(await scheduleText('de-AT', 'cancelled'), /Status\s+Abgesagt/)
})

test('labels: every status in both languages; file names per language', () => {
  for (const status of GIG_STATUSES) {
    assert.ok(STATUS_LABELS.de[status] && STATUS_LABELS.en[status], status)
    assert.notEqual(STATUS_LABELS.de[status], STATUS_LABELS.en[status])
  }
  assert.deepEqual(FILE_PREFIXES.de, {
    setlist: 'Setlist', stage: 'Setlist-Buehne', schedule: 'Ablaufplan'
  })
  assert.deepEqual(FILE_PREFIXES.en, {
    setlist: 'Setlist', stage: 'Setlist-stage', schedule: 'Running-order'
  })
})
