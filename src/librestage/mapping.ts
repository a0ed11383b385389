import type { songVotes } from '#src/db/schema.js'
import {
  BCRYPT_MAX_COST, bcryptCost, foreignPasswordHash, UNUSABLE_PASSWORD_HASH
} from '#src/auth/password.js'
import type { TableTally } from './report.js'
import {
  UNMAPPED_COLUMNS,
  type LibreStageSource,
  type LibreStageTable,
  type SourceValue
} from './source.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import {
  cleanEmail,
  cleanText,
  flag,
  makeUsername,
  mapRole,
  mapSongStatus,
  mapUserStatus,
  mapVote,
  parseDuration,
  parseLinks,
  splitNames,
  toInstant
} from './values.js'
import { mapKey } from './keys.js'
import { fit, joinNotes, MapState, type ImportPlan, type MappingContext } from './state.js'
import { mapEvents } from './mapping-events.js'
import { mapSurveys } from './mapping-surveys.js'

// libreStage rows → Bandstand rows, in memory and without touching a database: the result is
// written in one transaction (import.ts), or only reported (--dry-run). Ids are allocated here from
// the first free id of each table, so rows can refer to each other before anything is written.

export type { ImportPlan, MappingContext } from './state.js'

const num = (value: unknown) => Number(value)

/** Builds the import plan. Pure: the same source and context give the same plan. */
export function mapLibreStage (source: LibreStageSource, ctx: MappingContext): ImportPlan {
  const s = new MapState(source, ctx)
  const config = structuredClone(ctx.config)
  const added = { genres: [] as string[], gigKinds: [] as string[] }
  const label = (list: 'genres' | 'gigKinds', tally: TableTally, raw: string | null) => {
    const text = fit(tally, raw, 60, list === 'genres' ? 'genre' : 'gig kind')
    if (text === null) return null
    const known = config[list].find((l) => l.toLowerCase() === text.toLowerCase())
    if (known) return known
    if (config[list].length >= 100) {
      tally.changed(`"${text}" left out: the configuration holds at most 100 ${list}`)
      return null
    }
    config[list].push(text)
    added[list].push(text)
    return text
  }
  const newUsers = mapUsers(s)
  mapSongs(s, (tally, raw) => label('genres', tally, raw))
  mapVotes(s)
  mapEvents(s, (tally, raw) => label('gigKinds', tally, raw))
  mapSurveys(s)

  const notImportedColumns = Object.entries(UNMAPPED_COLUMNS).flatMap(([table, columns]) =>
    Object.entries(columns).map(([column, reason]) => ({
      table,
      column,
      values: source.rows[table as LibreStageTable].filter((row) => cleanText(row[column]) !== null)
        .length,
      reason
    }))
  ).filter((c) => c.values > 0)
  return {
    rows: s.rows,
    config: added.genres.length || added.gigKinds.length ? config : null,
    newUsers,
    report: {
      source: {
        file: source.file,
        bytes: source.bytes,
        sha256: source.fingerprint,
        alembicVersion: source.alembicVersion
      },
      tables: s.tallies.map((t) => t.report),
      notImported: {
        tables: [
          ...source.leftOutTables.filter((t) => t.table !== 'alembic_version' && t.rows > 0),
          ...source.unknownTables.map((t) => ({
            ...t,
            reason: 'unknown to this importer (a newer libreStage?)'
          }))
        ],
        columns: [
          ...notImportedColumns,
          ...source.unknownColumns.map((c) => ({
            ...c,
            reason: 'unknown to this importer (a newer libreStage?)'
          }))
        ]
      },
      addedToConfig: added,
      users: s.reportedUsers
    }
  }
}

