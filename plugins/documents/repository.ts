import { and, asc, eq, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  appLogo, gigAvailability, gigScheduleItems, gigSubstitutes, users
} from '#src/db/schema.js'
import { readSetlistData } from '#src/repositories/setlists.js'
import {
  assembleGigDocument,
  type DocumentLogo,
  type GigDocument
} from '#src/documents/gig-document.js'
import type { TimingDefaults } from '#shared/timing.js'

/**
 * Musicians on stage for the GEMA report: the active musicians who said yes and the substitutes
 * named on the gig; without either, the band's regular active musicians (a sub plays only when
 * asked, so is not assumed). One statement.
 */
function musicianCount (db: Db, gigId: number): number {
  const row = db.get<{ confirmed: number, regular: number }>(sql`
    select
      (select count(*) from ${gigAvailability}
        join ${users} on ${users.id} = ${gigAvailability.userId}
        where ${gigAvailability.gigId} = ${gigId} and ${gigAvailability.status} = 'yes'
          and ${users.status} = 'active' and ${users.isMusician} = 1)
      + (select count(*) from ${gigSubstitutes} where ${gigSubstitutes.gigId} = ${gigId})
        as confirmed,
      (select count(*) from ${users} where ${users.status} = 'active'
        and ${users.isMusician} = 1 and ${users.occasional} = 0) as regular`)
  return row.confirmed > 0 ? row.confirmed : row.regular
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
