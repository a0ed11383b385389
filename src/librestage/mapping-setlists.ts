import type { EntryStatus } from '#shared/enums.js'
import type { SourceRow } from './source.js'
import { fit, type MapState } from './state.js'
import { cleanText, flag, mapRating, parseDuration, toInstant } from './values.js'

// libreStage keeps sets apart from what uses them: `gig_sets` and `repertoire_setlist_sets` point
// at rows of `sets`, whose songs are `set_songs`. Bandstand's sets belong to one gig or one
// repertoire list, so a set used twice is copied into each; a set nobody uses is reported.

const num = (value: unknown) => Number(value)
const byPosition = (a: SourceRow, b: SourceRow) =>
  num(a.position) - num(b.position) || num(a.id) - num(b.id)

interface SetUse {
  /** The Bandstand set this use became. */
  setId: number
  gigId: number | null
  repertoireId: number | null
}

export function mapSetlists (s: MapState): void {
  const sets = new Map(s.source.rows.sets.map((row) => [num(row.id), row]))
  const setSongs = new Map<number, SourceRow[]>()
  for (const row of [...s.source.rows.set_songs].sort(byPosition)) {
    const list = setSongs.get(num(row.id_set)) ?? []
    list.push(row)
    setSongs.set(num(row.id_set), list)
  }
  const uses = new Map<number, SetUse[]>()
  /** Sets referenced by a gig or list that was not imported. */
  const orphaned = new Set<number>()

  const setTally = s.tally('sets', 'setlist_sets, repertoire_sets')
  const addUse = (setRow: SourceRow, position: number, owner: Omit<SetUse, 'setId'>) => {
    const sourceSetId = num(setRow.id)
    const name = fit(setTally, cleanText(setRow.name), 100, 'name') ?? `Set ${position + 1}`
    let pause = parseDuration(setRow.pause, 'HH:MM')
    if (pause === undefined || (pause !== null && pause > 7200)) {
      setTally.changed('pause unreadable or over 2 h: the configured break')
      pause = null
    }
    const common = { position, name, breakAfterSeconds: pause }
    const setId = owner.gigId !== null
      ? s.id('setlist_sets')
      : s.id('repertoire_sets')
    if (owner.gigId !== null) s.rows.setlistSets.push({ id: setId, gigId: owner.gigId, ...common })
    else s.rows.repertoireSets.push({ id: setId, repertoireId: owner.repertoireId!, ...common })
    const list = uses.get(sourceSetId) ?? []
    list.push({ setId, ...owner })
    uses.set(sourceSetId, list)
  }

  const gigSetTally = s.tally('gig_sets', 'setlist_sets')
  const gigPositions = new Map<number, number>()
  const gigSets = [...s.source.rows.gig_sets].sort(
    (a, b) => num(a.id_gig) - num(b.id_gig) || byPosition(a, b)
  )
  for (const row of gigSets) {
    const gigId = s.gigs.get(num(row.id_gig))
    const set = sets.get(num(row.id_set))
    if (!set) gigSetTally.skip(row.id, 'the set no longer exists')
    else if (gigId === undefined) {
      gigSetTally.skip(row.id, 'the gig was not imported')
      orphaned.add(num(set.id))
    } else {
      const position = gigPositions.get(gigId) ?? 0
      gigPositions.set(gigId, position + 1)
      addUse(set, position, { gigId, repertoireId: null })
      gigSetTally.imported()
    }
  }

  const listTally = s.tally('repertoire_setlists', 'repertoire_setlists')
  const lists = new Map<number, number>()
  const names = new Set(s.ctx.existingRepertoireNames.map((n) => n.toLowerCase()))
  for (const row of s.source.rows.repertoire_setlists) {
    const base = fit(listTally, cleanText(row.name), 110, 'name') ?? `Repertoire ${num(row.id)}`
    let name = base
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base} (${n})`
    if (name !== base) listTally.changed('name taken: numbered')
    names.add(name.toLowerCase())
    const id = s.id('repertoire_setlists')
    const createdAt = toInstant(row.created_at) ?? s.stamp
    s.rows.repertoireSetlists.push({
      id,
      name,
      notes: null,
      version: 0,
      createdAt,
      updatedAt: createdAt
    })
    lists.set(num(row.id), id)
    listTally.imported()
  }

  const listSetTally = s.tally('repertoire_setlist_sets', 'repertoire_sets')
  const listPositions = new Map<number, number>()
  const listSets = [...s.source.rows.repertoire_setlist_sets].sort(
    (a, b) => num(a.repertoire_setlist_id) - num(b.repertoire_setlist_id) || byPosition(a, b)
  )
  for (const row of listSets) {
    const repertoireId = lists.get(num(row.repertoire_setlist_id))
    const set = sets.get(num(row.set_id))
    if (!set) listSetTally.skip(row.id, 'the set no longer exists')
    else if (repertoireId === undefined) {
      listSetTally.skip(row.id, 'the repertoire list no longer exists')
      orphaned.add(num(set.id))
    } else {
      const position = listPositions.get(repertoireId) ?? 0
      listPositions.set(repertoireId, position + 1)
      addUse(set, position, { gigId: null, repertoireId })
      listSetTally.imported()
    }
  }

  for (const row of s.source.rows.sets) {
    const n = uses.get(num(row.id))?.length ?? 0
    if (n === 0) {
      setTally.skip(
        row.id,
        orphaned.has(num(row.id))
          ? 'its gig or list was not imported'
          : 'in no gig and no repertoire list'
      )
    } else {
      if (n > 1) setTally.changed('used by several gigs or lists: copied into each')
      setTally.imported()
    }
  }

  mapSetSongs(s, sets, setSongs, uses)
}

function mapSetSongs (
  s: MapState,
  sets: Map<number, SourceRow>,
  setSongs: Map<number, SourceRow[]>,
  uses: Map<number, SetUse[]>
): void {
  const tally = s.tally('set_songs', 'setlist_entries, repertoire_entries')
  const positions = new Map<number, number>()
  const next = (setId: number) => {
    const position = positions.get(setId) ?? 0
    positions.set(setId, position + 1)
    return position
  }
  for (const [sourceSetId, rows] of setSongs) {
    const setUses = uses.get(sourceSetId) ?? []
    for (const row of rows) {
      const songId = s.songs.get(num(row.id_song))
      if (!sets.has(sourceSetId)) tally.skip(row.id, 'the set no longer exists')
      else if (setUses.length === 0) tally.skip(row.id, 'its set was not imported')
      else if (songId === undefined) tally.skip(row.id, 'the song no longer exists')
      else {
        const live = liveRecord(tally, row)
        for (const use of setUses) {
          if (use.gigId !== null) {
            s.rows.setlistEntries.push({
              id: s.id('setlist_entries'),
              gigId: use.gigId,
              setId: use.setId,
              position: next(use.setId),
              songId,
              notes: null,
              durationSeconds: null,
              ...live,
              liveUpdatedAt: null
            })
          } else {
            if (live.status !== 'planned' || live.inserted) {
              tally.changed('live record in a repertoire set left out (a programme has none)')
            }
            s.rows.repertoireEntries.push({
              id: s.id('repertoire_entries'),
              repertoireId: use.repertoireId!,
              setId: use.setId,
              position: next(use.setId),
              songId,
              notes: null,
              durationSeconds: null
            })
          }
        }
        tally.imported()
      }
    }
  }
}

/**
 * libreStage records a skipped song (`uebersprungen`), an inserted one (`eingeschoben`) and a
 * rating (`feedback`); an inserted or rated song was played. The rest stays planned, which counts
 * as played for a past gig (statistics, GEMA), as in Bandstand's own live mode.
 */
function liveRecord (
  tally: ReturnType<MapState['tally']>,
  row: SourceRow
): { status: EntryStatus; inserted: boolean; rating: number | null } {
  const skipped = flag(row.uebersprungen)
  const inserted = flag(row.eingeschoben)
  let rating = mapRating(row.feedback)
  if (rating === undefined) {
    tally.changed('rating outside 1–3: left out')
    rating = null
  }
  if (skipped && rating !== null) {
    tally.changed('rating of a skipped song left out')
    rating = null
  }
  const status = skipped ? 'skipped' : inserted || rating !== null ? 'played' : 'planned'
  return { status, inserted, rating }
}
