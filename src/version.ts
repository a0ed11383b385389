import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { projectPath } from './project-path.js'

export const APP_VERSION: string = (
  JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }
).version

/**
 * The commit the running code was built from: written into dist/commit.txt by the build (a
 * release tarball and a container have no .git), else asked of git (running the sources), else
 * "unknown".
 */
function findCommit (): string {
  const file = projectPath('dist', 'commit.txt')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim() || 'unknown'
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: projectPath(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).trim()
  } catch {
    return 'unknown'
  }
}

export const APP_COMMIT: string = findCommit()
