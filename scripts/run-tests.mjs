// `npm test`'s test run: every `*.test.ts` under test/ (test/*.test.ts and the folders that mirror
// plugins/ and src/), found here because Node 20's --test does not expand `**` and the shell's glob
// needs globstar. Arguments narrow it to files or folders: `node scripts/run-tests.mjs test/web`.
// Runs node:test with the source condition and tsx, two files at a time, then RUN_ALONE's.
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

/**
 * Run after the others, with the machine to themselves: the bench smoke test runs three bench
 * processes side by side and keeps both cores of a CI machine busy by itself; beside another test
 * file each only stretches the other, and the smoke test's one-minute budget is missed.
 */
export const RUN_ALONE = ['test/scripts/bench-smoke.test.ts']

/** node:test over `files`, `concurrency` at a time; its exit status. */
function runFiles (files, concurrency) {
  const run = spawnSync(process.execPath, ['--conditions=bandstand-source', '--import', 'tsx',
    '--test', `--test-concurrency=${concurrency}`, ...files], { cwd: root, stdio: 'inherit' })
  return run.status ?? 1
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const starts = process.argv.slice(2)
  const files = (starts.length > 0 ? starts : ['test']).flatMap((start) => testFiles(start))
  if (files.length === 0) {
    console.error(`no *.test.ts under ${starts.join(', ')}`)
    process.exit(1)
  }
  const together = files.filter((file) => !RUN_ALONE.includes(file))
  const alone = files.filter((file) => RUN_ALONE.includes(file))
  const statuses = [
    ...(together.length > 0 ? [runFiles(together, 2)] : []),
    ...alone.map((file) => runFiles([file], 1))
  ]
  process.exit(statuses.find((status) => status !== 0) ?? 0)
}
