import type Database from 'better-sqlite3'
import { keyString, parseKey, type KeyNotation } from '#shared/keys.js'

// Keys written before they were music ("C-Dur", "fis-Moll", "H", "Ebm" …) become canonical keys
// ("C", "F#m", "B", "Ebm"); a value nobody can read moves to `key_text`, shown as written and
// listed by `bandstand doctor`. JavaScript rather than SQL: the same parser as the API and the
// import reads every spelling, and one table of spellings is kept in one place.

/** A key as written before → the canonical key, or the text kept when it cannot be read. */
export function readOldKey (
  written: string,
  notation: KeyNotation
): { key: string | null; keyText: string | null } {
  const parsed = parseKey(written, notation)
  if (parsed) return { key: keyString(parsed), keyText: null }
  const text = written.trim()
  return { key: null, keyText: text === '' ? null : text }
}

/** Whether the database has songs from before keys were music (asked before migrating). */
export function hasOldKeys (sqlite: Database.Database): boolean {
  const songs = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'songs'")
    .get()
  if (!songs) return false
  return sqlite.prepare("SELECT 1 FROM pragma_table_info('songs') WHERE name = 'key_text'")
    .get() === undefined
}

/**
 * Converts every song key, in one statement: run once, right after migration 0012 added
 * `key_text` (a canonical "B" written since means B natural and must not be read again). A bare
 * "B" is read in the band's chord notation: German unless the band chose English (the default of
 * older installations, whose key list was German).
 */
export function convertStoredKeys (sqlite: Database.Database): number {
  const rows = sqlite.prepare('SELECT id, key FROM songs WHERE key IS NOT NULL')
    .all() as Array<{ id: number; key: string }>
  if (rows.length === 0) return 0
  const setting = sqlite
    .prepare(
      "SELECT json_extract(config, '$.chordNotation') AS notation FROM app_settings " +
        'WHERE id = 1 AND json_valid(config)'
    )
    .get() as { notation: unknown } | undefined
  const notation: KeyNotation = setting?.notation === 'english' ? 'english' : 'german'
  const changes = rows.map((row) => ({ id: row.id, ...readOldKey(row.key, notation) }))
  sqlite
    .prepare(
      'UPDATE songs SET key = c.key, key_text = c.key_text FROM (' +
        "SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.key') AS key, " +
        "json_extract(value, '$.keyText') AS key_text FROM json_each(?)) AS c " +
        'WHERE songs.id = c.id'
    )
    .run(JSON.stringify(changes))
  return rows.length
}
