import { inArray, sql } from '#src/db/orm.js'
import type { Db } from '#src/db/client.js'
import { songs } from '#src/db/schema.js'
import type { ImportedChart } from '#src/chart-files/chart-file.js'
import type { ImportReportType } from '#schemas/chart-files.js'

// Rows per statement: SQLite binds at most 32,766 values; a song row binds ~25.
const CHUNK = 500

/** Title and artist as a match sees them: case and surrounding blanks do not count. */
const identity = (title: string, artist: string | null) =>
  `${title.trim().toLowerCase()}\u0000${(artist ?? '').trim().toLowerCase()}`

type Report = ImportReportType

/**
 * Stores the imported charts in one transaction: a chart whose title and artist name an existing
 * song replaces that song's chart (updated), any other becomes a new accepted song (created); a
 * second chart with the same title and artist in one import is refused. Three statements per 500
 * songs, whatever the songbook's size.
 */
export function storeImportedCharts (db: Db, charts: ImportedChart[], now: string): Report {
  const report: Report = { created: [], updated: [], refused: [] }
  return db.transaction((tx) => {
    const existing = new Map<string, number>()
    const rows = tx.select({ id: songs.id, title: songs.title, artist: songs.artist }).from(songs)
      .all()
    for (const row of rows) existing.set(identity(row.title, row.artist), row.id)
    const seen = new Map<string, string>()
    const creates: ImportedChart[] = []
    const updates: { id: number; chart: ImportedChart }[] = []
    for (const chart of charts) {
      const id = identity(chart.title, chart.artist)
      const earlier = seen.get(id)
      if (earlier !== undefined) {
        report.refused.push({
          file: chart.file,
          reason: 'duplicate',
          message: `the same title and artist as ${earlier} in this import`
        })
        continue
      }
      seen.set(id, chart.file)
      const songId = existing.get(id)
      if (songId === undefined) creates.push(chart)
      else updates.push({ id: songId, chart })
    }
    for (let i = 0; i < creates.length; i += CHUNK) {
      const part = creates.slice(i, i + CHUNK)
      const made = tx.insert(songs).values(part.map((c) => ({
        title: c.title,
        artist: c.artist,
        key: c.key,
        tempoBpm: c.tempoBpm,
        durationSeconds: c.durationSeconds,
        chart: c.chart,
        status: 'accepted' as const,
        createdAt: now,
        updatedAt: now
      }))).returning({ id: songs.id }).all()
      part.forEach((c, j) => report.created.push(listed(c, made[j]!.id)))
    }
    for (let i = 0; i < updates.length; i += CHUNK) {
      const part = updates.slice(i, i + CHUNK)
      const cases = sql.join(part.map((u) => sql`WHEN ${u.id} THEN ${u.chart.chart}`), sql` `)
      tx.update(songs)
        .set({ chart: sql`CASE ${songs.id} ${cases} END`, updatedAt: now })
        .where(inArray(songs.id, part.map((u) => u.id)))
        .run()
      for (const u of part) report.updated.push(listed(u.chart, u.id))
    }
    return report
  })
}

const listed = (c: ImportedChart, songId: number) =>
  ({ file: c.file, songId, title: c.title, artist: c.artist })
