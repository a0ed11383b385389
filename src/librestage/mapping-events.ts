import type { TableTally } from './report.js'
import type { SourceRow } from './source.js'
import { fit, joinNotes, type MapState } from './state.js'
import { mapSetlists } from './mapping-setlists.js'
import {
  cleanText,
  flag,
  mapAvailability,
  mapEventType,
  mapGigStatus,
  parseDateTime,
  parseTime
} from './values.js'

// Rehearsals (with their songs and to-dos), gigs (with running order, checklist and setlists) and
// the members' availability for both.

const num = (value: unknown) => Number(value)
const byId = (a: SourceRow, b: SourceRow) => num(a.id) - num(b.id)
const byPosition = (a: SourceRow, b: SourceRow) =>
  num(a.position) - num(b.position) || num(a.id) - num(b.id)
const pad = (n: number) => String(n).padStart(2, '0')
const LAST_MINUTE = 23 * 60 + 59
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))
const hhmm = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`
const germanDate = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`

export function mapEvents (
  s: MapState,
  gigKind: (tally: TableTally, raw: string | null) => string | null
): void {
  mapRehearsals(s)
  mapGigs(s, gigKind)
  mapSetlists(s)
  mapSchedule(s)
  mapChecklists(s)
  mapAvailabilityAnswers(s)
}

function mapRehearsals (s: MapState): void {
  const tally = s.tally('rehearsal', 'rehearsals')
  // Notes are completed by the to-dos below, then cut to Bandstand's limits.
  const notes = new Map<number, Array<string | null>>()
  for (const row of s.source.rows.rehearsal) {
    const sourceId = num(row.id)
    const begin = parseDateTime(row.begin)
    if (!begin) {
      tally.skip(sourceId, begin === null ? 'no start date' : 'start date unreadable')
      continue
    }
    let startTime = begin.time
    if (startTime === null) {
      startTime = '19:00'
      tally.changed('no start time: 19:00 assumed')
    }
    const end = parseDateTime(row.end)
    const defaultEnd = hhmm(Math.min(minutes(startTime) + 120, LAST_MINUTE))
    let endTime = defaultEnd
    if (!end?.time) {
      tally.changed(end === null ? 'no end: start + 2 h' : 'end unreadable: start + 2 h')
    } else if (end.date > begin.date) {
      endTime = '23:59'
      tally.changed('ends after midnight: end set to 23:59 (a rehearsal ends on its day)')
    } else if (end.date < begin.date || minutes(end.time) <= minutes(startTime)) {
      tally.changed('end not after the start: start + 2 h')
    } else endTime = end.time
    const id = s.id('rehearsals')
    s.rows.rehearsals.push({
      id,
      date: begin.date,
      startTime,
      endTime,
      location: null,
      notes: null,
      sequence: 0,
      createdAt: s.stamp,
      updatedAt: s.stamp
    })
    notes.set(id, [cleanText(row.comment)])
    s.rehearsals.set(sourceId, id)
    tally.imported()
  }

  const songsTally = s.tally('rehearsal_song', 'rehearsal_songs')
  const entryNotes = new Map<string, Array<string | null>>()
  const positions = new Map<number, number>()
  for (const row of [...s.source.rows.rehearsal_song].sort(byId)) {
    const sourceId = num(row.id)
    const rehearsalId = s.rehearsals.get(num(row.id_rehearsal))
    const songId = s.songs.get(num(row.id_song))
    const key = `${rehearsalId}:${songId}`
    if (rehearsalId === undefined) songsTally.skip(sourceId, 'the rehearsal was not imported')
    else if (songId === undefined) songsTally.skip(sourceId, 'the song no longer exists')
    else if (entryNotes.has(key)) songsTally.skip(sourceId, 'the song twice in one rehearsal')
    else {
      const position = positions.get(rehearsalId) ?? 0
      positions.set(rehearsalId, position + 1)
      const todo = cleanText(row.todo)
      entryNotes.set(key, [cleanText(row.comment), todo && `To-do: ${todo}`])
      s.rows.rehearsalSongs.push({
        id: s.id('rehearsal_songs'),
        rehearsalId,
        songId,
        position,
        notes: null,
        done: flag(row.done)
      })
      songsTally.imported()
    }
  }

  // libreStage's to-dos belong to a member, a song and a rehearsal; Bandstand has no such record,
  // so each becomes a line in the notes of that song's entry (or of the rehearsal).
  const todoTally = s.tally('todos', 'notes of rehearsal songs (or of the rehearsal)')
  for (const row of [...s.source.rows.todos].sort(byId)) {
    const sourceId = num(row.id)
    const rehearsalId = s.rehearsals.get(num(row.id_reh))
    const text = cleanText(row.todo)
    if (rehearsalId === undefined) {
      todoTally.skip(sourceId, 'the rehearsal was not imported')
      continue
    }
    if (text === null) {
      todoTally.skip(sourceId, 'empty to-do')
      continue
    }
    const userId = s.users.get(num(row.id_user))
    const who = userId === undefined ? '' : ` ${s.userNames.get(userId)}`
    const due = parseDateTime(row.dt)
    const line =
      `To-do${who}: ${text}` +
      (due ? ` (bis ${germanDate(due.date)})` : '') +
      (flag(row.done) ? ' – erledigt' : '')
    const songId = s.songs.get(num(row.id_song))
    const entry = entryNotes.get(`${rehearsalId}:${songId}`)
    if (entry) entry.push(line)
    else {
      const title = songId === undefined ? 'einem gelöschten Song' : `„${s.songTitles.get(songId)}“`
      notes.get(rehearsalId)!.push(`${line} (zu ${title})`)
      todoTally.changed('the song is not on that rehearsal: the to-do went to its notes')
    }
    todoTally.imported()
  }

  for (const row of s.rows.rehearsals) {
    row.notes = fit(tally, joinNotes(...notes.get(row.id!)!), 2000, 'notes')
  }
  for (const row of s.rows.rehearsalSongs) {
    const lines = entryNotes.get(`${row.rehearsalId}:${row.songId}`)!
    row.notes = fit(songsTally, joinNotes(...lines), 1000, 'notes')
  }
}

