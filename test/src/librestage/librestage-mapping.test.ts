import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importLibreStage } from '#src/librestage/import.js'
import type { LibreStageReport, TableReport } from '#src/librestage/report.js'
import { readLibreStage } from '#src/librestage/source.js'
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
import { foreignPasswordHash, UNUSABLE_PASSWORD_HASH } from '#src/auth/password.js'
import { createTestApp, json, userClient, type Ok, type TestContext } from '#test/helpers.js'
import { createLibreStageDb, insertRows } from '#test/librestage-fixture.js'

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

const at = (date: string, time = '00:00:00') => `${date} ${time}.000000`

/* eslint-disable @stylistic/max-len -- one source record per line reads as a table */
/** A small libreStage database with every odd value the importer must handle. */
function buildOddDatabase (file: string): void {
  const db = createLibreStageDb(file)
  const user = { user_pw: 'x', email: null, clear_name: null, musician: 1, is_singer: 0, mm_username: null }
  insertRows(db, 'users', [
    { ...user, id: 1, user_name: 'admin', user_group: 'admin', status: 'active', clear_name: 'Chefin' },
    { ...user, id: 2, user_name: 'Jürgen Groß', user_group: 'roadie', status: 'active', clear_name: 'Jürgen Groß', email: 'kein-mail', musician: null },
    { ...user, id: 3, user_name: 'juergen.gross', user_group: 'bandleader', status: 'pausiert', user_pw: `$2b$16$${'a'.repeat(53)}` }
  ])
  const song = {
    interpret: null,
    genre: null,
    singer_background: null,
    singer_lead: null,
    dance_styles: null,
    composer: null,
    texter: null,
    publisher: null,
    arrangement: null,
    text: null,
    tone_key: null,
    status: 'spielbar',
    comment: null,
    ytlink: null,
    duration: null,
    brass: null
  }
  insertRows(db, 'songs', [
    { ...song, id: 1, text: 'Hey Jude, don\'t make it bad\r\n[F]Take a sad song\r\n', title: 'Hey Jude', composer: 'Lennon/McCartney', texter: 'John Lennon & Paul McCartney', tone_key: 'F#m', duration: '00:03:45', ytlink: 'None', genre: 'Beat', singer_lead: '', interpret: '' },
    { ...song, id: 2, title: '', status: 'verschollen', tone_key: 'X7', duration: 'lang', ytlink: 'youtu.be/abc https://example.org/x Probeaufnahme', brass: 2, dance_styles: 'Discofox' },
    { ...song, id: 3, text: 'ä'.repeat(40_000), title: 'Bb-Test', tone_key: 'Bb', duration: '03:20', status: 'vorschlag' }
  ])
  insertRows(db, 'song_feedback', [
    { id: 1, song_id: 3, user_id: 1, date: at('2026-01-02'), feedback: 'nein' },
    { id: 2, song_id: 3, user_id: 1, date: at('2026-01-01'), feedback: 'ja' },
    { id: 3, song_id: 3, user_id: 2, date: at('2026-01-01'), feedback: 'super Song!' },
    { id: 4, song_id: 99, user_id: 2, date: at('2026-01-01'), feedback: 'ja' },
    // libreStage's web app: a = yes, na = no, o = abstain (any case)
    { id: 5, song_id: 1, user_id: 1, date: at('2026-01-01'), feedback: 'NA' },
    { id: 6, song_id: 1, user_id: 2, date: at('2026-01-01'), feedback: 'o' },
    { id: 7, song_id: 2, user_id: 2, date: at('2026-01-01'), feedback: 'a' }
  ])
  const gig = { organizer: null, kind_of_gig: null, venue: null, doors: null, begin: null, end: null, publish: null, notes: null }
  insertRows(db, 'gigs', [
    { ...gig, id: 1, name: 'Stadtfest', date: at('2026-07-04'), status: 'vielleicht', venue: '', organizer: 'None', kind_of_gig: 'Dorffest' },
    { ...gig, id: 2, name: 'Ohne Sets', date: '2026-08-01', begin: '20:00:00', end: '25:00:00', status: 'abgelehnt' },
    { ...gig, id: 3, name: 'Ohne Datum', date: null, status: 'anfrage' }
  ])
  insertRows(db, 'sets', [
    { id: 1, name: 'Hauptset', pause: '00:20:00', setlist_name: null },
    { id: 2, name: '', pause: 'lang', setlist_name: null },
    { id: 3, name: 'Altes Set', pause: '00:10:00', setlist_name: null }
  ])
  insertRows(db, 'gig_sets', [
    { id: 1, id_gig: 1, id_set: 2, position: 2 },
    { id: 2, id_gig: 1, id_set: 1, position: 1 },
    { id: 3, id_gig: 3, id_set: 1, position: 1 },
    { id: 4, id_gig: 1, id_set: 77, position: 3 }
  ])
  const entry = { eingeschoben: 0, uebersprungen: 0, feedback: null }
  insertRows(db, 'set_songs', [
    { ...entry, id: 1, id_set: 1, id_song: 1, position: 1, feedback: 5 },
    { ...entry, id: 2, id_set: 1, id_song: 99, position: 2 },
    { ...entry, id: 3, id_set: 1, id_song: 3, position: 3, uebersprungen: 1, feedback: 2 },
    { ...entry, id: 4, id_set: 2, id_song: 2, position: 1, eingeschoben: 1 },
    { ...entry, id: 5, id_set: 3, id_song: 1, position: 1 }
  ])
  insertRows(db, 'repertoire_setlists', [{ id: 1, name: 'Standard', created_at: at('2026-01-05', '10:00:00') }])
  insertRows(db, 'repertoire_setlist_sets', [{ id: 1, repertoire_setlist_id: 1, set_id: 1, position: 1 }])
  insertRows(db, 'rehearsal', [
    { id: 1, comment: '', begin: at('2026-03-05', '19:00:00'), end: null, ical: 'None' },
    { id: 2, comment: 'Lange Probe', begin: at('2026-03-12', '20:00:00'), end: at('2026-03-13', '01:00:00'), ical: null },
    { id: 3, comment: null, begin: null, end: null, ical: null }
  ])
  insertRows(db, 'rehearsal_song', [
    { id: 1, id_rehearsal: 1, id_song: 1, comment: '', todo: 'Bridge', done: 1 },
    { id: 2, id_rehearsal: 3, id_song: 1, comment: null, todo: null, done: 0 },
    { id: 3, id_rehearsal: 1, id_song: 99, comment: null, todo: null, done: 0 }
  ])
  insertRows(db, 'todos', [
    { id: 1, id_song: 1, id_reh: 1, id_user: 2, todo: 'Solo üben', dt: at('2026-03-04'), done: 1 },
    { id: 2, id_song: 3, id_reh: 2, id_user: 1, todo: 'Text lernen', dt: null, done: 0 },
    { id: 3, id_song: 1, id_reh: 3, id_user: 1, todo: 'Verloren', dt: null, done: 0 }
  ])
  const answer = { comment: null, substitute_name: null, substitute_user_id: null }
  insertRows(db, 'availability', [
    { ...answer, id: 1, user_id: 2, event_type: 'gig', event_id: 1, status: 'ja' },
    { ...answer, id: 2, user_id: 1, event_type: 'gig', event_id: 2, status: 'hmm' },
    { ...answer, id: 3, user_id: 1, event_type: 'rehearsal', event_id: 1, status: 'vielleicht', comment: 'Spät', substitute_name: 'Tom' },
    { ...answer, id: 4, user_id: 1, event_type: 'konzert', event_id: 1, status: 'ja' },
    { ...answer, id: 5, user_id: 2, event_type: 'gig', event_id: 3, status: 'ja' }
  ])
  insertRows(db, 'surveys', [
    { id: 1, kind_of_survey: 'termin', rf_survey: 'Probewochenende', released: 0, closed: 0, user_created: 42, release_date: at('2026-02-01'), datum: at('2026-02-01', '12:00:00') },
    { id: 2, kind_of_survey: 'Terminumfrage', rf_survey: 'Wann grillen wir?\nBitte bis Freitag.', released: 1, closed: 0, user_created: 2, release_date: at('2026-02-02'), datum: at('2026-02-02') }
  ])
  insertRows(db, 'survey_field', [
    { id: 1, id_survey: 1, field_text: '05.06.2026 19:00' },
    { id: 2, id_survey: 1, field_text: 'Fr, 12.06.2026' },
    { id: 3, id_survey: 2, field_text: 'irgendwann' },
    { id: 4, id_survey: 2, field_text: 'nie' }
  ])
  insertRows(db, 'survey_feedback', [
    { id: 1, id_sv_field: 1, id_user: 1, datum: at('2026-02-03'), value: 'ja', comment: null },
    { id: 2, id_sv_field: 2, id_user: 1, datum: at('2026-02-03'), value: 'weiß nicht', comment: null },
    { id: 3, id_sv_field: 3, id_user: 2, datum: at('2026-02-03'), value: 'x', comment: 'gern' },
    { id: 4, id_sv_field: 9, id_user: 2, datum: at('2026-02-03'), value: 'ja', comment: null },
    // libreStage's date polls: a = yes, m = maybe, o = no (any case); a comment of 250 characters
    { id: 5, id_sv_field: 1, id_user: 2, datum: at('2026-02-03'), value: 'M', comment: 'x'.repeat(250) },
    { id: 6, id_sv_field: 2, id_user: 2, datum: at('2026-02-03'), value: 'o', comment: '  ' },
    { id: 7, id_sv_field: 4, id_user: 2, datum: at('2026-02-03'), value: 'A', comment: null }
  ])
  insertRows(db, 'gig_checklist_items', [
    { id: 1, gig_id: 1, title: 'Kabel', category: 'Technik', assignee_user_id: null, assignee_name: 'jürgen groß', done: 0, due_datetime: at('2026-07-01', '18:00:00'), position: 5, comment: null },
    { id: 2, gig_id: 1, title: '', category: null, assignee_user_id: null, assignee_name: 'Onkel Heinz', done: 1, due_datetime: 'bald', position: 2, comment: null },
    { id: 3, gig_id: 3, title: 'Weg', category: null, assignee_user_id: null, assignee_name: null, done: 0, due_datetime: null, position: 1, comment: null }
  ])
  insertRows(db, 'gig_schedule_items', [
    { id: 1, gig_id: 1, item_datetime: '2026-07-04', was: '', wer: 'Alle', wo: 'None', comment: null },
    { id: 2, gig_id: 3, item_datetime: at('2026-07-04', '10:00:00'), was: 'Aufbau', wer: '', wo: '', comment: null }
  ])
  // A newer libreStage: a table and a column this importer does not know.
  db.exec("CREATE TABLE setlist_colors (id INTEGER PRIMARY KEY, color TEXT); INSERT INTO setlist_colors VALUES (1, 'rot')")
  db.exec('ALTER TABLE songs ADD COLUMN capo INTEGER; UPDATE songs SET capo = 2 WHERE id = 1')
  db.close()
}
/* eslint-enable @stylistic/max-len */