function mapUsers (s: MapState): ImportPlan['newUsers'] {
  const tally = s.tally('users', 'users')
  const existing = new Map(s.ctx.existingUsers.map((u) => [u.username.toLowerCase(), u]))
  const taken = new Set(existing.keys())
  const report = s.reportedUsers
  const created: ImportPlan['newUsers'] = []
  for (const row of s.source.rows.users) {
    const sourceId = num(row.id)
    const raw = cleanText(row.user_name)
    const match = raw === null ? undefined : existing.get(raw.toLowerCase())
    if (match) {
      s.users.set(sourceId, match.id)
      s.userNames.set(match.id, match.displayName)
      tally.imported()
      tally.changed('matched an existing Bandstand user by username: that account is kept')
      report.push({
        sourceId,
        sourceUsername: raw,
        username: match.username,
        displayName: match.displayName,
        role: match.role,
        status: 'active',
        merged: true,
        passwordKept: false
      })
      continue
    }
    const clearName = cleanText(row.clear_name)
    const username = makeUsername(raw ?? clearName ?? '', `user${sourceId}`, taken)
    if (username !== raw) tally.changed("username changed to Bandstand's rules (see Users)")
    let role = mapRole(row.user_group)
    if (role === undefined) {
      tally.changed(`user_group "${cleanText(row.user_group) ?? ''}" unknown: imported as member`)
      role = 'member'
    }
    let status = mapUserStatus(row.status)
    if (status === undefined) {
      tally.changed(`status "${cleanText(row.status) ?? ''}" unknown: imported as inactive`)
      status = 'inactive'
    }
    const email = cleanEmail(row.email)
    if (email === undefined) tally.changed('e-mail address not valid: left empty')
    const displayName = fit(tally, clearName, 80, 'display name') ?? username
    // libreStage's bcrypt hash is kept, marked as foreign: the member logs in with their
    // libreStage password, which is then rehashed (plugins/sessions/routes.ts).
    const passwordHash = foreignPasswordHash(cleanText(row.user_pw) ?? '')
    if (passwordHash === null) {
      tally.changed(bcryptCost(cleanText(row.user_pw) ?? '') === null
        ? 'password hash not bcrypt: the member sets a password with a reset link'
        : `bcrypt cost above ${BCRYPT_MAX_COST} (too slow to check at login): the member sets ` +
          'a password with a reset link')
    }
    const id = s.id('users')
    s.rows.users.push({
      id,
      username,
      displayName,
      email: email ?? null,
      role,
      status,
      isMusician: row.musician === null ? true : flag(row.musician),
      isSinger: flag(row.is_singer),
      instruments: [],
      passwordHash: passwordHash ?? UNUSABLE_PASSWORD_HASH,
      passwordChangeRequired: false,
      createdAt: s.stamp,
      updatedAt: s.stamp
    })
    s.users.set(sourceId, id)
    s.userNames.set(id, displayName)
    created.push({ id, passwordKept: passwordHash !== null })
    tally.imported()
    report.push({
      sourceId,
      sourceUsername: raw,
      username,
      displayName,
      role,
      status,
      merged: false,
      passwordKept: passwordHash !== null
    })
  }
  return created
}