function mapGigs (
  s: MapState,
  gigKind: (tally: TableTally, raw: string | null) => string | null
): void {
  const tally = s.tally('gigs', 'gigs')
  for (const row of s.source.rows.gigs) {
    const sourceId = num(row.id)
    const date = parseDateTime(row.date)
    if (!date) {
      tally.skip(sourceId, date === null ? 'no date' : 'date unreadable')
      continue
    }
    let status = mapGigStatus(row.status)
    if (status === undefined) {
      tally.changed(`status "${cleanText(row.status) ?? ''}" unknown: imported as inquiry`)
      status = 'inquiry'
    }
    const unreadable: string[] = []
    const time = (column: string, label: string) => {
      const value = parseTime(row[column])
      if (value !== undefined) return value
      tally.changed('time unreadable: left empty, kept in the notes')
      unreadable.push(`${label} (libreStage): ${cleanText(row[column])}`)
      return null
    }
    const doorsTime = time('doors', 'Einlass')
    // The gig's date may carry its start time; `begin` wins.
    const startTime = time('begin', 'Beginn') ?? (date.time !== '00:00' ? date.time : null)
    const endTime = time('end', 'Ende')
    let name = fit(tally, cleanText(row.name), 200, 'name')
    if (name === null) {
      tally.changed('no name: named "Auftritt (libreStage #id)"')
      name = `Auftritt (libreStage #${sourceId})`
    }
    const id = s.id('gigs')
    s.rows.gigs.push({
      id,
      name,
      date: date.date,
      kind: gigKind(tally, cleanText(row.kind_of_gig)),
      status,
      venueName: fit(tally, cleanText(row.venue), 200, 'venue'),
      venueAddress: null,
      venueCity: null,
      organizerName: fit(tally, cleanText(row.organizer), 200, 'organizer'),
      organizerContact: null,
      getInTime: null,
      soundcheckTime: null,
      doorsTime,
      startTime,
      endTime,
      notes: fit(tally, joinNotes(cleanText(row.notes), ...unreadable), 5000, 'notes'),
      setlistVersion: 0,
      liveVersion: 0,
      sequence: 0,
      createdAt: s.stamp,
      updatedAt: s.stamp
    })
    s.gigs.set(sourceId, id)
    tally.imported()
  }
}

function mapSchedule (s: MapState): void {
  const tally = s.tally('gig_schedule_items', 'gig_schedule_items (running order)')
  for (const row of s.source.rows.gig_schedule_items) {
    const sourceId = num(row.id)
    const gigId = s.gigs.get(num(row.gig_id))
    const at = parseDateTime(row.item_datetime)
    if (gigId === undefined) {
      tally.skip(sourceId, 'the gig was not imported')
      continue
    }
    if (!at) {
      tally.skip(sourceId, at === null ? 'no date-time' : 'date-time unreadable')
      continue
    }
    if (at.time === null) tally.changed('no time of day: 00:00')
    let title = fit(tally, cleanText(row.was), 200, 'title (was)')
    if (title === null) {
      tally.changed('no title (was): "Programmpunkt"')
      title = 'Programmpunkt'
    }
    s.rows.gigScheduleItems.push({
      id: s.id('gig_schedule_items'),
      gigId,
      at: `${at.date}T${at.time ?? '00:00'}`,
      title,
      who: fit(tally, cleanText(row.wer), 200, 'who (wer)'),
      where: fit(tally, cleanText(row.wo), 200, 'where (wo)'),
      notes: fit(tally, cleanText(row.comment), 2000, 'notes')
    })
    tally.imported()
  }
}