const table = (report: LibreStageReport, name: string): TableReport =>
  report.tables.find((t) => t.table === name)!
const reasons = (report: LibreStageReport, name: string) =>
  Object.fromEntries(table(report, name).skipped.map((s) => [s.reason, s.ids]))
const changes = (report: LibreStageReport, name: string) =>
  table(report, name).changed.map((c) => c.note)

async function importOdd (t: { after(fn: () => unknown): void }): Promise<{
  ctx: TestContext
  report: LibreStageReport
}> {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-odd-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'app.db')
  buildOddDatabase(file)
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const report = importLibreStage(ctx.app, readLibreStage(file), {
    now: ctx.now(),
    baseUrl: 'https://band.example'
  })
  return { ctx, report }
}

test('odd values: users, songs and votes', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  for (const t of report.tables) {
    assert.equal(t.imported + t.skipped.reduce((n, s) => n + s.count, 0), t.read, t.table)
  }

  assert.deepEqual(
    report.users.map((u) => [u.sourceUsername, u.username, u.role, u.status]),
    [
      ['admin', 'admin', 'admin', 'active'],
      ['Jürgen Groß', 'Juergen.Gross', 'member', 'active'],
      ['juergen.gross', 'juergen.gross-2', 'editor', 'inactive']
    ]
  )
  assert.ok(changes(report, 'users').includes('user_group "roadie" unknown: imported as member'))
  assert.ok(changes(report, 'users').includes('status "pausiert" unknown: imported as inactive'))
  assert.ok(changes(report, 'users').includes('e-mail address not valid: left empty'))
  const users = q('SELECT username, email, is_musician, password_hash FROM users ORDER BY id')
  assert.equal(users[1]!.email, null)
  assert.equal(users[1]!.is_musician, 1, 'unknown musician flag: a musician')
  assert.ok(
    users.every((u) => u.password_hash === UNUSABLE_PASSWORD_HASH),
    '"x" is no bcrypt hash, cost 16 too dear: nothing kept'
  )
  assert.ok(
    changes(report, 'users').includes(
      'password hash not bcrypt: the member sets a password with a reset link'
    )
  )
  assert.ok(changes(report, 'users').includes('bcrypt cost above 12 (too slow to check at ' +
    'login): the member sets a password with a reset link'))
  assert.deepEqual(
    report.resetLinks.map((l) => l.username),
    ['admin', 'Juergen.Gross'],
    'links for active users whose password was not kept, without --reset-links too'
  )

  const songs = q('SELECT * FROM songs ORDER BY id')
  assert.deepEqual(JSON.parse(songs[0]!.composers), ['Lennon', 'McCartney'])
  assert.deepEqual(JSON.parse(songs[0]!.lyricists), ['John Lennon', 'Paul McCartney'])
  assert.equal(songs[0]!.key, 'F#m')
  assert.equal(songs[0]!.duration_seconds, 225)
  assert.equal(songs[0]!.links, '[]', '"None" is no link')
  assert.equal(songs[0]!.lead_singer, null, 'an empty string is no value')
  assert.equal(songs[0]!.artist, null)
  assert.equal(songs[0]!.genre, 'Beat')
  assert.deepEqual(report.addedToConfig, { genres: ['Beat'], gigKinds: ['Dorffest'] })
  const config = JSON.parse(String(q('SELECT config FROM app_settings')[0]!.config))
  assert.ok(config.genres.includes('Beat') && config.gigKinds.includes('Dorffest'))
  assert.equal(songs[1]!.title, 'Ohne Titel (libreStage #2)')
  assert.equal(songs[1]!.status, 'accepted')
  assert.equal(songs[1]!.key, null)
  // An unreadable key is kept as written, and the report names the song.
  assert.equal(songs[1]!.key_text, 'X7')
  assert.ok(changes(report, 'songs').includes(
    'key "X7" of #2 "Ohne Titel (libreStage #2)" unreadable: kept as written'
  ))
  assert.equal(songs[1]!.duration_seconds, null)
  assert.deepEqual(JSON.parse(songs[1]!.links), ['https://youtu.be/abc', 'https://example.org/x'])
  assert.equal(
    songs[1]!.notes,
    'Tanzstil: Discofox\nBläser: 2\nDauer (libreStage): lang\n' +
      'Links (libreStage): Probeaufnahme'
  )
  assert.ok(changes(report, 'songs').includes('status "verschollen" unknown: imported as accepted'))
  // libreStage's lyrics are the chart (line ends normalized); over 64 KiB they are cut.
  assert.equal(songs[0]!.chart, "Hey Jude, don't make it bad\n[F]Take a sad song")
  assert.equal(songs[1]!.chart, null)
  assert.ok(Buffer.byteLength(songs[2]!.chart) <= 65536)
  assert.ok(songs[2]!.chart.endsWith('ää…'))
  assert.ok(changes(report, 'songs').includes('lyrics over 64 KiB: shortened'))
  assert.equal(songs[2]!.key, 'Bb')
  assert.equal(songs[2]!.duration_seconds, 200)
  assert.equal(songs[2]!.status, 'proposed')

  assert.deepEqual(
    q('SELECT song_id AS s, user_id AS u, vote FROM song_votes ORDER BY song_id, user_id'),
    [
      { s: songs[0]!.id, u: 1, vote: 'no' },
      { s: songs[0]!.id, u: 2, vote: 'abstain' },
      { s: songs[1]!.id, u: 2, vote: 'yes' },
      { s: songs[2]!.id, u: 1, vote: 'no' }
    ]
  )
  assert.deepEqual(reasons(report, 'song_feedback'), {
    'a later vote of the same member counts': [2],
    'vote "super Song!" is neither yes, no nor abstain': [3],
    'the song no longer exists': [4]
  })
  assert.deepEqual(
    report.notImported.tables.map((t) => t.table),
    ['setlist_colors'],
    'an unknown table is listed'
  )
  assert.ok(report.notImported.columns.some((c) => c.table === 'songs' && c.column === 'capo'))
})

