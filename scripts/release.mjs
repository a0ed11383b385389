// `npm run release`: the tarball a server installs (docs/deployment.md → Install a release):
// bandstand-<version>/ with dist/ (server, CLI, web app), the files the code reads at run time
// (migrations, the common-password list), package.json, package-lock.json, README, docs/*.md,
// CHANGELOG and LICENSE. Installed with `npm ci --omit=dev`, started with `node dist/server.js`:
// no build, no dev dependencies on the server. Builds first when dist/ is missing or stale.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const outIndex = process.argv.indexOf('--out')
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'release'))
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const name = `bandstand-${version}`

const run = (command, args, options = {}) => {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
run(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')])

const CONTENTS = ['dist', 'src/db/migrations', 'src/data', 'package.json', 'package-lock.json',
  'README.md', 'docs', 'CHANGELOG.md', 'LICENSE']
const staging = mkdtempSync(join(tmpdir(), 'bandstand-release-'))
try {
  for (const path of CONTENTS) {
    cpSync(join(root, path), join(staging, name, path), {
      recursive: true,
      // The bench's manifest is not needed to run; the README's links need docs/*.md, not its
      // screenshots.
      filter: (source) => !source.endsWith('web-manifest.json') &&
        !source.startsWith(join(root, 'docs', 'screenshots'))
    })
  }
  mkdirSync(out, { recursive: true })
  const tarball = join(out, `${name}.tgz`)
  // Owner and times fixed: the same dist/ gives the same tarball contents.
  run('tar', ['--owner=0', '--group=0', '--numeric-owner', '--sort=name', '-czf', tarball,
    '-C', staging, name])
  console.log(tarball)
} finally {
  rmSync(staging, { recursive: true, force: true })
}
