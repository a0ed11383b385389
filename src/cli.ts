#!/usr/bin/env node
// First: an unsupported Node stops with one line before better-sqlite3 is loaded.
import './node-version.js'
import { existsSync, realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { backupNow, writeBackup } from '#src/storage/backup.js'
import { ConfigError, loadConfig, loadDotEnv } from './config.js'
import { openDatabase, type DatabaseHandle } from './db/client.js'
import { hashPassword, passwordProblem } from '#src/auth/password.js'
import { seedDemo, SeedRefused } from './seed/index.js'
import { ApiError } from './errors.js'
import { storageFailureCode, storageFailureMessage } from '#src/storage/storage-health.js'
import { lockDataDir } from '#src/storage/data-dir-lock.js'
import { actionableMessage, refuseForeignOwner } from './start-errors.js'
import { findUserByUsername, insertUser, updateUser } from '#src/repositories/users.js'
import { revokeUserSessions } from '#src/repositories/sessions.js'
import { terminalSafe } from './terminal-text.js'
import { runDoctor } from './cli-doctor.js'
import { exportBand, importBand, importFromLibreStage, isTransferError } from './cli-transfer.js'
import {
  createResetLink,
  endResetLinks,
  RESET_LINK_MINUTES,
  resetUrl
} from '#src/repositories/password-resets.js'

const USAGE = `Usage: bandstand <command> [options]   (npm run cli -- <command> [options])

Commands:
  user:create <username> [--role admin|editor|member] [--display-name NAME] [--email ADDR]
              [--password PW] [--require-change]
        Creates an active user; without --password a random one is generated and printed.
        --require-change: the user must choose a new password before anything else.
  user:reset-password <username> [--password PW] [--require-change]
        Sets a new password (random and printed unless given) and ends all of the user's sessions;
        --require-change holds them to choosing their own at the next login.
  user:reset-link <username> [--base-url URL]
        Prints a one-time password reset link (15 minutes) for an active user; the base URL
        defaults to PUBLIC_URL, else http://localhost:PORT.
  db:migrate
        Applies pending migrations (the server also does this at start).
  doctor
        Lists what needs a look: songs whose old key could not be read (id, title, key as
        written). Exit code 1 when something was found.
  db:backup [<file>]
        Online backup of the live database (safe while the server runs), then an integrity check.
        Without <file>: into BACKUP_DIR, keeping the newest BACKUP_KEEP.
  demo:seed [--force]
        Fills the database with a demo band; refuses a database with data beyond the admin
        unless --force.
  export <file.zip>
        The whole band (every table except secrets and sessions) with the song and gig files
        as one archive; a name ending in .json writes the JSON document alone (no files).
  import <file.zip|file.json> [--base-url URL]
        Restores a band export into a database without band data (a new DATA_DIR); prints a
        one-time password reset link per active member (valid 72 hours).
  import-librestage <app.db> [--dry-run] [--json] [--force] [--reset-links] [--base-url URL]
        Imports a libreStage database (opened read-only) in one transaction and prints a report
        per table (--json: as JSON). Members log in with their libreStage passwords; a reset link
        (valid 72 hours) is printed for those whose password could not be kept, and with
        --reset-links for every active member. --dry-run writes nothing; --force adds to a
        database that already holds band data.

Configuration as the server's: the environment, .env in the working directory, then
DATA_DIR/bandstand.env (DATA_DIR defaults to ./data). Exit codes: 0 done, 1 refused,
64 wrong command line, 78 configuration or data directory.`

export interface CliIo {
  out(line: string): void
  err(line: string): void
}

/** A refusal of what was asked (no such user, a weak password, a file that exists): exit 1. */
class UsageError extends Error {}
/** The command line itself is wrong (EX_USAGE, 64): one line, and where the usage is. */
class BadUsage extends UsageError {}
const EX_USAGE = 64
const SEE_HELP = 'bandstand --help lists the commands and options'

/**
 * The commands that write much or change the schema: they take DATA_DIR's lock
 * (docs/deployment.md), so they refuse while a server runs and a server does not start during them.
 * The others (a user, a reset link, a backup) are single statements the server's data shares
 * safely through SQLite's own locking.
 */
const EXCLUSIVE_COMMANDS = new Set(['db:migrate', 'demo:seed', 'import', 'import-librestage'])

const generatedPassword = () => randomBytes(18).toString('base64url')

/**
 * Runs one command; returns the process exit code. Output goes through `io` so tests can read it.
 */
export async function runCli (
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = consoleIo
): Promise<number> {
  let handle: DatabaseHandle | undefined
  let unlock: (() => void) | undefined
  let databaseFile: string | undefined
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        role: { type: 'string', default: 'member' },
        'display-name': { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'base-url': { type: 'string' },
        force: { type: 'boolean', default: false },
        'require-change': { type: 'boolean', default: false },
        'reset-links': { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false }
      }
    })
    const [command, ...args] = positionals
    if (values.help) {
      io.out(USAGE)
      return 0
    }
    if (!command) throw new BadUsage('missing <command>')
    const config = loadConfig(env)
    databaseFile = config.databaseFile
    refuseForeignOwner(config.dataDir, ['bandstand', ...argv])
    if (EXCLUSIVE_COMMANDS.has(command) && !values['dry-run']) {
      unlock = lockDataDir(config.dataDir, command)
    }
    // With BACKUP_DIR, a pending migration is preceded by a backup (as at the server's start).
    const open = () => (handle = openDatabase(config.databaseFile, { backup: config.backup }))
    const now = new Date()
    const linkBase = () => {
      const baseUrl =
        values['base-url'] ?? config.publicUrl ?? `http://localhost:${config.port}`
      if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
        throw new BadUsage('--base-url must be an http(s) URL')
      }
      return baseUrl
    }

    switch (command) {
      case 'user:create': {
        const username = requireArg(args[0], 'username')
        const role = values.role
        if (role !== 'admin' && role !== 'editor' && role !== 'member') {
          throw new BadUsage('--role must be admin, editor or member')
        }
        const password = values.password ?? generatedPassword()
        const problem = passwordProblem(password, username)
        if (problem) throw new UsageError(problem)
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]{2,39}$/.test(username)) {
          throw new UsageError('username: 3–40 letters, digits, . _ -')
        }
        const { db } = open()
        const row = insertUser(
          db,
          {
            username,
            displayName: values['display-name'] ?? username,
            email: values.email ?? null,
            role,
            passwordChangeRequired: values['require-change']
          },
          await hashPassword(password),
          now
        )
        io.out(`created ${row.role} "${row.username}" (id ${row.id})`)
        if (!values.password) io.out(`password: ${password}`)
        return 0
      }
      case 'user:reset-password': {
        const username = requireArg(args[0], 'username')
        const { db } = open()
        const user = findUserByUsername(db, username)
        if (!user) throw new UsageError(`no user "${username}"`)
        const password = values.password ?? generatedPassword()
        const problem = passwordProblem(password, user.username)
        if (problem) throw new UsageError(problem)
        const passwordHash = await hashPassword(password)
        // Without --require-change a hold stays as it was: this password is not theirs either.
        const passwordChangeRequired = values['require-change']
        db.transaction(() => {
          updateUser(
            db,
            user.id,
            { passwordHash, ...(passwordChangeRequired ? { passwordChangeRequired } : {}) },
            now
          )
          revokeUserSessions(db, user.id, now)
          endResetLinks(db, user.id, now)
        })
        io.out(
          `new password for "${user.username}" set; all their sessions ended` +
            (passwordChangeRequired ? '; they must choose their own at the next login' : '')
        )
        if (!values.password) io.out(`password: ${password}`)
        return 0
      }
      case 'user:reset-link': {
        const username = requireArg(args[0], 'username')
        const baseUrl = linkBase()
        const { db } = open()
        const user = findUserByUsername(db, username)
        if (!user) throw new UsageError(`no user "${username}"`)
        const { token } = createResetLink(db, user.id, null, now)
        io.out(`reset link for "${user.username}" (valid ${RESET_LINK_MINUTES} minutes, once):`)
        io.out(resetUrl(baseUrl, token))
        return 0
      }
      case 'db:migrate': {
        open()
        io.out(`database ${config.databaseFile} is migrated`)
        return 0
      }
      case 'doctor': {
        if (!existsSync(config.databaseFile)) {
          throw new UsageError(`no database at ${config.databaseFile}`)
        }
        // Reads only: a running server's database is already migrated.
        handle = openDatabase(config.databaseFile, { migrate: false })
        return runDoctor(handle.sqlite, io)
      }
      case 'db:backup': {
        // Without a file: into BACKUP_DIR, pruned to BACKUP_KEEP, as the server's own backups.
        if (!args[0] && !config.backup) {
          throw new BadUsage('missing <file> (or set BACKUP_DIR, in DATA_DIR/bandstand.env ' +
            'to share it with the server)')
        }
        const target = args[0] ? resolve(args[0]) : undefined
        if (target && existsSync(target)) {
          throw new UsageError(`${target} exists; choose a new file`)
        }
        if (!existsSync(config.databaseFile)) {
          throw new UsageError(`no database at ${config.databaseFile}`)
        }
        // No migration here: a backup must copy the database exactly as the running server has it.
        // VACUUM INTO reads one consistent snapshot and, in WAL mode, does not block the server's
        // writers (src/storage/backup.ts).
        const { sqlite } = (handle = openDatabase(config.databaseFile, { migrate: false }))
        const written = target ?? backupNow(sqlite, config.backup!, now)
        const { bytes } = target ? writeBackup(sqlite, target) : { bytes: statSync(written).size }
        io.out(`backup written to ${written} (${bytes} bytes, integrity ok)`)
        return 0
      }
      case 'demo:seed': {
        const { db } = open()
        const { context, password } = await seedDemo(db, {
          now,
          force: values.force,
          mustChangePassword: true
        })
        io.out(
          `demo data seeded: ${context.userIds.length} users (admin, lena = editor, ` +
            'max, jonas, sophie, tim, paul)'
        )
        io.out(`every demo user's password: ${password} (to be changed at the first login)`)
        return 0
      }
      case 'export': {
        const file = requireArg(args[0], 'file.zip')
        await exportBand(open(), file, { now, dataDir: config.dataDir }, io)
        return 0
      }
      case 'import': {
        const file = requireArg(args[0], 'file.zip')
        const baseUrl = linkBase()
        await importBand(open(), file, {
          now,
          baseUrl,
          dataDir: config.dataDir,
          quotaBytes: config.filesQuotaBytes
        }, io)
        return 0
      }
      case 'import-librestage': {
        const file = requireArg(args[0], 'app.db')
        const baseUrl = linkBase()
        const dryRun = values['dry-run']
        // A dry run writes nothing, not even a new database file.
        const target = () =>
          dryRun && !existsSync(config.databaseFile)
            ? (handle = openDatabase(':memory:'))
            : open()
        importFromLibreStage(
          target,
          file,
          {
            now,
            baseUrl,
            dryRun,
            force: values.force,
            json: values.json,
            resetLinks: values['reset-links']
          },
          io
        )
        return 0
      }
      default:
        throw new BadUsage(`unknown command "${command}"`)
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof SeedRefused ||
      error instanceof ApiError ||
      isTransferError(error)
    ) {
      // A refusal may quote the file being imported: never a terminal control sequence.
      if (error instanceof BadUsage) {
        io.err(`error: ${terminalSafe(error.message)} (${SEE_HELP})`)
        return EX_USAGE
      }
      io.err(`error: ${terminalSafe(error.message)}`)
      if (error instanceof ConfigError) return 78 // EX_CONFIG, as the server
      return 1
    }
    const sqliteCode = storageFailureCode(error)
    if (sqliteCode !== undefined) {
      // The failed write's transaction was rolled back; say what to look at.
      io.err(
        `error: the database could not be written (${sqliteCode}: ` +
          `${storageFailureMessage(error)}). Check the free space and the permissions of DATA_DIR`
      )
      return 1
    }
    const actionable = actionableMessage(error, databaseFile)
    if (actionable) {
      io.err(`error: ${actionable}`)
      return 78
    }
    if (
      error instanceof TypeError &&
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.err(`error: ${terminalSafe(error.message)} (${SEE_HELP})`)
      return EX_USAGE
    }
    throw error
  } finally {
    handle?.close()
    unlock?.()
  }
}

function requireArg (value: string | undefined, name: string): string {
  if (!value) throw new BadUsage(`missing <${name}>`)
  return value
}

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) }

// Run only when executed (npm run cli, the bin link), not when imported by tests.
const invokedAs = process.argv[1] ? realpathSync(process.argv[1]) : ''
if (invokedAs === fileURLToPath(import.meta.url)) {
  loadDotEnv()
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    }
  )
}
