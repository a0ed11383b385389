import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { projectPath, projectRoot } from './project-path.js'

export const APP_VERSION: string = (
  JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }
).version

/**
 * The commit the running code was built from: `BANDSTAND_COMMIT` when set (a container build passes
 * it), else dist/commit.txt written by the build (a release tarball and a container have no .git),
 * else the checkout's `git rev-parse` (running the sources), else "unknown". Asked once.
 */
function findCommit (): string {
  const fromEnv = process.env.BANDSTAND_COMMIT?.trim()
  if (fromEnv) return fromEnv
  const file = projectPath('dist', 'commit.txt')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim() || 'unknown'
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000
    }).trim()
    return /^[0-9a-f]{7,40}$/.test(out) ? out : 'unknown'
  } catch {
    return 'unknown'
  }
}

export const APP_COMMIT: string = findCommit()
