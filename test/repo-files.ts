// The repository's own text files, for the tests that read the project as a whole
// (test/repo/): what git tracks or would track (.gitignore decides: no node_modules, .cache,
// dist or coverage), binary files left out.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'

export interface RepoFile {
  /** Relative to the project root, with `/`. */
  path: string
  text: string
}

const BINARY = /\.(png|jpe?g|gif|webp|ico|pdf|xlsx|db|sqlite|woff2?|ttf|gz|br|tgz|zip)$/i

export function repoFiles (): RepoFile[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard',
    '-z'], { cwd: projectPath('.'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const files: RepoFile[] = []
  for (const path of new Set(listed.split('\0').filter(Boolean))) {
    const full = projectPath(path)
    // A file deleted in the work tree but still in git's index is not part of the project.
    if (BINARY.test(path) || !existsSync(full) || !statSync(full).isFile()) continue
    const text = readFileSync(full, 'utf8')
    if (!text.includes('\0')) files.push({ path, text })
  }
  return files
}