function mapChecklists (s: MapState): void {
  const tally = s.tally('gig_checklist_items', 'gig_checklist_items')
  const byName = new Map([...s.userNames].map(([id, name]) => [name.toLowerCase(), id]))
  const positions = new Map<number, number>()
  const rows = [...s.source.rows.gig_checklist_items].sort(
    (a, b) => num(a.gig_id) - num(b.gig_id) || byPosition(a, b)
  )
  for (const row of rows) {
    const sourceId = num(row.id)
    const gigId = s.gigs.get(num(row.gig_id))
    if (gigId === undefined) {
      tally.skip(sourceId, 'the gig was not imported')
      continue
    }
    const position = positions.get(gigId) ?? 0
    positions.set(gigId, position + 1)
    const name = cleanText(row.assignee_name)
    const assigneeId =
      s.users.get(num(row.assignee_user_id)) ??
      (name === null ? undefined : byName.get(name.toLowerCase()))
    if (assigneeId === undefined && name !== null) {
      tally.changed('assignee is no user: named in the notes')
    }
    const due = parseDateTime(row.due_datetime)
    if (due === undefined) tally.changed('due date unreadable: kept in the notes')
    let title = fit(tally, cleanText(row.title), 200, 'title')
    if (title === null) {
      tally.changed('no title: "Aufgabe"')
      title = 'Aufgabe'
    }
    s.rows.gigChecklistItems.push({
      id: s.id('gig_checklist_items'),
      gigId,
      position,
      title,
      category: fit(tally, cleanText(row.category), 60, 'category'),
      assigneeId: assigneeId ?? null,
      dueAt: due ? `${due.date}T${due.time ?? '00:00'}` : null,
      done: flag(row.done),
      doneAt: null,
      doneBy: null,
      notes: fit(
        tally,
        joinNotes(
          cleanText(row.comment),
          assigneeId === undefined && name !== null && `Zuständig: ${name}`,
          due === undefined && `Fällig (libreStage): ${cleanText(row.due_datetime)}`
        ),
        2000,
        'notes'
      ),
      createdAt: s.stamp,
      updatedAt: s.stamp
    })
    tally.imported()
  }
}

function mapAvailabilityAnswers (s: MapState): void {
  const tally = s.tally('availability', 'gig_availability, rehearsal_availability')
  const seen = new Set<string>()
  for (const row of s.source.rows.availability) {
    const sourceId = num(row.id)
    const kind = mapEventType(row.event_type)
    const userId = s.users.get(num(row.user_id))
    const status = mapAvailability(row.status)
    if (kind === undefined) {
      tally.skip(sourceId, `event type "${cleanText(row.event_type) ?? ''}" unknown`)
      continue
    }
    const eventId = (kind === 'gig' ? s.gigs : s.rehearsals).get(num(row.event_id))
    const key = `${kind}:${eventId}:${userId}`
    if (eventId === undefined) tally.skip(sourceId, `the ${kind} was not imported`)
    else if (userId === undefined) tally.skip(sourceId, 'the user no longer exists')
    else if (status === undefined) {
      tally.skip(sourceId, `status "${cleanText(row.status) ?? ''}" unknown`)
    } else if (seen.has(key)) tally.skip(sourceId, 'a second answer of the same member')
    else {
      seen.add(key)
      const substituteId = s.users.get(num(row.substitute_user_id))
      const substitute =
        (substituteId === undefined ? undefined : s.userNames.get(substituteId)) ??
        cleanText(row.substitute_name)
      const note = fit(
        tally,
        joinNotes(cleanText(row.comment), substitute && `Ersatz: ${substitute}`),
        500,
        'note'
      )
      const answer = { userId, status, note, updatedAt: s.stamp }
      if (kind === 'gig') s.rows.gigAvailability.push({ gigId: eventId, ...answer })
      else s.rows.rehearsalAvailability.push({ rehearsalId: eventId, ...answer })
      tally.imported()
    }
  }
}
