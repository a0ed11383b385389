// tsc keeps the source tree (src/, plugins/, schemas/) under dist/, so the server lands at
// dist/src/server.js; this writes the documented entry point dist/server.js next to it, makes
// the CLI (package.json "bin") executable, and records the commit built (dist/commit.txt: a
// release tarball or a container has no .git to ask; BANDSTAND_COMMIT overrides).
import { execFileSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
writeFileSync(new URL('../dist/server.js', import.meta.url), "import './src/server.js'\n")
chmodSync(new URL('../dist/src/cli.js', import.meta.url), 0o755)
let commit = process.env.BANDSTAND_COMMIT ?? 'unknown'
if (!process.env.BANDSTAND_COMMIT) {
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).trim()
  } catch {
    // not a git checkout
  }
}
writeFileSync(new URL('../dist/commit.txt', import.meta.url), commit + '\n')