test('odd values: gigs, sets, setlists, repertoire, running order, checklist', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  const admin = await userClient(ctx.app, 'boss', 'admin')

  const gigs = q('SELECT * FROM gigs ORDER BY id')
  assert.equal(gigs.length, 2)
  assert.deepEqual(reasons(report, 'gigs'), { 'no date': [3] })
  const [fest, noSets] = gigs
  assert.equal(fest!.status, 'inquiry')
  assert.equal(fest!.start_time, null, 'NULL times stay empty')
  assert.equal(fest!.doors_time, null)
  assert.equal(fest!.venue_name, null)
  assert.equal(fest!.organizer_name, null, '"None" is no organizer')
  assert.equal(fest!.kind, 'Dorffest')
  assert.ok(changes(report, 'gigs').includes('status "vielleicht" unknown: imported as inquiry'))
  assert.equal(noSets!.status, 'declined')
  assert.equal(noSets!.start_time, '20:00')
  assert.equal(noSets!.end_time, null)
  assert.equal(noSets!.notes, 'Ende (libreStage): 25:00:00')

  // A gig without sets has an empty setlist.
  const empty = json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await admin.get(`/gigs/${noSets!.id}/setlist`))
  assert.deepEqual(empty.sets, [])
  // Sets in libreStage's order; the deleted song is left out and reported; the skipped song keeps
  // no rating, the out-of-range rating is dropped, the inserted song counts as played.
  const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await admin.get(`/gigs/${fest!.id}/setlist`))
  assert.deepEqual(
    setlist.sets.map((set: any) => [
      set.name,
      set.customBreakAfterSeconds,
      set.entries.map((e: any) => [e.song.title, e.status, e.inserted, e.rating])
    ]),
    [
      [
        'Hauptset',
        1200,
        [
          ['Hey Jude', 'planned', false, null],
          ['Bb-Test', 'skipped', false, null]
        ]
      ],
      ['Set 2', null, [['Ohne Titel (libreStage #2)', 'played', true, null]]]
    ]
  )
  assert.deepEqual(reasons(report, 'set_songs'), {
    'the song no longer exists': [2],
    'its set was not imported': [5]
  })
  assert.deepEqual(reasons(report, 'gig_sets'), {
    'the gig was not imported': [3],
    'the set no longer exists': [4]
  })
  assert.deepEqual(reasons(report, 'sets'), { 'in no gig and no repertoire list': [3] })
  assert.ok(changes(report, 'sets').includes('used by several gigs or lists: copied into each'))
  assert.ok(changes(report, 'set_songs').includes('rating outside 1–3: left out'))
  assert.ok(changes(report, 'set_songs').includes('rating of a skipped song left out'))

  // The set shared with a repertoire list is copied there, without a live record.
  const lists = json<Ok<'/repertoire', 'get'>>(await admin.get('/repertoire'))
  assert.deepEqual(lists.map((l: any) => [l.name, l.setCount, l.songCount]), [['Standard', 1, 2]])
  const list = json<Ok<'/repertoire/{id}', 'get'>>(await admin.get(`/repertoire/${lists[0]!.id}`))
  assert.deepEqual(
    list.sets[0]!.entries.map((e: any) => [e.song.title, e.status]),
    [['Hey Jude', 'planned'], ['Bb-Test', 'planned']]
  )

  const schedule = q('SELECT * FROM gig_schedule_items')
  assert.deepEqual(
    schedule.map((s) => [s.at, s.title, s.who, s.where]),
    [['2026-07-04T00:00', 'Programmpunkt', 'Alle', null]]
  )
  assert.deepEqual(reasons(report, 'gig_schedule_items'), { 'the gig was not imported': [2] })

  const checklist = json<Ok<'/gigs/{id}/checklist', 'get'>>(
    await admin.get(`/gigs/${fest!.id}/checklist`))
  assert.deepEqual(
    checklist.map((i: any) => [i.position, i.title, i.assigneeName, i.dueAt, i.done, i.notes]),
    [
      [0, 'Aufgabe', null, null, true, 'Zuständig: Onkel Heinz\nFällig (libreStage): bald'],
      [1, 'Kabel', 'Jürgen Groß', '2026-07-01T18:00', false, null]
    ]
  )
  assert.deepEqual(reasons(report, 'gig_checklist_items'), { 'the gig was not imported': [3] })
})

