import { and, asc, eq, getTableColumns, gte, lte, sql } from '#src/db/orm.js'
import type Database from 'better-sqlite3'
import type { Db } from '#src/db/client.js'
import { iterateSelect } from '#src/db/iterate.js'
import { gigs, type GigRow } from '#src/db/schema.js'
import { endsNextDay } from '#shared/local-time.js'
import type { GigListQueryType, GigType } from '#schemas/gigs.js'

/** The API view: venue and organizer are nested objects, stored flat. */
export function toGig (row: GigRow): GigType {
  return {
    id: row.id,
    name: row.name,
    date: row.date,
    kind: row.kind,
    status: row.status,
    venue: { name: row.venueName, address: row.venueAddress, city: row.venueCity },
    organizer: { name: row.organizerName, contact: row.organizerContact },
    getInTime: row.getInTime,
    soundcheckTime: row.soundcheckTime,
    doorsTime: row.doorsTime,
    startTime: row.startTime,
    endTime: row.endTime,
    endsNextDay: endsNextDay(row.startTime, row.endTime),
    notes: row.notes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt
  }
}

export function findGig (db: Db, id: number): GigRow | undefined {
  return db.select().from(gigs).where(eq(gigs.id, id)).get()
}

/** The gigs of a list (GET /gigs and the lineup gaps of the same list), in date order. */
export function listGigs (db: Db, query: GigListQueryType, today: string): GigRow[] {
  return gigListQuery(db, query, today).all()
}

/**
 * The same gigs one row at a time: under npm start's --optimize-for-size the young generation is
 * small, and 3,000 rows read at once outlived it: promoted, then collected with the whole heap.
 */
export function * iterateGigs (
  db: Db,
  sqlite: Database.Database,
  query: GigListQueryType,
  today: string
): Generator<GigRow> {
  yield * iterateSelect<GigRow>(sqlite, gigListQuery(db, query, today), getTableColumns(gigs))
}

function gigListQuery (db: Db, query: GigListQueryType, today: string) {
  const from = query.upcoming && (!query.from || query.from < today) ? today : query.from
  return db
    .select()
    .from(gigs)
    .where(
      and(
        from ? gte(gigs.date, from) : undefined,
        query.to ? lte(gigs.date, query.to) : undefined,
        query.status ? eq(gigs.status, query.status) : undefined
      )
    )
    // Gigs without a start time sort after the timed ones of the same day.
    .orderBy(asc(gigs.date), sql`${gigs.startTime} IS NULL`, asc(gigs.startTime), asc(gigs.id))
}
