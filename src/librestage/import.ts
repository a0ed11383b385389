import { basename } from 'node:path'
import { and, eq, type SQLiteTable } from '#src/db/orm.js'
import type Database from 'better-sqlite3'
import type { Db } from '#src/db/client.js'
import { chunksFor, columnCount } from '#src/db/batch.js'
import * as schema from '#src/db/schema.js'
import { hasBandData } from '#src/repositories/band-content.js'
import { loadAppConfig, saveAppConfig } from '#src/repositories/app-settings.js'
import { createImportResetLinks, resetUrl } from '#src/repositories/password-resets.js'
import { mapLibreStage, type ImportPlan } from './mapping.js'
import type { LibreStageReport } from './report.js'
import { LibreStageImportError, type LibreStageSource } from './source.js'

// `bandstand import-librestage <app.db>`: the libreStage database is read first (read-only, and
// closed before anything is written) and mapped in memory; then everything is written in one
// synchronous transaction together with the import record and the members' reset links. A dry run
// does the same and rolls back, so it reports exactly what the import would do (and refuses what
// the import would refuse).

export interface LibreStageImportOptions {
  now: Date
  /** Base of the printed reset links (PUBLIC_URL, or the server's local address). */
  baseUrl: string
  dryRun?: boolean
  /** Import into a database that already holds band data. */
  force?: boolean
  /** A reset link for every active member, not only for those whose password was not kept. */
  resetLinks?: boolean
}

class DryRunDone extends Error {
  constructor (readonly report: LibreStageReport) {
    super('dry run: rolled back')
  }
}

/** Multi-row inserts, one statement per chunk of rows (one chunk for any band's data). */
function writeRows<T extends SQLiteTable> (tx: Db, table: T, rows: Array<T['$inferInsert']>): void {
  for (const chunk of chunksFor(rows, columnCount(table))) tx.insert(table).values(chunk).run()
}

/** Parents before children: every foreign key points at a row already written. */
function writePlan (tx: Db, rows: ImportPlan['rows']): void {
  writeRows(tx, schema.users, rows.users)
  writeRows(tx, schema.songs, rows.songs)
  writeRows(tx, schema.songVotes, rows.songVotes)
  writeRows(tx, schema.rehearsals, rows.rehearsals)
  writeRows(tx, schema.rehearsalSongs, rows.rehearsalSongs)
  writeRows(tx, schema.rehearsalAvailability, rows.rehearsalAvailability)
  writeRows(tx, schema.gigs, rows.gigs)
  writeRows(tx, schema.setlistSets, rows.setlistSets)
  writeRows(tx, schema.setlistEntries, rows.setlistEntries)
  writeRows(tx, schema.gigScheduleItems, rows.gigScheduleItems)
  writeRows(tx, schema.gigAvailability, rows.gigAvailability)
  writeRows(tx, schema.gigChecklistItems, rows.gigChecklistItems)
  writeRows(tx, schema.repertoireSetlists, rows.repertoireSetlists)
  writeRows(tx, schema.repertoireSets, rows.repertoireSets)
  writeRows(tx, schema.repertoireEntries, rows.repertoireEntries)
  writeRows(tx, schema.surveys, rows.surveys)
  writeRows(tx, schema.surveyOptions, rows.surveyOptions)
  writeRows(tx, schema.surveyAnswers, rows.surveyAnswers)
}

const silent = { warn: () => {}, error: () => {} }

/**
 * Imports a source read by readLibreStage (read first, so that a file that is no libreStage
 * database never even opens Bandstand's).
 */
export function importLibreStage (
  handle: { db: Db; sqlite: Database.Database },
  source: LibreStageSource,
  options: LibreStageImportOptions
): LibreStageReport {
  const { db, sqlite } = handle
  const { now } = options
  const firstId = (table: string) =>
    (
      sqlite
        .prepare(
          'SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), ' +
            `coalesce((SELECT max(id) FROM "${table}"), 0)) + 1 AS id`
        )
        .get(table) as { id: number }
    ).id
  try {
    return db.transaction(
      (tx) => {
        const previous = tx
          .select()
          .from(schema.dataImports)
          .where(
            and(
              eq(schema.dataImports.source, 'librestage'),
              eq(schema.dataImports.fingerprint, source.fingerprint)
            )
          )
          .get()
        if (previous) {
          throw new LibreStageImportError(
            `this file was imported already (${previous.importedAt}); importing it again would ` +
              'add everything a second time'
          )
        }
        if (!options.force && hasBandData(tx)) {
          throw new LibreStageImportError(
            'the Bandstand database already holds band data; import into a new one, or add ' +
              '--force to add the libreStage data to it (users with the same name are merged)'
          )
        }
        const plan = mapLibreStage(source, {
          now,
          existingUsers: tx
            .select({
              id: schema.users.id,
              username: schema.users.username,
              displayName: schema.users.displayName,
              role: schema.users.role
            })
            .from(schema.users)
            .all(),
          existingRepertoireNames: tx
            .select({ name: schema.repertoireSetlists.name })
            .from(schema.repertoireSetlists)
            .all()
            .map((r) => r.name),
          config: loadAppConfig(tx, silent),
          firstId
        })
        writePlan(tx, plan.rows)
        if (plan.config) saveAppConfig(tx, plan.config, now)
        tx.insert(schema.dataImports)
          .values({
            source: 'librestage',
            fingerprint: source.fingerprint,
            fileName: basename(source.file),
            importedAt: now.toISOString(),
            summary: plan.report.tables.map((t) => ({
              table: t.table,
              read: t.read,
              imported: t.imported
            }))
          })
          .run()
        const linkFor = plan.newUsers
          .filter((u) => options.resetLinks || !u.passwordKept)
          .map((u) => u.id)
        const links = options.dryRun ? [] : createImportResetLinks(tx, linkFor, now)
        const report: LibreStageReport = {
          ...plan.report,
          dryRun: options.dryRun === true,
          resetLinks: links.map(({ user, token, expiresAt }) => ({
            username: user.username,
            displayName: user.displayName,
            url: resetUrl(options.baseUrl, token),
            expiresAt: expiresAt.toISOString()
          }))
        }
        if (options.dryRun) throw new DryRunDone(report)
        return report
      },
      { behavior: 'immediate' }
    )
  } catch (error) {
    if (error instanceof DryRunDone) return error.report
    throw error
  }
}
