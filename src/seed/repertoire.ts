import type { Db } from '#src/db/client.js'
import { repertoireEntries, repertoireSets, repertoireSetlists } from '#src/db/schema.js'
import { writtenRow, returnedRow } from '#src/db/returning.js'

export interface SeedRepertoireContext {
  now: Date
  /** Songs to build the programmes from (ready ones). */
  songIds: number[]
}

/** Two standard programmes of the demo band, built from the ready songs; one transaction. */
export function seedRepertoire (db: Db, ctx: SeedRepertoireContext): number[] {
  const stamp = ctx.now.toISOString()
  const programmes: Array<{ name: string; notes: string; sets: Array<[string, number]> }> = [
    {
      name: 'Stadtfest (2 × 45 min)',
      notes: 'Unser Standardprogramm für Feste unter freiem Himmel',
      sets: [
        ['Set 1', 10],
        ['Set 2', 10]
      ]
    },
    {
      name: 'Hochzeit (3 Sets)',
      notes: 'Eröffnungstanz vorher mit dem Brautpaar klären',
      sets: [
        ['Dinner', 6],
        ['Party 1', 8],
        ['Party 2', 8]
      ]
    }
  ]
  return db.transaction((tx) =>
    programmes.flatMap((programme, p) => {
      // Seeding again (--force) keeps a programme of the same name as it is.
      const created = returnedRow(
        tx
          .insert(repertoireSetlists)
          .values({
            name: programme.name,
            notes: programme.notes,
            version: 1,
            createdAt: stamp,
            updatedAt: stamp
          })
          .onConflictDoNothing()
          .returning({ id: repertoireSetlists.id })
      )
      if (!created) return []
      const id = created.id
      let next = p * 3
      programme.sets.forEach(([name, size], position) => {
        const set = writtenRow(
          tx
            .insert(repertoireSets)
            .values({ repertoireId: id, position, name })
            .returning({ id: repertoireSets.id })
        )
        const songs = Array.from(
          { length: Math.min(size, ctx.songIds.length) },
          () => ctx.songIds[next++ % ctx.songIds.length]!
        )
        if (songs.length === 0) return
        tx.insert(repertoireEntries)
          .values(
            songs.map((songId, i) => ({ repertoireId: id, setId: set.id, position: i, songId }))
          )
          .run()
      })
      return [id]
    })
  )
}