test('odd values: rehearsals, to-dos, availability, surveys', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  const admin = await userClient(ctx.app, 'boss', 'admin')

  const rehearsals = json<Ok<'/rehearsals', 'get'>>(await admin.get('/rehearsals'))
  assert.deepEqual(
    rehearsals.map((r: any) => [r.date, r.startTime, r.endTime, r.notes]),
    [
      ['2026-03-05', '19:00', '21:00', null],
      [
        '2026-03-12',
        '20:00',
        '23:59',
        'Lange Probe\nTo-do Chefin: Text lernen (zu „Bb-Test“)'
      ]
    ]
  )
  assert.deepEqual(rehearsals[0]!.songs.map((s: any) => [s.title, s.done, s.notes]), [
    ['Hey Jude', true, 'To-do: Bridge\nTo-do Jürgen Groß: Solo üben (bis 04.03.2026) – erledigt']
  ])
  assert.deepEqual(reasons(report, 'rehearsal'), { 'no start date': [3] })
  assert.ok(changes(report, 'rehearsal').includes('no end: start + 2 h'))
  assert.deepEqual(reasons(report, 'rehearsal_song'), {
    'the rehearsal was not imported': [2],
    'the song no longer exists': [3]
  })
  assert.deepEqual(reasons(report, 'todos'), { 'the rehearsal was not imported': [3] })

  assert.deepEqual(q('SELECT user_id AS u, status, note FROM gig_availability'), [
    { u: 2, status: 'yes', note: null }
  ])
  assert.deepEqual(q('SELECT user_id AS u, status, note FROM rehearsal_availability'), [
    { u: 1, status: 'maybe', note: 'Spät\nErsatz: Tom' }
  ])
  assert.deepEqual(reasons(report, 'availability'), {
    'status "hmm" unknown': [2],
    'event type "konzert" unknown': [4],
    'the gig was not imported': [5]
  })

  const surveys = q('SELECT * FROM surveys ORDER BY id')
  assert.deepEqual(
    surveys.map((s) => [s.title, s.description, s.kind, s.status, s.created_by]),
    [
      ['Probewochenende', null, 'date', 'closed', 1],
      ['Wann grillen wir?', 'Bitte bis Freitag.', 'poll', 'open', 2]
    ]
  )
  const surveyChanges = changes(report, 'surveys')
  assert.ok(surveyChanges.includes('creator gone: owned by an admin'))
  assert.ok(surveyChanges.includes('not released in libreStage (a draft): imported closed'))
  assert.ok(
    surveyChanges.includes('date survey with options that are no dates: imported as a poll')
  )
  assert.deepEqual(
    q('SELECT label, at FROM survey_options ORDER BY id').map((o) => [o.label, o.at]),
    [
      ['05.06.2026 19:00', '2026-06-05T19:00'],
      ['Fr, 12.06.2026', '2026-06-12T00:00'],
      ['irgendwann', null],
      ['nie', null]
    ]
  )
  assert.deepEqual(
    q('SELECT option_id AS o, user_id AS u, value, comment FROM survey_answers ORDER BY 1, 2'),
    [
      { o: 1, u: 1, value: 'yes', comment: null },
      { o: 1, u: 2, value: 'maybe', comment: 'x'.repeat(199) + '…' },
      { o: 2, u: 2, value: 'no', comment: null },
      { o: 3, u: 2, value: 'yes', comment: 'gern' },
      { o: 4, u: 2, value: 'yes', comment: null }
    ]
  )
  assert.ok(changes(report, 'survey_feedback').includes('comment shortened to 200 characters'))
  assert.deepEqual(reasons(report, 'survey_feedback'), {
    'value "weiß nicht" is not yes, maybe or no': [2],
    'the option was not imported': [4]
  })
  assert.ok(!report.notImported.columns.some((c) => c.column === 'comment'), 'comments imported')
})
