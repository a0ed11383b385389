// `npm test`'s test run: every `*.test.ts` under test/ (test/*.test.ts and the folders that mirror
// plugins/ and src/), found here because Node 20's --test does not expand `**` and the shell's glob
// needs globstar. Arguments narrow it to files or folders: `node scripts/run-tests.mjs test/web`.
// Runs node:test with the source condition and tsx, two files at a time, as before the folders.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = new URL('..', import.meta.url).pathname

/** The test files under `start` (a folder or one file), relative to the project, sorted. */
export function testFiles (start = join(root, 'test')) {
  const path = resolve(root, start)
  if (statSync(path).isFile()) return [relative(root, path)]
  return readdirSync(path, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts') && !file.split('/').includes('node_modules'))
    .map((file) => relative(root, join(path, file)))
    .sort()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const starts = process.argv.slice(2)
  const files = (starts.length > 0 ? starts : ['test']).flatMap((start) => testFiles(start))
  if (files.length === 0) {
    console.error(`no *.test.ts under ${starts.join(', ')}`)
    process.exit(1)
  }
  const run = spawnSync(process.execPath, ['--conditions=bandstand-source', '--import', 'tsx',
    '--test', '--test-concurrency=2', ...files], { cwd: root, stdio: 'inherit' })
  process.exit(run.status ?? 1)
}
