import type { Db } from '#src/db/client.js'
import { songs, songVotes } from '#src/db/schema.js'
import type { SongStatus } from '#shared/enums.js'
import { writtenRow } from '#src/db/returning.js'

type Status = SongStatus
interface DemoSong {
  title: string
  artist: string
  genre: string
  key: string
  durationSeconds: number
  tempoBpm: number
  composers: string[]
  lyricists?: string[]
  arrangers?: string[]
  publisher?: string
  status?: Status
  leadSinger?: string
  isOriginal?: boolean
  publicDomain?: boolean
}

// Public-domain works (composers and lyricists dead for more than 70 years, or traditional) and
// clearly fictional titles; every GEMA work number below is invented. Names are "Lastname,
// Firstname" as the GEMA export expects.
const ARR = ['Hoffmann, Max']
const digits = (n: number, width: number) => String(n).padStart(width, '0')
const iswcOf = (i: number) =>
  `T-${digits(300 + i, 3)}.${digits(100 + i * 3, 3)}.${digits((500 + i * 7) % 1000, 3)}-${i % 10}`
/* eslint-disable @stylistic/max-len -- one demo record per line reads as a table */
// prettier-ignore
const DEMO_SONGS: DemoSong[] = [
  { publicDomain: true, title: 'The Entertainer', artist: 'Scott Joplin', genre: 'Jazz', key: 'C', durationSeconds: 214, tempoBpm: 76, composers: ['Joplin, Scott'], arrangers: ARR },
  { publicDomain: true, title: 'Maple Leaf Rag', artist: 'Scott Joplin', genre: 'Jazz', key: 'Ab', durationSeconds: 190, tempoBpm: 92, composers: ['Joplin, Scott'], arrangers: ARR },
  { publicDomain: true, title: 'Solace', artist: 'Scott Joplin', genre: 'Latin', key: 'F', durationSeconds: 285, tempoBpm: 68, composers: ['Joplin, Scott'], status: 'rehearsing' },
  { publicDomain: true, title: 'Die Gedanken sind frei', artist: 'Traditionell', genre: 'Volksmusik', key: 'G', durationSeconds: 168, tempoBpm: 100, composers: ['Traditionell'], lyricists: ['Traditionell'], arrangers: ARR, leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'Kein schöner Land', artist: 'Traditionell', genre: 'Volksmusik', key: 'D', durationSeconds: 176, tempoBpm: 84, composers: ['Zuccalmaglio, Anton Wilhelm von'], lyricists: ['Zuccalmaglio, Anton Wilhelm von'], leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'Der Mond ist aufgegangen', artist: 'Traditionell', genre: 'Ballade', key: 'Eb', durationSeconds: 201, tempoBpm: 66, composers: ['Schulz, Johann Abraham Peter'], lyricists: ['Claudius, Matthias'], leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'Am Brunnen vor dem Tore', artist: 'Franz Schubert', genre: 'Ballade', key: 'E', durationSeconds: 242, tempoBpm: 72, composers: ['Schubert, Franz'], lyricists: ['Müller, Wilhelm'], arrangers: ARR, leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'Muss i denn', artist: 'Traditionell', genre: 'Volksmusik', key: 'F', durationSeconds: 155, tempoBpm: 96, composers: ['Silcher, Friedrich'], lyricists: ['Wagner, Heinrich'], leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'Die Loreley', artist: 'Traditionell', genre: 'Ballade', key: 'Bb', durationSeconds: 230, tempoBpm: 70, composers: ['Silcher, Friedrich'], lyricists: ['Heine, Heinrich'], leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'Ännchen von Tharau', artist: 'Traditionell', genre: 'Volksmusik', key: 'G', durationSeconds: 172, tempoBpm: 88, composers: ['Silcher, Friedrich'], lyricists: ['Dach, Simon'], status: 'accepted' },
  { publicDomain: true, title: 'When the Saints Go Marching In', artist: 'Traditionell', genre: 'Swing', key: 'Bb', durationSeconds: 198, tempoBpm: 168, composers: ['Traditionell'], arrangers: ARR, leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'House of the Rising Sun', artist: 'Traditionell', genre: 'Blues', key: 'Am', durationSeconds: 268, tempoBpm: 118, composers: ['Traditionell'], lyricists: ['Traditionell'], arrangers: ARR, leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'Oh! Susanna', artist: 'Stephen Foster', genre: 'Country', key: 'C', durationSeconds: 150, tempoBpm: 120, composers: ['Foster, Stephen'], lyricists: ['Foster, Stephen'], leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'Beautiful Dreamer', artist: 'Stephen Foster', genre: 'Ballade', key: 'D', durationSeconds: 205, tempoBpm: 63, composers: ['Foster, Stephen'], lyricists: ['Foster, Stephen'], leadSinger: 'Sophie Wagner', status: 'rehearsing' },
  { publicDomain: true, title: 'Camptown Races', artist: 'Stephen Foster', genre: 'Country', key: 'D', durationSeconds: 133, tempoBpm: 132, composers: ['Foster, Stephen'], lyricists: ['Foster, Stephen'], status: 'retired' },
  { publicDomain: true, title: 'Auld Lang Syne', artist: 'Traditionell', genre: 'Ballade', key: 'F', durationSeconds: 180, tempoBpm: 76, composers: ['Traditionell'], lyricists: ['Burns, Robert'], leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'Scarborough Fair', artist: 'Traditionell', genre: 'Ballade', key: 'Em', durationSeconds: 222, tempoBpm: 90, composers: ['Traditionell'], lyricists: ['Traditionell'], leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'Greensleeves', artist: 'Traditionell', genre: 'Ballade', key: 'Am', durationSeconds: 195, tempoBpm: 84, composers: ['Traditionell'], arrangers: ARR, status: 'accepted' },
  { publicDomain: true, title: 'Amazing Grace', artist: 'Traditionell', genre: 'Soul', key: 'G', durationSeconds: 240, tempoBpm: 60, composers: ['Traditionell'], lyricists: ['Newton, John'], leadSinger: 'Sophie Wagner' },
  { publicDomain: true, title: 'La Cucaracha', artist: 'Traditionell', genre: 'Latin', key: 'C', durationSeconds: 162, tempoBpm: 140, composers: ['Traditionell'], lyricists: ['Traditionell'], leadSinger: 'Lena Berger' },
  { publicDomain: true, title: 'An der schönen blauen Donau', artist: 'Johann Strauss (Sohn)', genre: 'Swing', key: 'D', durationSeconds: 320, tempoBpm: 168, composers: ['Strauss, Johann'], arrangers: ARR, status: 'retired' },
  // Fictional repertoire (invented titles, writers and publishers).
  { title: 'Sommer in Wanne-Eickel', artist: 'Die Kohlenpottkinder', genre: 'Schlager', key: 'A', durationSeconds: 208, tempoBpm: 124, composers: ['Brenner, Klaus'], lyricists: ['Brenner, Klaus', 'Lindqvist, Maja'], publisher: 'Edition Notenschlüssel', leadSinger: 'Lena Berger' },
  { title: 'Neonlicht am Hafen', artist: 'Marla & die Möwen', genre: 'Pop', key: 'F#m', durationSeconds: 231, tempoBpm: 110, composers: ['Petersen, Marla'], lyricists: ['Petersen, Marla'], publisher: 'Klangfeld Musikverlag', leadSinger: 'Sophie Wagner' },
  { title: 'Kaffee um Mitternacht', artist: 'Trio Espresso', genre: 'Jazz', key: 'Eb', durationSeconds: 276, tempoBpm: 96, composers: ['Moretti, Paolo', 'Vogel, Ines'], publisher: 'Edition Notenschlüssel' },
  { title: 'Tanzschuh-Blues', artist: 'Hannes Holzbein', genre: 'Blues', key: 'E', durationSeconds: 254, tempoBpm: 102, composers: ['Holzbein, Hannes'], lyricists: ['Holzbein, Hannes'], publisher: 'Klangfeld Musikverlag', leadSinger: 'Lena Berger' },
  { title: 'Regen über Rüdesheim', artist: 'Die Rheinperlen', genre: 'Schlager', key: 'C', durationSeconds: 199, tempoBpm: 118, composers: ['Albers, Gerd'], lyricists: ['Winter, Rosi'], publisher: 'Edition Weinberg', leadSinger: 'Sophie Wagner' },
  { title: 'Funky Frikadelle', artist: 'Groove Bäckerei', genre: 'Funk', key: 'Em', durationSeconds: 245, tempoBpm: 108, composers: ['Okafor, Daniel', 'Kranz, Lutz'], publisher: 'Klangfeld Musikverlag' },
  { title: 'Disco im Dorfkrug', artist: 'Die Landeier', genre: 'Disco', key: 'Gm', durationSeconds: 227, tempoBpm: 124, composers: ['Brenner, Klaus'], lyricists: ['Lindqvist, Maja'], publisher: 'Edition Notenschlüssel', leadSinger: 'Lena Berger' },
  { title: 'Zwei Herzen, ein Akkord', artist: 'Vera Vogt', genre: 'Schlager', key: 'F', durationSeconds: 213, tempoBpm: 128, composers: ['Vogt, Vera', 'Albers, Gerd'], lyricists: ['Vogt, Vera'], publisher: 'Edition Weinberg', leadSinger: 'Sophie Wagner', status: 'rehearsing' },
  { title: 'Autobahn nach Süden', artist: 'Kilometerfresser', genre: 'Rock', key: 'D', durationSeconds: 262, tempoBpm: 138, composers: ['Schrader, Tom'], lyricists: ['Schrader, Tom'], publisher: 'Klangfeld Musikverlag', leadSinger: 'Lena Berger' },
  { title: 'Salsa im Sauerland', artist: 'Orquesta Hochsauerland', genre: 'Latin', key: 'Cm', durationSeconds: 288, tempoBpm: 180, composers: ['Álvarez, Lucía'], lyricists: ['Álvarez, Lucía', 'Kranz, Lutz'], publisher: 'Edition Notenschlüssel', status: 'accepted' },
  { title: 'Kettle Creek Road', artist: 'The Fictional Ramblers', genre: 'Country', key: 'G', durationSeconds: 196, tempoBpm: 112, composers: ['Hollis, June'], lyricists: ['Hollis, June'], publisher: 'Bluegrass Invented Music' },
  { title: 'Midnight Laundry', artist: 'Velvet Spin Cycle', genre: 'Soul', key: 'Bb', durationSeconds: 238, tempoBpm: 86, composers: ['Reyes, Marcus', 'Okafor, Daniel'], lyricists: ['Reyes, Marcus'], publisher: 'Klangfeld Musikverlag', leadSinger: 'Sophie Wagner' },
  { title: 'Letzte Runde', artist: 'Unsere Band', genre: 'Eigenes', key: 'A', durationSeconds: 247, tempoBpm: 132, composers: ['Hoffmann, Max', 'Richter, Jonas'], lyricists: ['Berger, Lena'], isOriginal: true, leadSinger: 'Lena Berger' },
  { title: 'Proberaum 7', artist: 'Unsere Band', genre: 'Eigenes', key: 'Bm', durationSeconds: 301, tempoBpm: 98, composers: ['Wagner, Sophie'], lyricists: ['Wagner, Sophie'], isOriginal: true, leadSinger: 'Sophie Wagner', status: 'rehearsing' },
  // Proposals waiting for votes.
  { title: 'Glitzer & Gummistiefel', artist: 'Festivalkinder', genre: 'Pop', key: 'E', durationSeconds: 204, tempoBpm: 122, composers: ['Lindqvist, Maja'], lyricists: ['Lindqvist, Maja'], publisher: 'Edition Notenschlüssel', status: 'proposed' },
  { title: 'Heartbeat Avenue', artist: 'The Imaginary Hearts', genre: 'Rock', key: 'Am', durationSeconds: 233, tempoBpm: 126, composers: ['Cole, Ruby'], lyricists: ['Cole, Ruby'], publisher: 'Bluegrass Invented Music', status: 'proposed' },
  { title: 'Hochzeitswalzer für Jana', artist: 'Trio Espresso', genre: 'Ballade', key: 'Eb', durationSeconds: 186, tempoBpm: 84, composers: ['Vogel, Ines'], publisher: 'Edition Notenschlüssel', status: 'proposed' },
  { publicDomain: true, title: 'Scott Joplin Medley', artist: 'Scott Joplin', genre: 'Jazz', key: 'C', durationSeconds: 3720, tempoBpm: 84, composers: ['Joplin, Scott'], arrangers: ARR, status: 'proposed' },
  { title: 'Bayou Breakdown', artist: 'Gumbo Junction', genre: 'Funk', key: 'F', durationSeconds: 252, tempoBpm: 104, composers: ['Boudreaux, Remy', 'Okafor, Daniel'], publisher: 'Klangfeld Musikverlag', status: 'proposed' }
]
/* eslint-enable @stylistic/max-len */

