import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  CALENDAR_LABELS,
  documentLanguage,
  FILE_PREFIXES,
  RUNNING_ORDER_LABELS,
  SCHEDULE_LABELS,
  SETLIST_CSV_LABELS,
  SETLIST_LABELS,
  SONGBOOK_LABELS,
  STATUS_LABELS
} from '#src/documents/labels.js'
import { formatDateIn, formatLocalDateTimeIn } from '#src/documents/format.js'
import { NOTICE_LABELS } from '#src/notices/labels.js'

// Every table of words a band reads from the server, in both languages: the same entries on both
// sides (a word added to one language only would print `undefined` in the other), every phrase
// built with what it was given, and the two languages never the same sentence.
const TABLES = {
  CALENDAR_LABELS,
  FILE_PREFIXES,
  NOTICE_LABELS,
  RUNNING_ORDER_LABELS,
  SCHEDULE_LABELS,
  SETLIST_CSV_LABELS,
  SETLIST_LABELS,
  SONGBOOK_LABELS,
  STATUS_LABELS
} as Record<string, Record<'de' | 'en', unknown>>

/** Every leaf of a table as [path, value]: strings, arrays of strings and functions. */
function leaves (value: unknown, path = ''): Array<[string, unknown]> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, `${path}.${key}`))
  }
  return [[path, value]]
}

/** Arguments a phrase can show: distinct, so each one can be found in the result. */
const argumentsFor = (arity: number) =>
  Array.from({ length: arity }, (_, i) => (i % 2 === 0 ? `X${i + 7}` : i + 40))

test('document and notice words: both languages have the same entries, each one filled', () => {
  for (const [name, table] of Object.entries(TABLES)) {
    const de = leaves(table.de)
    const en = leaves(table.en)
    assert.deepEqual(en.map(([path]) => path), de.map(([path]) => path), `${name}: same entries`)
    for (const [[path, german], [, english]] of de.map((leaf, i) => [leaf, en[i]!] as const)) {
      const where = `${name}${path}`
      assert.equal(typeof english, typeof german, where)
      if (typeof german === 'function' && typeof english === 'function') {
        const args = argumentsFor(german.length)
        for (const [language, phrase] of [['de', german], ['en', english]] as const) {
          const text = phrase(...args) as unknown
          assert.equal(typeof text, 'string', `${where} (${language})`)
          // Booleans and counts may choose the words; every text argument is shown.
          for (const arg of args.filter((a) => typeof a === 'string')) {
            assert.ok((text as string).includes(String(arg)), `${where} (${language}) shows ${arg}`)
          }
        }
      } else if (Array.isArray(german)) {
        assert.equal((english as unknown[]).length, german.length, where)
        assert.ok(german.every((word) => typeof word === 'string' && word.length > 0), where)
      } else {
        assert.ok(typeof german === 'string' && german.length > 0, `${where} (de) is a word`)
        assert.ok(typeof english === 'string' && english.length > 0, `${where} (en) is a word`)
      }
    }
  }
})

test('document words: a sentence of one language is not the other one\'s', () => {
  const sentences = (language: 'de' | 'en') =>
    [
      RUNNING_ORDER_LABELS[language].set('Set 1', 1, '45:00'),
      RUNNING_ORDER_LABELS[language].pause('20:00'),
      RUNNING_ORDER_LABELS[language].empty,
      SONGBOOK_LABELS[language].transposed('+2'),
      SONGBOOK_LABELS[language].page(1, 2),
      SONGBOOK_LABELS[language].noChart,
      CALENDAR_LABELS[language].inquiry('Fest'),
      STATUS_LABELS[language].confirmed,
      NOTICE_LABELS[language].setlistPublished('Fest', false, 1, 1)
    ]
  const german = sentences('de')
  sentences('en').forEach((english, i) => assert.notEqual(english, german[i]))
  // Counts choose the words: one song, two songs.
  assert.equal(RUNNING_ORDER_LABELS.en.set('Set 1', 1, '4:00'), 'Set 1 (1 song, 4:00)')
  assert.equal(RUNNING_ORDER_LABELS.en.set('Set 1', 2, '8:00'), 'Set 1 (2 songs, 8:00)')
  assert.equal(RUNNING_ORDER_LABELS.de.set('Set 1', 2, '8:00'), 'Set 1 (2 Titel, 8:00)')
})

test('document language and dates: German for every German locale, English otherwise', () => {
  for (const locale of ['de', 'de-DE', 'de-AT', 'DE-ch']) {
    assert.equal(documentLanguage(locale), 'de')
  }
  for (const locale of ['en', 'en-GB', 'en-US', 'fr-FR', 'nl', '', undefined]) {
    assert.equal(documentLanguage(locale), 'en', String(locale))
  }
  assert.equal(formatDateIn('2026-07-04', 'de'), 'Sa, 04.07.2026')
  assert.equal(formatDateIn('2026-07-04', 'en'), 'Sat 4 Jul 2026')
  assert.equal(formatDateIn('2026-12-31', 'en'), 'Thu 31 Dec 2026')
  assert.equal(formatLocalDateTimeIn('2026-06-01T12:05', 'de'), '01.06.2026 12:05')
  assert.equal(formatLocalDateTimeIn('2026-06-01T12:05', 'en'), 'Mon 1 Jun 2026 12:05')
})