function mapSongs (
  s: MapState,
  genre: (tally: TableTally, raw: string | null) => string | null
): void {
  const tally = s.tally('songs', 'songs')
  const names = (value: unknown, what: string) => {
    const list = splitNames(value as string).map((n) => fit(tally, n, 120, `a ${what} name`)!)
    if (list.length <= 10) return list
    tally.changed(`${what}s: more than 10 names, the first 10 kept`)
    return list.slice(0, 10)
  }
  for (const row of s.source.rows.songs) {
    const sourceId = num(row.id)
    let title = fit(tally, cleanText(row.title), 200, 'title')
    if (title === null) {
      tally.changed('no title: named "Ohne Titel (libreStage #id)"')
      title = `Ohne Titel (libreStage #${sourceId})`
    }
    let status = mapSongStatus(row.status)
    if (status === undefined) {
      tally.changed(`status "${cleanText(row.status) ?? ''}" unknown: imported as accepted`)
      status = 'accepted'
    }
    const rawKey = cleanText(row.tone_key)
    const key = mapKey(rawKey)
    if (key === undefined) {
      // One note per song, so that the report lists each (bandstand doctor lists them too).
      tally.changed(`key "${rawKey}" of #${sourceId} "${title}" unreadable: kept as written`)
    }
    let duration = parseDuration(row.duration)
    if (duration !== undefined && duration !== null && duration > 7200) duration = undefined
    if (duration === undefined) tally.changed('duration unreadable or over 2 h: kept in the notes')
    const { links, rest } = parseLinks(row.ytlink)
    if (rest.length) tally.changed('link text that is no http(s) URL: kept in the notes')
    const brass = cleanText(row.brass)
    const notes = joinNotes(
      cleanText(row.comment),
      cleanText(row.dance_styles) && `Tanzstil: ${cleanText(row.dance_styles)}`,
      brass !== null && brass !== '0' && `Bläser: ${brass === '1' ? 'ja' : brass}`,
      duration === undefined && `Dauer (libreStage): ${cleanText(row.duration)}`,
      rest.length > 0 && `Links (libreStage): ${rest.join(' ')}`
    )
    const id = s.id('songs')
    s.rows.songs.push({
      id,
      title,
      artist: fit(tally, cleanText(row.interpret), 200, 'artist'),
      genre: genre(tally, cleanText(row.genre)),
      durationSeconds: duration ?? null,
      key: key ?? null,
      keyText: key === undefined ? fit(tally, rawKey, 60, 'key') : null,
      tempoBpm: null,
      leadSinger: fit(tally, cleanText(row.singer_lead), 120, 'lead singer'),
      backingVocals: fit(tally, cleanText(row.singer_background), 200, 'backing vocals'),
      composers: names(row.composer, 'composer'),
      lyricists: names(row.texter, 'lyricist'),
      arrangers: names(row.arrangement, 'arranger'),
      publisher: fit(tally, cleanText(row.publisher), 200, 'publisher'),
      gemaWorkNumber: null,
      iswc: null,
      isOriginal: false,
      status,
      notes: fit(tally, notes, 2000, 'notes'),
      chart: songChart(tally, row.text),
      links: links.slice(0, 10),
      proposedBy: null,
      createdAt: s.stamp,
      updatedAt: s.stamp
    })
    if (links.length > 10) tally.changed('more than 10 links: the first 10 kept')
    s.songs.set(sourceId, id)
    s.songTitles.set(id, title)
    tally.imported()
  }
}

/**
 * libreStage's lyrics become the song's chart: plain lyrics are a valid ChordPro chart. Line ends
 * are normalized; a text over the chart limit (64 KiB of UTF-8) is cut and reported.
 */
function songChart (tally: TableTally, raw: SourceValue | undefined): string | null {
  let text = cleanText(raw)
  if (text === null) return null
  if (Buffer.byteLength(text) <= MAX_CHART_BYTES) return text
  // Whole code points, a kilobyte at a time (never half a surrogate pair).
  while (Buffer.byteLength(text) > MAX_CHART_BYTES - 3) text = [...text].slice(0, -1024).join('')
  tally.changed('lyrics over 64 KiB: shortened')
  return `${text}…`
}

/** song_feedback holds the members' votes on proposed songs; the latest per member counts. */
function mapVotes (s: MapState): void {
  const tally = s.tally('song_feedback', 'song_votes')
  const latest = new Map<string, { sourceId: number; row: (typeof songVotes.$inferInsert) }>()
  const ordered = [...s.source.rows.song_feedback].sort(
    (a, b) => String(a.date ?? '').localeCompare(String(b.date ?? '')) || num(a.id) - num(b.id)
  )
  for (const row of ordered) {
    const sourceId = num(row.id)
    const songId = s.songs.get(num(row.song_id))
    const userId = s.users.get(num(row.user_id))
    const vote = mapVote(row.feedback)
    if (songId === undefined) tally.skip(sourceId, 'the song no longer exists')
    else if (userId === undefined) tally.skip(sourceId, 'the user no longer exists')
    else if (vote === undefined) {
      tally.skip(sourceId, `vote "${cleanText(row.feedback) ?? ''}" is neither yes, no nor abstain`)
    } else {
      const key = `${songId}:${userId}`
      const earlier = latest.get(key)
      if (earlier) tally.skip(earlier.sourceId, 'a later vote of the same member counts')
      latest.set(key, {
        sourceId,
        row: { songId, userId, vote, updatedAt: toInstant(row.date) ?? s.stamp }
      })
    }
  }
  for (const { row } of latest.values()) {
    s.rows.songVotes.push(row)
    tally.imported()
  }
}
