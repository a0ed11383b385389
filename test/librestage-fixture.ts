/* eslint-disable @stylistic/max-len -- demo records, one per line, read as tables */
import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { projectPath } from '#src/project-path.js'

// libreStage databases for the importer's tests, made from libreStage 0.5.33's own schema
// (test/fixtures/librestage-schema.sql: a copy of ../shared/fixtures/librestage-schema.sql,
// `sqlite3 app.db .schema` of the real demo database, kept in the repository so that the tests run
// in a clone without the shared folder beside it).
//
// The issue names ../shared/fixtures/librestage-demo.db, a database made by libreStage's demo
// script. When that file is present the tests import (a copy of) it; when it is not, they import
// the replica below: the same schema filled with a demo data set of the sizes the issue states
// (5 users, 20 songs, 24 rehearsals with 72 rehearsal songs, 3 gigs with 9 sets and 33 set songs,
// 23 of them in gig setlists and one skipped, 12 running-order items, 13 availability answers,
// 2 surveys with fields and answers, 2 repertoire lists, song votes, to-dos), stored the way
// SQLAlchemy stores it (DATETIME `YYYY-MM-DD HH:MM:SS.ffffff`, TIME `HH:MM:SS`, booleans 0/1,
// Python's `None` written as text where a demo script formats it into a string).

const SHARED_FIXTURES = projectPath('..', 'shared', 'fixtures')
export const LIBRESTAGE_SCHEMA_FILE = projectPath('test', 'fixtures', 'librestage-schema.sql')
export const SHARED_DEMO_FILE = join(SHARED_FIXTURES, 'librestage-demo.db')
export const ALEMBIC_VERSION = '8c2f4e1a9b3d'

/** The demo's passwords (libreStage's demo script: the admin's, the musicians'). */
export const DEMO_PASSWORDS = { admin: 'Admin1234!', musician: 'Demo1234!' }
/** bcrypt hashes of those as libreStage (Python's bcrypt) stores them; cost 10 here, 12 there. */
const ADMIN_BCRYPT = '$2a$10$n5Y/meEO78IJFgQixjjRvuHrogTqpuXhtNb2TsltuzvuPQ.nbgcyi'
const BCRYPT = '$2b$10$DdptPFP4ur3GkFgCTx78YeXvLwGi09.dw7q0BSkx7WGgjD/7Z8G16'

type Row = Record<string, string | number | null>

/** A new, empty libreStage database (its schema and alembic revision) at `file`. */
export function createLibreStageDb (file: string): Database.Database {
  const db = new Database(file)
  // As libreStage runs it: SQLAlchemy leaves SQLite's foreign keys off (todos' key to
  // rehearsal_song(id_rehearsal) could not even be checked: that column is not unique).
  db.pragma('foreign_keys = OFF')
  db.exec(readFileSync(LIBRESTAGE_SCHEMA_FILE, 'utf8'))
  db.prepare('INSERT INTO alembic_version (version_num) VALUES (?)').run(ALEMBIC_VERSION)
  return db
}

