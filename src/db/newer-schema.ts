import { join } from 'node:path'
import type Database from 'better-sqlite3'
import { readMigrationFiles } from './orm.js'
import { ConfigError } from '#src/config.js'
import { projectPath } from '#src/project-path.js'
import { listBackups, type BackupSettings } from '#src/storage/backup.js'

/**
 * A database a newer Bandstand migrated holds migrations this build does not know: its code
 * would read and write rows in a shape it does not know (an older version wrote old-format keys
 * into a newer database, and the newer one then failed on them). The server does not start and
 * the writing CLI commands refuse (exit 78), with one line naming the way back: the newer version,
 * or the backup taken before it migrated (docs/operations.md → Upgrade and rollback).
 */
export function refuseUnknownMigrations (
  sqlite: Database.Database,
  backup: BackupSettings | undefined
): void {
  const hasTable = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (!hasTable) return
  const files = readMigrationFiles({ migrationsFolder: projectPath('src', 'db', 'migrations') })
  const newest = Math.max(0, ...files.map((file) => file.folderMillis))
  const { unknown } = sqlite
    .prepare('SELECT count(*) AS unknown FROM __drizzle_migrations WHERE created_at > ?')
    .get(newest) as { unknown: number }
  if (unknown === 0) return
  const preMigration = backup
    ? listBackups(backup.dir).filter((name) => name.endsWith('-pre-migration.db')).at(-1)
    : undefined
  const restore = preMigration
    ? `or restore ${join(backup!.dir, preMigration)}, the backup from before it migrated`
    : 'or restore the backup from before the upgrade'
  throw new ConfigError(
    `${sqlite.name} was migrated by a newer Bandstand (${unknown} migration` +
      `${unknown === 1 ? '' : 's'} this version does not know): run that version, ${restore} ` +
      '(docs/operations.md → Upgrade and rollback)'
  )
}
