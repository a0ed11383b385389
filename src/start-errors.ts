import { existsSync, readFileSync, statSync } from 'node:fs'
import { ConfigError } from './config.js'

/**
 * File-system problems at start or in the CLI become one line that names the path and what to do
 * (exit 78, EX_CONFIG) instead of a stack trace: the person reading it runs a server, not Node.
 */
const FIX: Record<string, string> = {
  EACCES: 'permission denied: make it readable and writable by the user Bandstand runs as ' +
    '(chown -R <that user> DATA_DIR), or run as the owner (sudo -u <owner> …)',
  EPERM: 'operation not permitted: check its owner and mode (ls -l), or run as its owner',
  EROFS: 'the file system is read-only: point DATA_DIR at a writable directory ' +
    '(in a container: the /data volume)',
  EISDIR: 'it is a directory, but a file is expected there: remove or rename it',
  ENOTDIR: 'a part of the path is a file, not a directory: fix DATA_DIR',
  ENOSPC: 'no space left on the device: free some space (old backups, logs) and start again',
  EDQUOT: 'the disk quota is exhausted: free some space and start again',
  ENOENT: 'it does not exist: check the path'
}

const SQLITE_FIX: Record<string, string> = {
  SQLITE_CANTOPEN: FIX.EACCES!,
  SQLITE_READONLY: 'the database is read-only: make DATA_DIR and its files writable by the ' +
    'user Bandstand runs as',
  SQLITE_READONLY_DIRECTORY: FIX.EROFS!,
  SQLITE_FULL: FIX.ENOSPC!,
  SQLITE_IOERR: 'the disk reported an I/O error: check it (dmesg) and restore from a backup',
  SQLITE_CORRUPT: 'the database file is damaged: restore it from a backup ' +
    '(docs/operations.md → Backups)',
  SQLITE_NOTADB: 'it is not a Bandstand database: restore it from a backup'
}

/** One line for a known file-system or database-file problem, else null. */
export function actionableMessage (error: unknown, databaseFile?: string): string | null {
  if (error instanceof ConfigError) return error.message
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown }
  if (typeof code !== 'string') return null
  if (code === 'EADDRINUSE') {
    const { port } = error as { port?: number }
    return `port ${port ?? '?'} is in use by another program: stop it or set PORT.`
  }
  if (FIX[code] && typeof path === 'string') return `${path}: ${FIX[code]}.`
  const sqliteFix = SQLITE_FIX[code] ?? SQLITE_FIX[code.split('_').slice(0, 2).join('_')]
  if (sqliteFix && databaseFile) return `${databaseFile}: ${sqliteFix} (${code}).`
  return null
}

/**
 * As root on a DATA_DIR of another user, every file written (the database's -wal, a backup) would
 * be root's and the server, running as that user, could no longer open it: refused, with the
 * command to run instead.
 */
export function refuseForeignOwner (dataDir: string, command: string[]): void {
  if (process.getuid?.() !== 0 || !existsSync(dataDir)) return
  const { uid } = statSync(dataDir)
  if (uid === 0) return
  const owner = userName(uid)
  throw new ConfigError(
    `${dataDir} belongs to ${owner}, and files written as root would lock it out: ` +
      `run as that user: sudo -u ${owner} ${fullCommand(dataDir, command)}`
  )
}

/**
 * The command to paste: DATA_DIR spelled out (sudo drops the environment; `env` passes it where
 * sudo would refuse `VAR=value`), every word quoted for the shell, a password not repeated.
 */
export function fullCommand (dataDir: string, command: string[]): string {
  const quote = (word: string) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
  const words = command.map((word, i) => {
    if (command[i - 1] === '--password') return '<password>'
    return word.startsWith('--password=') ? '--password=<password>' : quote(word)
  })
  return ['env', quote(`DATA_DIR=${dataDir}`), ...words].join(' ')
}

/** The name /etc/passwd gives `uid`, else the number (`sudo -u '#1000'` takes it so). */
function userName (uid: number): string {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid))
    if (line) return line.split(':')[0]!
  } catch {
    // no passwd file
  }
  return `'#${uid}'`
}
