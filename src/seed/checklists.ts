import type { Db } from '#src/db/client.js'
import { gigChecklistItems, gigs } from '#src/db/schema.js'
import { inArray } from '#src/db/orm.js'

export interface SeedChecklistsContext {
  now: Date
  /** Gigs to give a checklist (the upcoming ones). */
  gigIds: number[]
  /** Demo users: admin, then lena, max, jonas, sophie, tim, paul (DEMO_USERS order). */
  userIds: number[]
}

// [title, category, assignee index in userIds (null: nobody), done, days before the gig]

// prettier-ignore
const ITEMS: Array<[string, string, number | null, boolean, number | null]> = [
  ['Technik beim Veranstalter bestätigen', 'Orga', 1, true, 14],
  ['PA und Licht reservieren', 'Technik', 5, false, 7],
  ['Setlist drucken (Bühne)', 'Orga', 1, false, 1],
  ['Bus tanken und beladen', 'Transport', 3, false, 0],
  ['Merch-Kiste packen', 'Merch', null, false, null]
]

/** A to-do list for each given gig; one transaction. */
export function seedChecklists (db: Db, ctx: SeedChecklistsContext): void {
  if (ctx.gigIds.length === 0) return
  const stamp = ctx.now.toISOString()
  db.transaction((tx) => {
    const dates = tx
      .select({ id: gigs.id, date: gigs.date })
      .from(gigs)
      .where(inArray(gigs.id, ctx.gigIds))
      .all()
    const rows = dates.flatMap(({ id, date }) =>
      ITEMS.map(([title, category, assignee, done, daysBefore], position) => {
        const due = daysBefore === null
          ? null
          : new Date(Date.parse(`${date}T12:00:00Z`) - daysBefore * 86400_000)
            .toISOString()
            .slice(0, 10) + 'T18:00'
        const assigneeId = assignee === null ? null : (ctx.userIds[assignee] ?? null)
        return {
          gigId: id,
          position,
          title,
          category,
          assigneeId,
          dueAt: due,
          done,
          doneAt: done ? stamp : null,
          doneBy: done ? assigneeId : null,
          createdAt: stamp,
          updatedAt: stamp
        }
      })
    )
    tx.insert(gigChecklistItems).values(rows).run()
  })
}
