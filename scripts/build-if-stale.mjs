// `npm start` (prestart): builds only when dist/ is missing or older than the sources, instead of
// on every start (a full build takes ~1–2.5 min and ~800 MB at its peak: too much for a 1 GB Pi at
// each restart). A release tarball has no sources: its dist/ is used as it is.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const SOURCES = ['src', 'plugins', 'schemas', 'web/src', 'web/static', 'package.json',
  'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'web/svelte.config.js',
  'web/vite.config.ts']
const OUTPUTS = ['dist/server.js', 'dist/web/index.html']

/** The newest modification time under `path` (0 when it does not exist). */
function newest (path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

const built = Math.min(...OUTPUTS.map((file) => newest(join(root, file)) || -Infinity))
// A release has src/db/migrations but no code to build.
const hasSources = existsSync(join(root, 'src', 'app.ts'))
if (built === -Infinity && !hasSources) {
  console.error('dist/ is missing and there are no sources to build it from: reinstall the release')
  process.exit(1)
}
const changed = Math.max(...SOURCES.map((path) => newest(join(root, path))))
if (built !== -Infinity && (!hasSources || changed <= built)) process.exit(0)
console.error(built === -Infinity ? 'dist/ missing: building…' : 'sources changed: building…')
const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
process.exit(run.status ?? 1)
