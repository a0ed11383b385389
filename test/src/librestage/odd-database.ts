// A libreStage database with every odd value the importer must handle, and readers of the
// importer's report on it (the mapping tests).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importLibreStage } from '#src/librestage/import.js'
import type { LibreStageReport, TableReport } from '#src/librestage/report.js'
import { readLibreStage } from '#src/librestage/source.js'
import { createTestApp, type TestContext } from '#test/helpers.js'
import { createLibreStageDb, insertRows } from '#test/librestage-fixture.js'

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
export const reasons = (report: LibreStageReport, name: string) =>
  Object.fromEntries(table(report, name).skipped.map((s) => [s.reason, s.ids]))
export const changes = (report: LibreStageReport, name: string) =>
  table(report, name).changed.map((c) => c.note)

/** The odd database imported into a fresh app: the app and the importer's report. */
export async function importOdd (t: { after(fn: () => unknown): void }): Promise<{
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
