import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  cleanText,
  makeUsername,
  mapAnswer,
  mapVote,
  parseDateTime,
  parseDuration,
  parseLinks,
  parseTime,
  splitNames
} from '#src/librestage/values.js'
import { mapKey } from '#src/librestage/keys.js'
import { foreignPasswordHash } from '#src/auth/password.js'

// The importer's value mappings one by one: libreStage's text, times, dates, durations, keys,
// names, links and usernames as Bandstand stores them.

test('value mappings: text, times, dates, durations, keys, names, links, usernames', () => {
  assert.equal(cleanText('  None '), null)
  assert.equal(cleanText(''), null)
  assert.equal(cleanText(null), null)
  assert.equal(cleanText('a\r\nb\u0007'), 'a\nb')
  assert.equal(parseTime('19:30:00'), '19:30')
  assert.equal(parseTime('19:30:00.000000'), '19:30')
  assert.equal(parseTime('7:05'), '07:05')
  assert.equal(parseTime(null), null)
  assert.equal(parseTime('25:00:00'), undefined)
  assert.equal(parseTime('abends'), undefined)
  assert.equal(parseDuration('00:03:45'), 225)
  assert.equal(parseDuration('03:45'), 225, 'two parts of a song: minutes and seconds')
  assert.equal(parseDuration('00:10', 'HH:MM'), 600, 'two parts of a break: hours and minutes')
  assert.equal(parseDuration('00:00:00'), null)
  assert.equal(parseDuration('lang'), undefined)
  assert.deepEqual(parseDateTime('2026-06-13 19:30:00.000000'), {
    date: '2026-06-13',
    time: '19:30'
  })
  assert.deepEqual(parseDateTime('2026-06-13T19:30:00'), { date: '2026-06-13', time: '19:30' })
  assert.deepEqual(parseDateTime('2026-06-13'), { date: '2026-06-13', time: null })
  assert.deepEqual(parseDateTime('Sa, 13.06.2026 19:30 Uhr'), {
    date: '2026-06-13',
    time: '19:30'
  })
  assert.equal(parseDateTime('2026-02-30 10:00:00'), undefined)
  assert.equal(parseDateTime('nächsten Freitag'), undefined)
  assert.equal(parseDateTime('None'), null)
  const keys: Array<[string, string | undefined]> = [
    ['C', 'C'],
    ['Am', 'Am'],
    ['F#m', 'F#m'],
    ['Bb', 'Bb'],
    ['B', 'Bb'],
    ['H', 'B'],
    ['h', 'Bm'],
    ['Eb', 'Eb'],
    ['Es-Dur', 'Eb'],
    ['fis-Moll', 'F#m'],
    ['As', 'Ab'],
    ['Ab major', 'Ab'],
    ['C# minor', 'C#m'],
    ['Xs', undefined],
    ['Fs', undefined],
    ['E#', undefined],
    ['irgendwas', undefined]
  ]
  for (const [raw, key] of keys) assert.equal(mapKey(raw), key, raw)
  assert.deepEqual(splitNames('Lennon/McCartney'), ['Lennon', 'McCartney'])
  assert.deepEqual(splitNames('Benny Andersson, Björn Ulvaeus & Stig Anderson'), [
    'Benny Andersson',
    'Björn Ulvaeus',
    'Stig Anderson'
  ])
  assert.deepEqual(splitNames('Rodgers und Hammerstein; rodgers'), ['Rodgers', 'Hammerstein'])
  assert.deepEqual(splitNames('None'), [])
  assert.deepEqual(parseLinks('None'), { links: [], rest: [] })
  assert.deepEqual(parseLinks('https://a.example/x, youtu.be/abc  Probeaufnahme'), {
    links: ['https://a.example/x', 'https://youtu.be/abc'],
    rest: ['Probeaufnahme']
  })
  // Votes and answers as libreStage's web app stores them; `o` differs between the two.
  assert.deepEqual(
    ['a', 'NA', 'o', 'Ja', 'x'].map(mapVote),
    ['yes', 'no', 'abstain', 'yes', undefined]
  )
  assert.deepEqual(
    ['a', 'M', 'o', 'na', 'Vielleicht', 'NEIN'].map(mapAnswer),
    ['yes', 'maybe', 'no', 'no', 'maybe', 'no']
  )
  // bcrypt hashes in every spelling libreStage (and PHP) write are kept, marked; others are not.
  const hash = '$2b$12$' + 'a'.repeat(53)
  const keptHashes = [
    hash,
    hash.replace('2b', '2a'),
    hash.replace('2b', '2y'),
    '$2b$04$' + 'b'.repeat(53)
  ]
  for (const kept of keptHashes) {
    assert.equal(foreignPasswordHash(kept), `foreign:${kept}`, kept)
  }
  const refusedHashes = [
    'x',
    '',
    hash.replace('2b', '2x'),
    hash + 'a',
    hash.slice(0, -1),
    '$2b$3$' + 'a'.repeat(53),
    '$2b$32$' + 'a'.repeat(53),
    // A bcrypt hash, but too dear to check at login (cost 13 and up): a reset link instead.
    '$2b$13$' + 'a'.repeat(53),
    '$2y$31$' + 'a'.repeat(53)
  ]
  for (const refused of refusedHashes) {
    assert.equal(foreignPasswordHash(refused), null, refused)
  }
  const taken = new Set(['admin'])
  assert.equal(makeUsername('Jürgen Groß', 'user2', taken), 'Juergen.Gross')
  assert.equal(makeUsername('juergen.gross', 'user3', taken), 'juergen.gross-2')
  assert.equal(makeUsername('Admin', 'user4', taken), 'Admin-2')
  assert.equal(makeUsername('é', 'user5', taken), 'user5')
  assert.equal(makeUsername('anna@example.org', 'user6', taken), 'anna.example.org')
})
