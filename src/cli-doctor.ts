import type Database from 'better-sqlite3'
import type { CliIo } from './cli.js'
import { oneLine } from './terminal-text.js'
import { KEY_PATTERN } from '#shared/keys.js'

// `bandstand doctor`: what needs a person's look after an upgrade, a rollback or an import: songs
// whose key was written before keys were music and could not be read (kept as written in
// key_text), and songs whose stored key this version cannot read (an older version wrote it after
// this one migrated; the API shows it as written, in keyText).

/** Prints the findings; the exit code is 1 when there is something to fix, else 0. */
export function runDoctor (sqlite: Database.Database, io: CliIo): number {
  const migrated = sqlite
    .prepare("SELECT 1 FROM pragma_table_info('songs') WHERE name = 'key_text'")
    .get()
  if (!migrated) {
    io.err('the database is not migrated yet: run bandstand db:migrate first')
    return 1
  }
  const songs = sqlite
    .prepare(
      'SELECT id, title, key_text AS keyText FROM songs WHERE key_text IS NOT NULL ORDER BY id'
    )
    .all() as Array<{ id: number; title: string; keyText: string }>
  const canonical = new RegExp(KEY_PATTERN)
  const unreadable = (sqlite
    .prepare('SELECT id, title, key FROM songs WHERE key IS NOT NULL ORDER BY id')
    .all() as Array<{ id: number; title: string; key: string }>)
    .filter((song) => !canonical.test(song.key))
  if (songs.length === 0 && unreadable.length === 0) {
    io.out('no problems found')
    return 0
  }
  if (songs.length > 0) {
    io.out(`${songs.length} ${songs.length === 1 ? 'song has a key' : 'songs have keys'} that ` +
      'could not be read (shown as written until a key is chosen in the song form):')
    for (const song of songs) {
      io.out(`  #${song.id}  ${oneLine(song.title)}  key "${oneLine(song.keyText)}"`)
    }
  }
  if (unreadable.length > 0) {
    io.out(`${unreadable.length} stored ${unreadable.length === 1 ? 'key is' : 'keys are'} not ` +
      'in the form this version reads (written by an older version? shown as written until a ' +
      'key is chosen in the song form):')
    for (const song of unreadable) {
      io.out(`  #${song.id}  ${oneLine(song.title)}  key "${oneLine(song.key)}"`)
    }
  }
  return 1
}
