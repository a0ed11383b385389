import { asc, eq, ne } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import {
  gigAvailability,
  gigScheduleItems,
  gigs,
  setlistEntries,
  setlistSets,
  songs
} from '#src/db/schema.js'
import { addSecondsLocal, todayIn } from '#shared/local-time.js'
import type { GigStatus } from '#shared/enums.js'
import { writtenRow } from '#src/db/returning.js'

export interface SeedGigsContext {
  now: Date
  /** Demo users; the musicians among them answer availability. */
  userIds: number[]
  musicianIds?: number[]
  /** Songs to build setlists from; default: every song that is not retired. */
  songIds?: number[]
  timezone?: string
}

export interface SeededGigs {
  gigIds: number[]
  pastGigIds: number[]
  upcomingGigIds: number[]
}

type GigSeed = {
  days: number
  name: string
  kind: string
  status: GigStatus
  venue: [string, string, string]
  organizer: [string, string]
  times: [string | null, string | null, string | null, string, string]
  sets: number[]
  notes?: string
}

// Fictional venues and organizers in real towns.
/* eslint-disable @stylistic/max-len -- one demo record per line reads as a table */
// prettier-ignore
const GIGS: GigSeed[] = [
  { days: -62, name: 'Sommerfest TSV Eichenau', kind: 'Stadtfest', status: 'confirmed', venue: ['Festwiese am Sportpark', 'Sportparkweg 2', 'Eichenau'], organizer: ['TSV Eichenau e.V.', 'fest@tsv-eichenau.example'], times: ['15:00', '16:30', '18:00', '19:30', '23:00'], sets: [10, 10] },
  { days: -27, name: 'Hochzeit Schneider & Yilmaz', kind: 'Hochzeit', status: 'confirmed', venue: ['Gut Lindenhof', 'Lindenallee 7', 'Talheim'], organizer: ['Anna Schneider', '0171 5550123'], times: ['14:00', '16:00', null, '21:00', '02:00'], sets: [9, 9, 8], notes: 'Eröffnungstanz: Walzer' },
  { days: -9, name: 'Clubkonzert Kulturkeller', kind: 'Club', status: 'confirmed', venue: ['Kulturkeller Alte Mühle', 'Mühlgasse 12', 'Bamberg'], organizer: ['Kulturverein Alte Mühle', 'booking@alte-muehle.example'], times: ['17:00', '18:00', '19:30', '20:30', '23:30'], sets: [8, 8] },
  { days: 11, name: 'Firmenfeier Brenner Logistik', kind: 'Firmenfeier', status: 'confirmed', venue: ['Eventhalle Hafen 5', 'Kaistraße 5', 'Würzburg'], organizer: ['Brenner Logistik GmbH, Frau Kaya', 'events@brenner.example'], times: ['16:00', '17:30', '19:00', '20:30', '00:30'], sets: [9, 9, 7], notes: 'Dresscode: dunkel. Catering für die Band ab 18:30.' },
  { days: 25, name: 'Stadtfest Marktheidenfeld', kind: 'Stadtfest', status: 'confirmed', venue: ['Bühne am Marktplatz', 'Marktplatz 1', 'Marktheidenfeld'], organizer: ['Stadtmarketing', '09391 555-200'], times: ['12:00', '14:00', null, '18:00', '22:00'], sets: [10, 10] },
  { days: 47, name: 'Geburtstag 60 Jahre Horst', kind: 'Geburtstag', status: 'inquiry', venue: ['Gasthaus Zur Linde', 'Dorfstraße 3', 'Retzbach'], organizer: ['Petra Wolf', '0160 5554321'], times: [null, null, null, '19:00', '23:59'], sets: [8, 8] },
  { days: 80, name: 'Herbstgala Lions Club', kind: 'Gala', status: 'cancelled', venue: ['Kurhaus', 'Kurpromenade 1', 'Bad Kissingen'], organizer: ['Lions Club Bad Kissingen', 'gala@lions.example'], times: ['16:00', '17:00', '18:30', '20:00', '01:00'], sets: [8, 8, 8] }
]
/* eslint-enable @stylistic/max-len */

/* eslint-disable @stylistic/max-len -- one demo record per line reads as a table */
// prettier-ignore
const SCHEDULE = [
  { offsetFromGetIn: -90, title: 'Abfahrt Proberaum', who: 'Alle', where: 'Proberaum', notes: 'Bus beladen' },
  { offsetFromGetIn: 45, title: 'Backline aufbauen', who: 'Tim, Jonas', where: 'Bühne', notes: null },
  { offsetFromGetIn: 150, title: 'Abendessen', who: 'Alle', where: 'Backstage', notes: 'vegetarisch für Sophie' }
]
/* eslint-enable @stylistic/max-len */

/**
 * Demo gigs relative to `now`: three past gigs with a played live record (some songs skipped, one
 * inserted, ratings), upcoming gigs with multi-set setlists, running orders and availability
 * answers. One transaction.
 */
