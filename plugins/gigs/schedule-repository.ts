import { and, asc, eq, notInArray } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { chunksFor, columnCount, updateRowsById } from '#src/db/batch.js'
import { gigScheduleItems, gigs } from '#src/db/schema.js'
import { addSecondsLocal, endsNextDay } from '#shared/local-time.js'
import type { TimingDefaults } from '#shared/timing.js'
import { badRequest, notFound } from '#src/errors.js'
import type {
  ScheduleItemType,
  ScheduleRowKind,
  SchedulePutType,
  ScheduleType
} from '#schemas/gigs.js'
import { buildSets, readSetlistData } from '#src/repositories/setlists.js'

const sourceRank = { gig: 0, set: 1, item: 2 } as const

/**
 * The whole day in time order: the stored items plus read-only ones derived from the gig's own
 * times and the computed set blocks, so a client needs one request to show the running order.
 */
export function loadSchedule (
  db: Db,
  gigId: number,
  defaults: TimingDefaults
): ScheduleType | undefined {
  const data = readSetlistData(db, gigId)
  if (!data) return undefined
  const { gig } = data
  const stored = db
    .select()
    .from(gigScheduleItems)
    .where(eq(gigScheduleItems.gigId, gigId))
    .orderBy(asc(gigScheduleItems.at), asc(gigScheduleItems.id))
    .all()
  const items: ScheduleItemType[] = stored.map((row) => ({
    id: row.id,
    at: row.at,
    endAt: null,
    title: row.title,
    who: row.who,
    where: row.where,
    notes: row.notes,
    source: 'item',
    kind: 'item',
    songCount: null,
    readOnly: false
  }))
  // Derived rows carry codes, not words: the web app and the documents name them in the band's
  // (or the reader's) language.
  const derived = (
    at: string,
    kind: Exclude<ScheduleRowKind, 'item'>,
    more: Partial<ScheduleItemType> = {}
  ): ScheduleItemType => ({
    id: null,
    at,
    endAt: null,
    title: null,
    who: null,
    where: kind === 'set' ? null : gig.venueName,
    notes: null,
    source: kind === 'set' ? 'set' : 'gig',
    kind,
    songCount: null,
    readOnly: true,
    ...more
  })
  const on = (time: string) => `${gig.date}T${time}`
  if (gig.getInTime) items.push(derived(on(gig.getInTime), 'getIn'))
  if (gig.soundcheckTime) items.push(derived(on(gig.soundcheckTime), 'soundcheck'))
  if (gig.doorsTime) items.push(derived(on(gig.doorsTime), 'doors'))
  if (gig.startTime) items.push(derived(on(gig.startTime), 'start'))
  if (gig.endTime) {
    // An end before the start is the next day.
    const end = endsNextDay(gig.startTime, gig.endTime)
      ? addSecondsLocal(on(gig.endTime), 24 * 3600)
      : on(gig.endTime)
    items.push(derived(end, 'end'))
  }
  if (data.sets.length) {
    const { sets, timing } = buildSets(data, defaults)
    sets.forEach((set, i) => {
      const t = timing.sets[i]!
      items.push(
        derived(t.startAt, 'set', {
          title: set.name,
          endAt: t.endAt,
          // Songs only: a free-text entry (a speech, the first dance) is no song.
          songCount: set.entries.filter((entry) => entry.songId !== null).length
        })
      )
    })
  }
  items.sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : sourceRank[a.source] - sourceRank[b.source]
  )
  return { gigId, items }
}

/** Replaces the stored items in one transaction; items keeping their id are updated in place. */
export function saveSchedule (db: Db, gigId: number, body: SchedulePutType): void {
  db.transaction((tx) => {
    if (!tx.select({ id: gigs.id }).from(gigs).where(eq(gigs.id, gigId)).get()) {
      throw notFound('gig', gigId)
    }
    const existing = new Set(
      tx
        .select({ id: gigScheduleItems.id })
        .from(gigScheduleItems)
        .where(eq(gigScheduleItems.gigId, gigId))
        .all()
        .map((r) => r.id)
    )
    const kept = new Set<number>()
    body.items.forEach((item, i) => {
      if (item.id === undefined) return
      if (!existing.has(item.id)) {
        throw badRequest(
          'ITEM_NOT_IN_GIG',
          `items.${i}.id: item ${item.id} is not part of gig ${gigId}`
        )
      }
      if (kept.has(item.id)) {
        throw badRequest('DUPLICATE_ID', `items.${i}.id: item ${item.id} appears twice`)
      }
      kept.add(item.id)
    })
    tx.delete(gigScheduleItems)
      .where(
        and(
          eq(gigScheduleItems.gigId, gigId),
          kept.size ? notInArray(gigScheduleItems.id, [...kept]) : undefined
        )
      )
      .run()
    // One UPDATE and one INSERT (per chunk of thousands of rows) whatever the number of items.
    const updates: unknown[][] = []
    const inserts: Array<typeof gigScheduleItems.$inferInsert> = []
    for (const item of body.items) {
      const values = {
        at: item.at,
        title: item.title.trim(),
        who: item.who ?? null,
        where: item.where ?? null,
        notes: item.notes ?? null
      }
      if (item.id !== undefined) {
        updates.push([item.id, values.at, values.title, values.who, values.where, values.notes])
      } else inserts.push({ ...values, gigId })
    }
    updateRowsById(
      tx,
      gigScheduleItems,
      gigScheduleItems.id,
      [
        gigScheduleItems.at,
        gigScheduleItems.title,
        gigScheduleItems.who,
        gigScheduleItems.where,
        gigScheduleItems.notes
      ],
      updates
    )
    for (const chunk of chunksFor(inserts, columnCount(gigScheduleItems))) {
      tx.insert(gigScheduleItems).values(chunk).run()
    }
  })
}
