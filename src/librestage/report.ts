import { oneLine } from '#src/terminal-text.js'

// The import report: per libreStage table the rows read, imported and skipped (with the reason),
// what was changed on the way, and everything that has no home in Bandstand. Every row read is
// either imported or skipped with a reason (read = imported + skipped, checked by the tests).

/** At most this many source ids are listed per reason (the count is always complete). */
const IDS_LISTED = 20

export interface TableReport {
  /** The libreStage table. */
  table: string
  /** Where its rows went in Bandstand. */
  into: string
  read: number
  imported: number
  skipped: Array<{ reason: string; count: number; ids: number[] }>
  /** Imported, but changed to fit Bandstand (a value shortened, a fallback taken…). */
  changed: Array<{ note: string; count: number }>
}

export interface ImportedUser {
  sourceId: number
  sourceUsername: string | null
  username: string
  displayName: string
  role: string
  status: string
  /** Matched an existing Bandstand user by username (that account is kept as it is). */
  merged: boolean
  /** Logs in with their libreStage password (its bcrypt hash was kept). */
  passwordKept: boolean
}

export interface LibreStageReport {
  source: { file: string; bytes: number; sha256: string; alembicVersion: string }
  dryRun: boolean
  tables: TableReport[]
  notImported: {
    tables: Array<{ table: string; rows: number; reason: string }>
    columns: Array<{ table: string; column: string; values: number; reason: string }>
  }
  /** Labels added to the app configuration so that imported songs and gigs keep theirs. */
  addedToConfig: { genres: string[]; gigKinds: string[] }
  users: ImportedUser[]
  /**
   * Empty in a dry run. With --reset-links one per active imported user; without, only for those
   * whose libreStage password could not be kept.
   */
  resetLinks: Array<{ username: string; displayName: string; url: string; expiresAt: string }>
}

/** Counts one source table's rows as they are mapped. */
export class TableTally {
  readonly report: TableReport
  constructor (table: string, into: string, read: number) {
    this.report = { table, into, read, imported: 0, skipped: [], changed: [] }
  }

  imported (): void {
    this.report.imported++
  }

  skip (id: unknown, reason: string): void {
    let entry = this.report.skipped.find((s) => s.reason === reason)
    if (!entry) this.report.skipped.push((entry = { reason, count: 0, ids: [] }))
    entry.count++
    if (entry.ids.length < IDS_LISTED) entry.ids.push(Number(id))
  }

  changed (note: string): void {
    const entry = this.report.changed.find((c) => c.note === note)
    if (entry) entry.count++
    else this.report.changed.push({ note, count: 1 })
  }
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The report as the command line prints it. */
export function formatReport (report: LibreStageReport): string[] {
  const { source } = report
  const lines = [
    `libreStage import of ${source.file}` + (report.dryRun ? ' — DRY RUN, nothing written' : ''),
    `  ${source.bytes} bytes, sha256 ${source.sha256}, alembic revision ${source.alembicVersion}`,
    '',
    `${'libreStage table'.padEnd(26)}${'read'.padStart(7)}${'imported'.padStart(10)}` +
      `${'skipped'.padStart(9)}  into`
  ]
  for (const t of report.tables) {
    const skipped = t.skipped.reduce((n, s) => n + s.count, 0)
    lines.push(
      `${t.table.padEnd(26)}${String(t.read).padStart(7)}${String(t.imported).padStart(10)}` +
        `${String(skipped).padStart(9)}  ${t.into}`
    )
  }
  const skips = report.tables.flatMap((t) =>
    t.skipped.map((s) => `  ${t.table}: ${count(s.count, 'row')} — ${s.reason} (ids ` +
      `${s.ids.join(', ')}${s.count > s.ids.length ? ', …' : ''})`)
  )
  if (skips.length) lines.push('', 'Skipped:', ...skips)
  const changes = report.tables.flatMap((t) =>
    t.changed.map((c) => `  ${t.table}: ${c.count}× ${c.note}`)
  )
  if (changes.length) lines.push('', 'Imported with changes:', ...changes)
  const { tables, columns } = report.notImported
  if (tables.length || columns.length) {
    lines.push(
      '',
      'Not imported (no home in Bandstand):',
      ...columns.map(
        (c) => `  ${oneLine(`${c.table}.${c.column}`)}: ${count(c.values, 'value')} — ${c.reason}`
      ),
      ...tables.map((t) => `  table ${oneLine(t.table)}: ${count(t.rows, 'row')} — ${t.reason}`)
    )
  }
  const { genres, gigKinds } = report.addedToConfig
  if (genres.length || gigKinds.length) {
    lines.push(
      '',
      'Added to the app configuration: ' +
        [
          genres.length ? `genres ${oneLine(genres.join(', '))}` : '',
          gigKinds.length ? `gig kinds ${oneLine(gigKinds.join(', '))}` : ''
        ]
          .filter(Boolean)
          .join('; ')
    )
  }
  lines.push('', 'Users:')
  for (const u of report.users) {
    const renamed =
      u.sourceUsername !== null && u.sourceUsername !== u.username
        ? ` (libreStage: "${oneLine(u.sourceUsername)}")`
        : ''
    lines.push(
      `  ${oneLine(u.username)}${renamed}: ${oneLine(u.displayName)}, ${u.role}, ${u.status}` +
        (u.merged ? ' — the existing Bandstand account, kept with its password and role' : '')
    )
  }
  const active = report.users.filter((u) => u.status === 'active' && !u.merged)
  const kept = active.filter((u) => u.passwordKept)
  if (kept.length) {
    lines.push(
      '',
      `${count(kept.length, 'member')} log in with their libreStage password and the username ` +
        'above. A password shorter than Bandstand\'s 15 characters still logs in, and Bandstand ' +
        'then asks for a new one before anything else.'
    )
  }
  if (report.dryRun) {
    const unkept = active.length - kept.length
    lines.push(
      '',
      `A real import prints ${count(unkept, 'reset link')} (members whose password could ` +
        'not be kept; with --reset-links one per active member).'
    )
  } else if (report.resetLinks.length) {
    lines.push(
      '',
      'Password reset links — give each member their own; each works once, until ' +
        `${report.resetLinks[0]!.expiresAt}:`,
      ...report.resetLinks.map(
        (l) => `  ${oneLine(l.username)} (${oneLine(l.displayName)}): ${l.url}`
      ),
      'Expired? `bandstand user:reset-link <username>` makes a new one.'
    )
  }
  return lines
}
