import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'
import { nodeTooOld } from '#src/node-version.js'

const engines = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
  engines: { node: string }
}).engines.node

test('engines names the maintained LTS lines 22 and 24, and no older one', () => {
  assert.equal(engines, '^22.20.0 || ^24.12.0')
  for (const old of ['20.20.2', '18.20.8', '22.19.9', '21.7.3', '22.9.0']) {
    assert.equal(nodeTooOld(engines, old), true, old)
  }
  for (const fine of ['22.20.0', '22.23.3', 'v24.21.0', '24.12.0', '26.1.0']) {
    assert.equal(nodeTooOld(engines, fine), false, fine)
  }
  assert.equal(nodeTooOld('', '20.0.0'), false)
})

// process.versions.node is what the check reads; a preloaded module makes this Node look older,
// so the refusal is checked without a second Node installed.
const pretend = (version: string) =>
  'data:text/javascript,' +
  encodeURIComponent(`Object.defineProperty(process.versions, 'node', { value: '${version}' })`)

for (const [what, entry, args] of [
  ['server (node dist/server.js)', 'dist/server.js', []],
  ['CLI (bandstand db:migrate)', 'dist/src/cli.js', ['db:migrate']]
] as const) {
  test(`the built ${what} on Node 20 stops with one line and exit 78, before opening anything`,
    (t) => {
      assert.ok(existsSync(projectPath(entry)), 'run `npm run build` first (npm test does)')
      const dir = mkdtempSync(join(tmpdir(), 'bandstand-node20-'))
      t.after(() => rmSync(dir, { recursive: true, force: true }))
      const run = spawnSync(
        process.execPath,
        ['--import', pretend('20.20.2'), projectPath(entry), ...args],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, DATA_DIR: dir }, timeout: 30_000 }
      )
      assert.equal(run.status, 78, run.stderr)
      assert.equal(run.stdout, '')
      assert.equal(
        run.stderr,
        'Bandstand needs Node 22.20+ or 24.12+ (package.json engines), this is Node 20.20.2: ' +
          'install a supported Node (docs/node-versions.md).\n'
      )
      assert.deepEqual(readdirSync(dir), [], 'nothing was written to DATA_DIR')

      // The same entry on a supported version goes on (the CLI migrates, the server would listen).
      if (args.length > 0) {
        const ok = spawnSync(process.execPath, [projectPath(entry), ...args], {
          cwd: dir, encoding: 'utf8', env: { ...process.env, DATA_DIR: dir }, timeout: 30_000
        })
        assert.equal(ok.status, 0, ok.stderr)
        assert.ok(existsSync(join(dir, 'bandstand.db')))
      }
    })
}
