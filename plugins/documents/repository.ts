import { and, asc, count, eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.js'
import { appLogo, gigAvailability, gigScheduleItems, users } from '#src/db/schema.js'
import { readSetlistData } from '#src/repositories/setlists.js'
import {
  assembleGigDocument,
  type DocumentLogo,
  type GigDocument
} from '#src/documents/gig-document.js'
import type { TimingDefaults } from '#shared/timing.js'

/**
 * Musicians on stage for the GEMA report: active musicians who said yes, else all active musicians.
 */
function musicianCount (db: Db, gigId: number): number {
  const confirmed = db
    .select({ n: count() })
    .from(gigAvailability)
    .innerJoin(users, eq(users.id, gigAvailability.userId))
    .where(
      and(
        eq(gigAvailability.gigId, gigId),
        eq(gigAvailability.status, 'yes'),
        eq(users.status, 'active'),
        eq(users.isMusician, true)
      )
    )
    .get()!.n
  if (confirmed > 0) return confirmed
  return db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.status, 'active'), eq(users.isMusician, true)))
    .get()!.n
}

/**
 * A gig with its sets, entries, their songs (the setlist read model) and the schedule: a constant
 * number of statements.
 */
export function loadGigDocument (
  db: Db,
  id: number,
  defaults: TimingDefaults
): GigDocument | undefined {
  const data = readSetlistData(db, id)
  if (!data) return undefined
  const schedule = db
    .select()
    .from(gigScheduleItems)
    .where(eq(gigScheduleItems.gigId, id))
    .orderBy(asc(gigScheduleItems.at), asc(gigScheduleItems.id))
    .all()
  return assembleGigDocument({ ...data, schedule, musicianCount: musicianCount(db, id) }, defaults)
}

/**
 * The logo as prepared for documents; null without a logo, and for one stored by an older version
 * and not prepared yet (plugins/app-config prepares it at start) or refused then.
 */
export function loadDocumentLogo (db: Db): DocumentLogo | null {
  const row = db
    .select({ watermark: appLogo.watermark, accent: appLogo.accent })
    .from(appLogo)
    .where(and(eq(appLogo.id, 1), eq(appLogo.prepared, true)))
    .get()
  return row ? { watermark: row.watermark, accent: row.accent } : null
}
