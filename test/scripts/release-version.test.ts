// A release's version comes from package.json alone; CHANGELOG.md must have its entry, and a
// release is the commit tagged v<version> (scripts/release-version.mjs, used by npm run release).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'
// @ts-expect-error -- a plain ESM script without types
import { changelogHeading, releaseWarnings } from '#scripts/release-version.mjs'

const CHANGELOG = '# Changelog\n\n## 0.3.0 — unreleased\n\n## 0.2.0 — 2026-12-01\n\n## 0.1.0\n'

test('the CHANGELOG entry of a version is found by its heading, not by a longer version', () => {
  assert.equal(changelogHeading(CHANGELOG, '0.2.0'), '## 0.2.0 — 2026-12-01')
  assert.equal(changelogHeading(CHANGELOG, '0.1.0'), '## 0.1.0')
  assert.equal(changelogHeading(CHANGELOG, '0.1'), undefined)
  assert.equal(changelogHeading(CHANGELOG, '0.2.0.1'), undefined)
})

test('package.json\'s version has its CHANGELOG entry', () => {
  const { version } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8'))
  assert.ok(changelogHeading(readFileSync(projectPath('CHANGELOG.md'), 'utf8'), version))
})

test('a release is a dated CHANGELOG entry on the commit tagged v<version>', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-release-version-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const git = (...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org',
      '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], { cwd: dir })
    assert.equal(run.status, 0, String(run.stderr))
  }
  git('init', '-q')
  git('commit', '-q', '--allow-empty', '-m', 'Release')
  assert.deepEqual(releaseWarnings(CHANGELOG, '0.3.0', dir),
    ['CHANGELOG.md marks 0.3.0 unreleased', 'HEAD is not tagged v0.3.0'])
  git('tag', '-a', 'v0.2.0', '-m', 'Bandstand 0.2.0')
  assert.deepEqual(releaseWarnings(CHANGELOG, '0.2.0', dir), [])
  assert.throws(() => releaseWarnings(CHANGELOG, '0.4.0', dir), /no entry "## 0.4.0"/)
  // Outside a git checkout (a container build copies no .git) there is no tag to compare.
  const bare = mkdtempSync(join(tmpdir(), 'bandstand-no-git-'))
  t.after(() => rmSync(bare, { recursive: true, force: true }))
  assert.deepEqual(releaseWarnings(CHANGELOG, '0.2.0', bare), [])
})