export interface SeededSongs {
  songIds: number[]
  /** Songs a setlist can use right away (status ready). */
  readySongIds: number[]
  proposedSongIds: number[]
}

/**
 * About forty songs with full GEMA data (work number, writers, publisher), varied statuses, and
 * votes on the proposals. Synchronous, one transaction.
 */
export function seedSongs (db: Db, ctx: { now: Date; userIds: number[] }): SeededSongs {
  const stamp = ctx.now.toISOString()
  return db.transaction((tx) => {
    const result: SeededSongs = { songIds: [], readySongIds: [], proposedSongIds: [] }
    DEMO_SONGS.forEach((song, i) => {
      const status = song.status ?? 'ready'
      const publicDomain = song.publicDomain === true
      const row = writtenRow(
        tx
          .insert(songs)
          .values({
            title: song.title,
            artist: song.artist,
            genre: song.genre,
            durationSeconds: song.durationSeconds,
            key: song.key,
            tempoBpm: song.tempoBpm,
            leadSinger: song.leadSinger ?? null,
            backingVocals:
              song.leadSinger === 'Lena Berger'
                ? 'Sophie Wagner'
                : song.leadSinger
                  ? 'Lena Berger'
                  : null,
            composers: song.composers,
            lyricists: song.lyricists ?? [],
            arrangers: song.arrangers ?? [],
            publisher: song.publisher ?? (publicDomain ? null : 'Edition Notenschlüssel'),
            gemaWorkNumber: `${digits(5100000 + i * 7919, 7)}-${digits((i % 9) + 1, 3)}`,
            iswc: publicDomain ? null : iswcOf(i),
            isOriginal: song.isOriginal ?? false,
            status,
            notes: status === 'rehearsing' ? 'Schluss noch unsauber' : null,
            links: [`https://example.org/repertoire/${i + 1}`],
            proposedBy:
              status === 'proposed'
                ? (ctx.userIds[(i % Math.max(1, ctx.userIds.length - 1)) + 1] ??
                  ctx.userIds[0] ??
                  null)
                : null,
            createdAt: stamp,
            updatedAt: stamp
          })
          .returning({ id: songs.id })
      )
      result.songIds.push(row.id)
      if (status === 'ready') result.readySongIds.push(row.id)
      if (status === 'proposed') result.proposedSongIds.push(row.id)
    })
    // Most members have voted on most proposals; a few votes are still missing (GET /me/todos shows
    // them).
    const votes = ['yes', 'yes', 'no', 'abstain', 'yes'] as const
    result.proposedSongIds.forEach((songId, p) => {
      ctx.userIds.forEach((userId, u) => {
        if ((p + u) % 4 === 3) return
        tx.insert(songVotes)
          .values({ songId, userId, vote: votes[(p * 3 + u) % votes.length]!, updatedAt: stamp })
          .run()
      })
    })
    return result
  })
}