export function seedGigs (db: Db, ctx: SeedGigsContext): SeededGigs {
  const today = todayIn(ctx.timezone ?? 'Europe/Berlin', ctx.now)
  const stamp = ctx.now.toISOString()
  const plusDays = (days: number) => addSecondsLocal(`${today}T00:00`, days * 86400).slice(0, 10)
  return db.transaction((tx) => {
    const pool = ctx.songIds?.length
      ? ctx.songIds
      : tx
        .select({ id: songs.id })
        .from(songs)
        .where(ne(songs.status, 'retired'))
        .orderBy(asc(songs.id))
        .all()
        .map((s) => s.id)
    const musicians = ctx.musicianIds?.length ? ctx.musicianIds : ctx.userIds
    const result: SeededGigs = { gigIds: [], pastGigIds: [], upcomingGigIds: [] }

    GIGS.forEach((seed, gigIndex) => {
      const past = seed.days < 0
      const date = plusDays(seed.days)
      const [getIn, soundcheck, doors, start, end] = seed.times
      const gig = writtenRow(
        tx
          .insert(gigs)
          .values({
            name: seed.name,
            date,
            kind: seed.kind,
            status: seed.status,
            venueName: seed.venue[0],
            venueAddress: seed.venue[1],
            venueCity: seed.venue[2],
            organizerName: seed.organizer[0],
            organizerContact: seed.organizer[1],
            getInTime: getIn,
            soundcheckTime: soundcheck,
            doorsTime: doors,
            startTime: start,
            endTime: end,
            notes: seed.notes ?? null,
            setlistVersion: 1,
            liveVersion: 1,
            createdAt: stamp,
            updatedAt: stamp
          })
          .returning({ id: gigs.id })
      )
      result.gigIds.push(gig.id)
      ;(past ? result.pastGigIds : result.upcomingGigIds).push(gig.id)

      // Setlists draw from the repertoire in a different rotation per gig.
      let cursor = gigIndex * 5
      const entries: Array<typeof setlistEntries.$inferInsert> = []
      seed.sets.forEach((size, setIndex) => {
        const set = writtenRow(
          tx
            .insert(setlistSets)
            .values({
              gigId: gig.id,
              position: setIndex,
              name:
                setIndex === seed.sets.length - 1 && seed.sets.length > 2
                  ? 'Party-Set'
                  : `Set ${setIndex + 1}`,
              breakAfterSeconds: setIndex === 0 ? 900 : null
            })
            .returning({ id: setlistSets.id })
        )
        if (!pool.length) return
        for (let position = 0; position < size; position++) {
          const n = entries.length
          const songId = pool[cursor++ % pool.length]!
          // The live record of a past gig: most songs played and rated, every 7th skipped, one
          // encore inserted.
          const skipped = past && n % 7 === 5
          entries.push({
            gigId: gig.id,
            setId: set.id,
            position,
            songId,
            notes: position === 0 && setIndex === 0 ? 'Einzähler: Tim' : null,
            status: past ? (skipped ? 'skipped' : 'played') : 'planned',
            rating: past && !skipped ? (n % 3) + 1 : null,
            liveUpdatedAt: past ? stamp : null
          })
        }
        if (past && setIndex === seed.sets.length - 1 && pool.length) {
          entries.push({
            gigId: gig.id,
            setId: set.id,
            position: size,
            songId: pool[(cursor + 3) % pool.length]!,
            notes: 'Zugabe',
            status: 'played',
            inserted: true,
            rating: 3,
            liveUpdatedAt: stamp
          })
        }
      })
      if (entries.length) tx.insert(setlistEntries).values(entries).run()
      if (past) {
        tx.update(gigs)
          .set({ liveVersion: entries.length + 1 })
          .where(eq(gigs.id, gig.id))
          .run()
      }

      if (!past && getIn) {
        tx.insert(gigScheduleItems)
          .values(
            SCHEDULE.map((item) => ({
              gigId: gig.id,
              at: addSecondsLocal(`${date}T${getIn}`, item.offsetFromGetIn * 60),
              title: item.title,
              who: item.who,
              where: item.where,
              notes: item.notes
            }))
          )
          .run()
      }
      const answers = musicians.map((userId, i) => {
        // Past gigs: everyone played. Upcoming: a realistic mix, some still unanswered.
        const pick = (i + gigIndex) % 5
        const status = past
          ? 'yes'
          : pick === 3
            ? 'maybe'
            : pick === 4
              ? null
              : pick === 2 && gigIndex % 2
                ? 'no'
                : 'yes'
        return status
          ? {
              gigId: gig.id,
              userId,
              status,
              note: status === 'maybe' ? 'Muss noch Urlaub klären' : null,
              updatedAt: stamp
            }
          : null
      })
      const rows = answers.filter((a): a is NonNullable<typeof a> => a !== null)
      if (rows.length) {
        tx.insert(gigAvailability)
          .values(rows as Array<typeof gigAvailability.$inferInsert>)
          .run()
      }
    })
    return result
  })
}
