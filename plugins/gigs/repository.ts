import { eq, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { gigs, type GigRow } from '#src/db/schema.js'
import type { GigCreateType, GigPatchType } from '#schemas/gigs.js'
import { writtenRow, returnedRow } from '#src/db/returning.js'

type GigColumns = Partial<typeof gigs.$inferInsert>

/** Body fields to columns; nested venue/organizer fields that are omitted stay unchanged. */
function columnsOf (body: GigPatchType): GigColumns {
  const c: GigColumns = {}
  const copy = <K extends keyof GigColumns>(key: K, value: GigColumns[K] | undefined) => {
    if (value !== undefined) c[key] = value
  }
  copy('name', body.name?.trim())
  copy('date', body.date)
  copy('kind', body.kind)
  copy('status', body.status)
  copy('venueName', body.venue?.name)
  copy('venueAddress', body.venue?.address)
  copy('venueCity', body.venue?.city)
  copy('organizerName', body.organizer?.name)
  copy('organizerContact', body.organizer?.contact)
  copy('getInTime', body.getInTime)
  copy('soundcheckTime', body.soundcheckTime)
  copy('doorsTime', body.doorsTime)
  copy('startTime', body.startTime)
  copy('endTime', body.endTime)
  copy('notes', body.notes)
  return c
}

export function createGig (db: Db, body: GigCreateType, now: Date): GigRow {
  const stamp = now.toISOString()
  return writtenRow(
    db
      .insert(gigs)
      .values({
        ...columnsOf(body),
        name: body.name.trim(),
        date: body.date,
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
  )
}

/**
 * Every change bumps `sequence` (the calendar feed's SEQUENCE) and the live version, because the
 * gig header and its start time are part of the live view.
 */
export function patchGig (db: Db, id: number, body: GigPatchType, now: Date): GigRow | undefined {
  return returnedRow(
    db
      .update(gigs)
      .set({
        ...columnsOf(body),
        sequence: sql`${gigs.sequence} + 1`,
        liveVersion: sql`${gigs.liveVersion} + 1`,
        updatedAt: now.toISOString()
      })
      .where(eq(gigs.id, id))
      .returning()
  )
}

/**
 * The gig with its setlist, running order and availability: one statement, as every foreign key to
 * the gig cascades (src/db/schema.ts), and SQLite runs a statement with its cascades atomically.
 */
export function deleteGig (db: Db, id: number): boolean {
  return db.delete(gigs).where(eq(gigs.id, id)).run().changes > 0
}