/** Inserts rows (objects with the same keys) into a libreStage table. */
export function insertRows (db: Database.Database, table: string, rows: Row[]): void {
  if (rows.length === 0) return
  const columns = Object.keys(rows[0]!)
  const insert = db.prepare(
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) ` +
      `VALUES (${columns.map((c) => `@${c}`).join(', ')})`
  )
  db.transaction(() => {
    for (const row of rows) insert.run(row)
  })()
}

/**
 * The shared demo database when it exists (copied: the fixture is never written), else the
 * replica, written to `dir`.
 */
export function libreStageDemo (dir: string): { file: string; replica: boolean } {
  const file = join(dir, 'app.db')
  if (existsSync(SHARED_DEMO_FILE)) {
    copyFileSync(SHARED_DEMO_FILE, file)
    return { file, replica: false }
  }
  buildDemoReplica(file)
  return { file, replica: true }
}

const stamp = (date: string, time = '00:00:00') => `${date} ${time}.000000`

const USERS: Row[] = [
  { id: 1, user_name: 'admin', user_pw: ADMIN_BCRYPT, user_group: 'admin', email: 'admin@example.org', clear_name: 'Administrator', musician: 0, is_singer: 0, mm_username: null, status: 'active' },
  { id: 2, user_name: 'anna', user_pw: BCRYPT, user_group: 'user', email: 'anna@example.org', clear_name: 'Anna Schäfer', musician: 1, is_singer: 1, mm_username: 'anna.schaefer', status: 'active' },
  { id: 3, user_name: 'bernd', user_pw: BCRYPT, user_group: 'user', email: 'bernd@example.org', clear_name: 'Bernd Krüger', musician: 1, is_singer: 0, mm_username: 'bernd', status: 'active' },
  { id: 4, user_name: 'carla', user_pw: BCRYPT, user_group: 'user', email: '', clear_name: 'Carla Weiß', musician: 1, is_singer: 1, mm_username: null, status: 'active' },
  { id: 5, user_name: 'dieter', user_pw: BCRYPT, user_group: 'user', email: 'dieter@example.org', clear_name: 'Dieter Hahn', musician: 1, is_singer: 0, mm_username: null, status: 'inactive' }
]

// Public-domain works and invented titles; composer fields as people type them in libreStage.
const SONGS: Array<[string, string, string, string, string | null, string | null, string, string, string]> = [
  // title, interpret, genre, key, composer, texter, duration, status, lead singer
  ['Die Gedanken sind frei', 'Traditionell', 'Volksmusik', 'G', 'Traditionell', 'Traditionell', '00:02:48', 'spielbar', 'Anna Schäfer'],
  ['Kein schöner Land', 'Traditionell', 'Volksmusik', 'D', 'Anton Wilhelm von Zuccalmaglio', 'Anton Wilhelm von Zuccalmaglio', '00:02:56', 'spielbar', 'Carla Weiß'],
  ['Der Mond ist aufgegangen', 'Traditionell', 'Ballade', 'Eb', 'Johann A. P. Schulz', 'Matthias Claudius', '00:03:21', 'spielbar', 'Anna Schäfer'],
  ['Am Brunnen vor dem Tore', 'Franz Schubert', 'Ballade', 'E', 'Franz Schubert', 'Wilhelm Müller', '00:04:02', 'spielbar', 'Carla Weiß'],
  ['Muss i denn', 'Traditionell', 'Volksmusik', 'F', 'Friedrich Silcher', 'Heinrich Wagner', '00:02:35', 'spielbar', 'Anna Schäfer'],
  ['Die Loreley', 'Traditionell', 'Ballade', 'Bb', 'Friedrich Silcher', 'Heinrich Heine', '00:03:50', 'spielbar', 'Carla Weiß'],
  ['When the Saints Go Marching In', 'Traditionell', 'Swing', 'Bb', 'Traditionell', null, '00:03:18', 'spielbar', 'Anna Schäfer'],
  ['House of the Rising Sun', 'Traditionell', 'Blues', 'Am', 'Traditionell', 'Traditionell', '00:04:28', 'spielbar', 'Carla Weiß'],
  ['Greensleeves', 'Traditionell', 'Ballade', 'Am', 'Traditionell', null, '00:03:15', 'spielbar', 'Carla Weiß'],
  ['The Entertainer', 'Scott Joplin', 'Jazz', 'C', 'Scott Joplin', null, '00:03:34', 'proben', 'None'],
  ['Maple Leaf Rag', 'Scott Joplin', 'Jazz', 'Ab', 'Scott Joplin', null, '00:03:10', 'proben', 'None'],
  ['Amazing Grace', 'Traditionell', 'Soul', 'G', 'Traditionell', 'John Newton', '00:04:00', 'proben', 'Anna Schäfer'],
  ['Scarborough Fair', 'Traditionell', 'Ballade', 'Em', 'Traditionell', 'Traditionell', '00:03:42', 'proben', 'Carla Weiß'],
  ['Sommer in Wanne-Eickel', 'Die Kohlenpottkinder', 'Schlager', 'A', 'Klaus Brenner / Maja Lindqvist', 'Maja Lindqvist', '00:03:28', 'angenommen', 'Anna Schäfer'],
  ['Neonlicht am Hafen', 'Marla & die Möwen', 'Pop', 'F#m', 'Marla Petersen', 'Marla Petersen', '00:03:51', 'angenommen', 'Carla Weiß'],
  ['Kaffee um Mitternacht', 'Trio Espresso', 'Jazz', 'Eb', 'Paolo Moretti, Ines Vogel', 'Ines Vogel', '00:04:36', 'angenommen', 'None'],
  ['Funky Frikadelle', 'Groove Bäckerei', 'Funk', 'Em', 'Daniel Okafor & Lutz Kranz', null, '00:04:05', 'vorschlag', 'Bernd Krüger'],
  ['Regen über Rüdesheim', 'Die Rheinperlen', 'Schlager', 'C', 'Gerd Albers', 'Rosi Winter', '00:03:19', 'vorschlag', 'Anna Schäfer'],
  ['Tanzschuh-Blues', 'Hannes Holzbein', 'Blues', 'E', 'Hannes Holzbein', 'Hannes Holzbein', '00:04:14', 'vorschlag', 'Bernd Krüger'],
  ['Camptown Races', 'Stephen Foster', 'Country', 'D', 'Stephen Foster', 'Stephen Foster', '00:02:13', 'retired', 'None']
]

const GIGS: Row[] = [
  { id: 1, name: 'Sommerfest Freiwillige Feuerwehr Oberhausen', date: stamp('2026-06-13'), organizer: 'FFW Oberhausen, Kommandant Huber', kind_of_gig: 'Stadtfest', venue: 'Festzelt am Sportplatz', doors: '18:00:00', begin: '19:30:00', end: '23:30:00', status: 'zugesagt', publish: 'ja', notes: 'Bühne 6 × 4 m, Strom vom Festwirt. Verpflegung frei.' },
  { id: 2, name: 'Hochzeit Lisa & Tobias', date: stamp('2026-09-19'), organizer: 'Lisa Brandt', kind_of_gig: 'Hochzeit', venue: 'Gut Rosenhof', doors: null, begin: '20:00:00', end: '01:00:00', status: 'zugesagt', publish: 'nein', notes: 'Eröffnungstanz: Muss i denn (langsam). Kein Schlager nach Mitternacht.' },
  { id: 3, name: 'Weinfest Rüdesheim', date: stamp('2026-10-03'), organizer: 'Winzerverein Rüdesheim', kind_of_gig: 'Weinfest', venue: 'Marktplatz', doors: null, begin: null, end: null, status: 'anfrage', publish: 'None', notes: '' }
]

// sets 1–3: gig 1; 4–5: gig 2; 6: gig 3; 7–8: "Hochzeit Standard"; 9: "Frühschoppen".
const SETS: Row[] = [
  { id: 1, name: 'Set 1', pause: '00:15:00', setlist_name: 'Sommerfest' },
  { id: 2, name: 'Set 2', pause: '00:15:00', setlist_name: 'Sommerfest' },
  { id: 3, name: 'Zugaben', pause: '00:10:00', setlist_name: 'Sommerfest' },
  { id: 4, name: 'Dinner', pause: '00:30:00', setlist_name: 'Hochzeit' },
  { id: 5, name: 'Party', pause: '00:10:00', setlist_name: 'Hochzeit' },
  { id: 6, name: 'Set 1', pause: '00:10:00', setlist_name: null },
  { id: 7, name: 'Empfang', pause: '00:20:00', setlist_name: 'Hochzeit Standard' },
  { id: 8, name: 'Tanz', pause: '00:10:00', setlist_name: 'Hochzeit Standard' },
  { id: 9, name: 'Frühschoppen', pause: '00:10:00', setlist_name: 'Frühschoppen' }
]
/** [set, songs in order]; gig 1's song 8 was skipped, song 12 inserted, the rest rated. */
const SET_SONGS: Array<[number, number[]]> = [
  [1, [1, 2, 5, 3, 8]], [2, [7, 4, 6, 9]], [3, [12, 13, 10, 11]],
  [4, [2, 3, 9, 13, 4]], [5, [7, 14, 15]],
  [6, [1, 16]],
  [7, [3, 9, 4, 2]], [8, [7, 5, 8]],
  [9, [1, 5, 12]]
]

const SCHEDULE: Row[] = [
  { gig_id: 1, item_datetime: stamp('2026-06-13', '15:00:00'), was: 'Aufbau', wer: 'Alle', wo: 'Festzelt', comment: 'Anhänger bei Bernd laden' },
  { gig_id: 1, item_datetime: stamp('2026-06-13', '17:00:00'), was: 'Soundcheck', wer: 'Band + Tontechnik', wo: 'Bühne', comment: null },
  { gig_id: 1, item_datetime: stamp('2026-06-13', '18:15:00'), was: 'Abendessen', wer: 'Alle', wo: 'Küchenzelt', comment: 'Gutscheine beim Festwirt' },
  { gig_id: 1, item_datetime: stamp('2026-06-13', '19:15:00'), was: 'Umziehen', wer: 'Alle', wo: 'Umkleide Sportheim', comment: null },
  { gig_id: 1, item_datetime: stamp('2026-06-13', '23:45:00'), was: 'Abbau', wer: 'Alle', wo: 'Festzelt', comment: '' },
  { gig_id: 2, item_datetime: stamp('2026-09-19', '14:00:00'), was: 'Aufbau', wer: 'Bernd, Dieter', wo: 'Saal', comment: null },
  { gig_id: 2, item_datetime: stamp('2026-09-19', '16:00:00'), was: 'Sektempfang (Duo)', wer: 'Anna, Carla', wo: 'Terrasse', comment: 'Akustisch, ohne PA' },
  { gig_id: 2, item_datetime: stamp('2026-09-19', '18:00:00'), was: 'Soundcheck', wer: 'Alle', wo: 'Saal', comment: null },
  { gig_id: 2, item_datetime: stamp('2026-09-19', '21:30:00'), was: 'Eröffnungstanz', wer: 'Brautpaar', wo: 'Tanzfläche', comment: 'Muss i denn, langsam' },
  { gig_id: 3, item_datetime: stamp('2026-10-03', '13:00:00'), was: 'Aufbau', wer: 'Alle', wo: 'Marktplatz', comment: null },
  { gig_id: 3, item_datetime: stamp('2026-10-03', '14:30:00'), was: 'Soundcheck', wer: 'Alle', wo: 'Bühne', comment: null },
  { gig_id: 3, item_datetime: stamp('2026-10-03', '15:00:00'), was: 'Frühschoppen', wer: 'Alle', wo: 'Bühne', comment: 'Programm Frühschoppen' }
]

const AVAILABILITY: Row[] = [
  { user_id: 2, event_type: 'gig', event_id: 2, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 3, event_type: 'gig', event_id: 2, status: 'yes', comment: 'Komme direkt von der Arbeit', substitute_name: null, substitute_user_id: null },
  { user_id: 4, event_type: 'gig', event_id: 2, status: 'maybe', comment: 'Familienfeier, kläre ich', substitute_name: null, substitute_user_id: null },
  { user_id: 5, event_type: 'gig', event_id: 2, status: 'no', comment: 'Urlaub', substitute_name: 'Jan (Bass, Musikschule)', substitute_user_id: null },
  { user_id: 2, event_type: 'gig', event_id: 3, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 3, event_type: 'gig', event_id: 3, status: 'no', comment: null, substitute_name: null, substitute_user_id: 5 },
  { user_id: 4, event_type: 'gig', event_id: 3, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 1, event_type: 'gig', event_id: 1, status: 'yes', comment: 'Technik', substitute_name: null, substitute_user_id: null },
  { user_id: 2, event_type: 'rehearsal', event_id: 23, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 3, event_type: 'rehearsal', event_id: 23, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 4, event_type: 'rehearsal', event_id: 23, status: 'no', comment: 'Krank', substitute_name: null, substitute_user_id: null },
  { user_id: 2, event_type: 'rehearsal', event_id: 24, status: 'maybe', comment: null, substitute_name: null, substitute_user_id: null },
  { user_id: 3, event_type: 'rehearsal', event_id: 24, status: 'yes', comment: null, substitute_name: null, substitute_user_id: null }
]

const CHECKLIST: Row[] = [
  { gig_id: 2, title: 'Vertrag unterschrieben zurück', category: 'Orga', assignee_user_id: 1, assignee_name: null, done: 1, due_datetime: stamp('2026-07-01', '12:00:00'), position: 0, comment: null },
  { gig_id: 2, title: 'Liederwünsche des Brautpaars einholen', category: 'Orga', assignee_user_id: 2, assignee_name: null, done: 0, due_datetime: stamp('2026-09-01', '18:00:00'), position: 1, comment: 'Per Mail an Lisa' },
  { gig_id: 2, title: 'Funkstrecken laden', category: 'Technik', assignee_user_id: 3, assignee_name: null, done: 0, due_datetime: null, position: 2, comment: null },
  { gig_id: 2, title: 'Anhänger reservieren', category: 'Transport', assignee_user_id: null, assignee_name: 'Onkel Heinz', done: 0, due_datetime: stamp('2026-09-12', '10:00:00'), position: 3, comment: null }
]

/** Builds the replica of libreStage's demo database at `file`. */
export function buildDemoReplica (file: string): void {
  const db = createLibreStageDb(file)
  try {
    insertRows(db, 'users', USERS)
    insertRows(
      db,
      'songs',
      SONGS.map(([title, interpret, genre, key, composer, texter, duration, status, lead], i) => ({
        id: i + 1,
        title,
        interpret,
        genre,
        singer_background: lead === 'Anna Schäfer' ? 'Carla Weiß' : 'None',
        singer_lead: lead,
        dance_styles: genre === 'Swing' ? 'Foxtrott' : genre === 'Ballade' ? 'Langsamer Walzer' : null,
        composer,
        texter,
        publisher: interpret === 'Traditionell' ? null : 'Edition Notenschlüssel',
        arrangement: i % 4 === 0 ? 'Bernd Krüger' : null,
        text: i < 3 ? `${title}\n(Strophe 1 …)` : null,
        tone_key: key,
        status,
        comment: status === 'vorschlag' ? 'Vorschlag für die Hochzeitssaison' : null,
        ytlink: i % 3 === 0 ? `https://www.youtube.com/watch?v=demo${i + 1}` : i % 3 === 1 ? 'None' : '',
        duration,
        brass: i % 5 === 0 ? 1 : 0
      }))
    )
    // Votes on the three proposals (song_feedback): as libreStage's web app writes them (a = yes,
    // na = no, o = abstain) and, older, in words.
    insertRows(
      db,
      'song_feedback',
      [
        [17, 2, 'a'], [17, 3, 'ja'], [17, 4, 'na'],
        [18, 2, 'ja'], [18, 4, 'a'], [18, 1, 'o'],
        [19, 3, 'ja'], [19, 2, 'nein']
      ].map(([song, user, feedback], i) => ({
        id: i + 1,
        song_id: song!,
        user_id: user!,
        date: stamp('2026-05-0' + (1 + (i % 8)), '20:15:00'),
        feedback: feedback!
      }))
    )
    // 24 weekly rehearsals (Thursdays from 8 January 2026), three songs each.
    const rehearsals: Row[] = []
    const rehearsalSongs: Row[] = []
    for (let i = 0; i < 24; i++) {
      const date = new Date(Date.UTC(2026, 0, 8 + 7 * i)).toISOString().slice(0, 10)
      rehearsals.push({
        id: i + 1,
        comment: i % 6 === 0 ? 'Proberaum Jugendhaus, Schlüssel bei Bernd' : null,
        begin: stamp(date, '19:30:00'),
        end: stamp(date, i === 11 ? '22:30:00' : '22:00:00'),
        ical: null
      })
      for (let k = 0; k < 3; k++) {
        rehearsalSongs.push({
          id: i * 3 + k + 1,
          id_rehearsal: i + 1,
          id_song: ((i * 3 + k) % 16) + 1,
          comment: k === 0 ? 'Einstieg sauber, Tempo halten' : null,
          todo: k === 1 && i % 4 === 0 ? 'Chorsatz üben' : null,
          done: i < 20 ? 1 : 0
        })
      }
    }
    insertRows(db, 'rehearsal', rehearsals)
    insertRows(db, 'rehearsal_song', rehearsalSongs)
    insertRows(db, 'todos', [
      { id: 1, id_song: 3, id_reh: 23, id_user: 2, todo: 'Text der 3. Strophe lernen', dt: stamp('2026-06-10'), done: 0 },
      { id: 2, id_song: 4, id_reh: 23, id_user: 3, todo: 'Solo ausarbeiten', dt: null, done: 1 },
      { id: 3, id_song: 14, id_reh: 24, id_user: 4, todo: 'Zweite Stimme notieren', dt: stamp('2026-06-18'), done: 0 }
    ])
    insertRows(db, 'gigs', GIGS)
    insertRows(db, 'sets', SETS)
    insertRows(db, 'gig_sets', [
      { id: 1, id_gig: 1, id_set: 1, position: 1 },
      { id: 2, id_gig: 1, id_set: 2, position: 2 },
      { id: 3, id_gig: 1, id_set: 3, position: 3 },
      { id: 4, id_gig: 2, id_set: 4, position: 1 },
      { id: 5, id_gig: 2, id_set: 5, position: 2 },
      { id: 6, id_gig: 3, id_set: 6, position: 1 }
    ])
    let setSongId = 0
    insertRows(
      db,
      'set_songs',
      SET_SONGS.flatMap(([set, songs]) =>
        songs.map((song, position) => {
          const played = set <= 3
          return {
            id: ++setSongId,
            id_set: set,
            id_song: song,
            position: position + 1,
            eingeschoben: played && song === 12 ? 1 : 0,
            uebersprungen: played && song === 8 ? 1 : 0,
            feedback: played && song !== 8 ? 1 + (song % 3) : null
          }
        })
      )
    )
    insertRows(db, 'repertoire_setlists', [
      { id: 1, name: 'Hochzeit Standard', created_at: stamp('2026-02-01', '21:10:00') },
      { id: 2, name: 'Frühschoppen', created_at: stamp('2026-03-15', '10:00:00') }
    ])
    insertRows(db, 'repertoire_setlist_sets', [
      { id: 1, repertoire_setlist_id: 1, set_id: 7, position: 1 },
      { id: 2, repertoire_setlist_id: 1, set_id: 8, position: 2 },
      { id: 3, repertoire_setlist_id: 2, set_id: 9, position: 1 }
    ])
    insertRows(db, 'gig_schedule_items', SCHEDULE.map((row, i) => ({ id: i + 1, ...row })))
    insertRows(db, 'availability', AVAILABILITY.map((row, i) => ({ id: i + 1, ...row })))
    insertRows(db, 'gig_checklist_items', CHECKLIST.map((row, i) => ({ id: i + 1, ...row })))
    insertRows(db, 'surveys', [
      { id: 1, kind_of_survey: 'termin', rf_survey: 'Termin für das Bandfoto-Shooting', released: 1, closed: 0, user_created: 1, release_date: stamp('2026-04-20', '09:00:00'), datum: stamp('2026-04-20', '08:55:00') },
      { id: 2, kind_of_survey: 'umfrage', rf_survey: 'Welche Farbe sollen die neuen Bühnenhemden haben?', released: 1, closed: 1, user_created: 2, release_date: stamp('2026-03-01', '18:00:00'), datum: stamp('2026-03-01', '17:45:00') }
    ])
    insertRows(db, 'survey_field', [
      { id: 1, id_survey: 1, field_text: '2026-05-09 14:00:00' },
      { id: 2, id_survey: 1, field_text: '2026-05-16 14:00:00' },
      { id: 3, id_survey: 1, field_text: '2026-05-23 11:00:00' },
      { id: 4, id_survey: 2, field_text: 'Schwarz' },
      { id: 5, id_survey: 2, field_text: 'Dunkelblau' },
      { id: 6, id_survey: 2, field_text: 'Weinrot' }
    ])
    insertRows(
      db,
      'survey_feedback',
      [
        // the date survey as libreStage's web app writes it: a = yes, m = maybe, o = no
        [1, 2, 'a'], [2, 2, 'o'], [3, 2, 'm'],
        [1, 3, 'a'], [2, 3, 'a'], [3, 3, 'o'],
        [1, 4, 'o'], [2, 4, 'a'], [3, 4, 'a'],
        // the poll in words, as libreStage's demo script writes them
        [4, 2, 'ja'], [5, 2, 'nein'], [6, 2, 'Nein'],
        [4, 3, 'nein'], [5, 3, 'JA'], [6, 3, 'nein'],
        [4, 4, 'ja'], [5, 4, 'ja'], [6, 4, 'vielleicht']
      ].map(([field, user, value], i) => ({
        id: i + 1,
        id_sv_field: field!,
        id_user: user!,
        datum: stamp('2026-04-2' + (1 + (i % 5)), '19:00:00'),
        value: value!,
        comment: value === 'vielleicht' || value === 'm' ? 'Hängt vom Dienstplan ab' : null
      }))
    )
    // What a running libreStage leaves behind: sessions and token hashes (never imported).
    insertRows(db, 'refresh_tokens', [
      { id: 1, token_hash: 'a'.repeat(64), user_id: 1, expires_at: stamp('2026-07-01'), created_at: stamp('2026-06-01'), revoked: 0 },
      { id: 2, token_hash: 'b'.repeat(64), user_id: 2, expires_at: stamp('2026-07-02'), created_at: stamp('2026-06-02'), revoked: 1 }
    ])
    insertRows(db, 'token_blacklist', [
      { id: 1, token_hash: 'c'.repeat(64), blacklisted_at: stamp('2026-06-02'), expires_at: stamp('2026-06-03') }
    ])
  } finally {
    db.close()
  }
}
