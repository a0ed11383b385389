import { createLibreStageDb, insertRows } from '#test/librestage-fixture.js'

// A libreStage database of the bench's band at a scale factor (bench/scale-data.ts's sizes: 3
// members, 500 songs, 300 gigs with two sets of ten songs and 100 rehearsals per season, ×factor),
// in libreStage's own schema, for the import's row of the scale part.

const BCRYPT = '$2b$10$DdptPFP4ur3GkFgCTx78YeXvLwGi09.dw7q0BSkx7WGgjD/7Z8G16'
const at = (date: string, time = '00:00:00') => `${date} ${time}.000000`
const dayOf = (year: number, index: number, count: number) =>
  new Date(Date.UTC(year, 0, 1 + Math.floor((index * 365) / count))).toISOString().slice(0, 10)

export function buildScaledLibreStage (file: string, factor: number): void {
  const db = createLibreStageDb(file)
  try {
    const members = 3 * factor
    const songCount = 500 * factor
    insertRows(db, 'users', Array.from({ length: members }, (_, i) => ({
      id: i + 1,
      user_name: i === 0 ? 'admin' : `member${i}`,
      user_pw: BCRYPT,
      user_group: i === 0 ? 'admin' : 'user',
      email: `m${i}@example.org`,
      clear_name: `Member ${i}`,
      musician: 1,
      is_singer: i % 2,
      mm_username: null,
      status: 'active'
    })))
    insertRows(db, 'songs', Array.from({ length: songCount }, (_, i) => ({
      id: i + 1,
      title: `Song ${i + 1}`,
      interpret: `Artist ${i % 97}`,
      genre: 'Pop',
      singer_background: 'None',
      singer_lead: 'Member 1',
      dance_styles: null,
      composer: 'Müller, Hans / Weiß, Jörg',
      texter: 'Weiß, Jörg',
      publisher: null,
      arrangement: null,
      text: null,
      tone_key: ['C', 'G', 'Am', 'F#m', 'Bb'][i % 5]!,
      status: 'spielbar',
      comment: null,
      ytlink: '',
      duration: '00:03:30',
      brass: 0
    })))
    type Row = Record<string, string | number | null>
    const gigs: Row[] = []
    const sets: Row[] = []
    const gigSets: Row[] = []
    const setSongs: Row[] = []
    const answers: Row[] = []
    const rehearsals: Row[] = []
    const rehearsalSongs: Row[] = []
    for (let season = 0; season < factor; season++) {
      const year = 2025 - season
      for (let g = 0; g < 300; g++) {
        const gig: number = gigs.length + 1
        const date = dayOf(year, g, 300)
        gigs.push({
          id: gig,
          name: `Gig ${gig}`,
          date: at(date),
          organizer: 'Verein',
          kind_of_gig: 'Stadtfest',
          venue: 'Marktplatz',
          doors: null,
          begin: '20:00:00',
          end: '23:30:00',
          status: 'zugesagt',
          publish: 'nein',
          notes: ''
        })
        for (let s = 0; s < 2; s++) {
          const set: number = sets.length + 1
          sets.push({ id: set, name: `Set ${s + 1}`, pause: '00:15:00', setlist_name: null })
          gigSets.push({ id: set, id_gig: gig, id_set: set, position: s + 1 })
          for (let e = 0; e < 10; e++) {
            setSongs.push({
              id: setSongs.length + 1,
              id_set: set,
              id_song: ((gig * 7 + s * 10 + e) % songCount) + 1,
              position: e + 1,
              eingeschoben: 0,
              uebersprungen: e === 9 ? 1 : 0,
              feedback: 1 + (e % 3)
            })
          }
        }
        for (let a = 0; a < 3; a++) {
          answers.push({
            id: answers.length + 1,
            user_id: ((gig + a) % members) + 1,
            event_type: 'gig',
            event_id: gig,
            status: 'yes',
            comment: null,
            substitute_name: null,
            substitute_user_id: null
          })
        }
      }
      for (let r = 0; r < 100; r++) {
        const rehearsal: number = rehearsals.length + 1
        const date = dayOf(year, r, 100)
        rehearsals.push({
          id: rehearsal,
          comment: null,
          begin: at(date, '19:00:00'),
          end: at(date, '21:30:00'),
          ical: null
        })
        for (let k = 0; k < 5; k++) {
          rehearsalSongs.push({
            id: rehearsalSongs.length + 1,
            id_rehearsal: rehearsal,
            id_song: ((r * 5 + k) % songCount) + 1,
            comment: null,
            todo: null,
            done: 1
          })
        }
      }
    }
    insertRows(db, 'gigs', gigs)
    insertRows(db, 'sets', sets)
    insertRows(db, 'gig_sets', gigSets)
    insertRows(db, 'set_songs', setSongs)
    insertRows(db, 'availability', answers)
    insertRows(db, 'rehearsal', rehearsals)
    insertRows(db, 'rehearsal_song', rehearsalSongs)
  } finally {
    db.close()
  }
}
