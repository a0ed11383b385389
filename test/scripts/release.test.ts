import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'

test('npm run release makes a tarball that installs with npm ci --omit=dev and runs as the ' +
  'Containerfile\'s runtime stage does (scripts/container-replay.sh)', (t) => {
  const out = mkdtempSync(join(tmpdir(), 'bandstand-release-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))
  // dist/ is fresh here (npm test builds first): the release script does not build again.
  const release = spawnSync(process.execPath, [projectPath('scripts', 'release.mjs'), '--out', out],
    { encoding: 'utf8', timeout: 300_000 })
  assert.equal(release.status, 0, release.stderr)
  assert.doesNotMatch(release.stderr, /building/, 'no rebuild of a fresh dist/')
  const { version } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8'))
  const tarball = join(out, `bandstand-${version}.tgz`)
  assert.equal(release.stdout.trim(), tarball)

  const listing = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n')
  for (const file of ['dist/server.js', 'dist/src/cli.js', 'dist/web/index.html', 'package.json',
    'package-lock.json', 'CHANGELOG.md', 'README.md', 'docs/deployment.md',
    'src/db/migrations/meta/_journal.json']) {
    assert.ok(listing.includes(`bandstand-${version}/${file}`), file)
  }
  assert.ok(!listing.some((file) => /\/(src|plugins)\/.*\.ts$/.test(file)), 'no sources')
  // The install notes name the Node versions package.json's engines claims.
  const notes = spawnSync('tar', ['xzOf', tarball, `bandstand-${version}/INSTALL.md`],
    { encoding: 'utf8' }).stdout
  assert.match(notes, /Needs \*\*Node \^22\.20\.0 or \^24\.12\.0\*\*/)
  assert.match(notes, /npm ci --omit=dev/)

  const replay = spawnSync('bash', [projectPath('scripts', 'container-replay.sh'), tarball],
    { encoding: 'utf8', timeout: 300_000 })
  assert.equal(replay.status, 0, replay.stdout + replay.stderr)
  for (const step of ['installed: npm ci --omit=dev', 'bandstand on PATH',
    'healthy: HEALTHCHECK passed', 'web app served', 'first password kept in /data',
    'stopped cleanly; nothing written outside /data']) {
    assert.ok(replay.stdout.includes(step), `${step}\n${replay.stdout}${replay.stderr}`)
  }
})
