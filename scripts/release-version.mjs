// Which version a release is, from package.json alone, and whether CHANGELOG.md and git agree:
// every release is a git tag `v<version>` on the commit it was built from (CHANGELOG.md, docs/
// deployment.md → Releases). `npm run release` refuses a version the CHANGELOG has no entry for
// and says so when the entry is still "unreleased" or HEAD is not the tag's commit.
import { spawnSync } from 'node:child_process'

/** The CHANGELOG's entry for `version`: its heading line, or undefined when there is none. */
export function changelogHeading (changelog, version) {
  const escaped = version.replace(/[.+]/g, '\\$&')
  return new RegExp(`^## ${escaped}(?: .*)?$`, 'm').exec(changelog)?.[0]
}

/** The tag a release of `version` carries. */
export const releaseTag = (version) => `v${version}`

/**
 * What is not yet a release about this build: an empty list when the CHANGELOG dates the entry
 * and HEAD is the commit tagged `v<version>`.
 */
export function releaseWarnings (changelog, version, root) {
  const heading = changelogHeading(changelog, version)
  if (heading === undefined) {
    throw new Error(`CHANGELOG.md has no entry "## ${version}" for package.json's version`)
  }
  const warnings = []
  if (/unreleased/i.test(heading)) warnings.push(`CHANGELOG.md marks ${version} unreleased`)
  const tagged = spawnSync('git', ['tag', '--points-at', 'HEAD'], { cwd: root, encoding: 'utf8' })
  // A release tarball unpacked elsewhere has no .git: nothing to compare.
  if (tagged.status === 0 && !tagged.stdout.split('\n').includes(releaseTag(version))) {
    warnings.push(`HEAD is not tagged ${releaseTag(version)}`)
  }
  return warnings
}
