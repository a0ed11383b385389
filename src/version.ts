import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { projectPath, projectRoot } from './project-path.js'

export const APP_VERSION: string = (
  JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }
).version

let commit: string | undefined

/**
 * The commit the running code was built from: `BANDSTAND_COMMIT` when set (a release or container
 * build passes it), else the checkout's `git rev-parse`, else "unknown". Asked once.
 */
export function appCommit (): string {
  commit ??= process.env.BANDSTAND_COMMIT?.trim() || gitCommit() || 'unknown'
  return commit
}

function gitCommit (): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000
    }).trim()
    return /^[0-9a-f]{7,40}$/.test(out) ? out : undefined
  } catch {
    return undefined
  }
}
