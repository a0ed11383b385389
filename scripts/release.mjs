// `npm run release`: the tarball a server installs (docs/deployment.md → Install a release):
// bandstand-<version>/ with dist/ (server, CLI, web app), the files the code reads at run time
// (migrations, the common-password list), package.json, package-lock.json, README, docs/*.md,
// CHANGELOG, LICENSE and INSTALL.md (the steps and the Node versions, from package.json's
// engines). Installed with `npm ci --omit=dev`, started with `node dist/server.js`: no build, no
// dev dependencies on the server. Builds first when dist/ is missing or stale.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { releaseWarnings } from './release-version.mjs'

const root = new URL('..', import.meta.url).pathname
const outIndex = process.argv.indexOf('--out')
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'release'))
const { version, engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const name = `bandstand-${version}`
try {
  for (const warning of releaseWarnings(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version,
    root)) {
    console.error(`release: ${warning}: this tarball is no release (docs/deployment.md)`)
  }
} catch (error) {
  console.error(`release: ${error.message}`)
  process.exit(1)
}

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
  writeFileSync(join(staging, name, 'INSTALL.md'), installNotes())
  mkdirSync(out, { recursive: true })
  const tarball = join(out, `${name}.tgz`)
  // Owner and times fixed: the same dist/ gives the same tarball contents.
  run('tar', ['--owner=0', '--group=0', '--numeric-owner', '--sort=name', '-czf', tarball,
    '-C', staging, name])
  console.log(tarball)
} finally {
  rmSync(staging, { recursive: true, force: true })
}

/** What a server needs, first of all which Node: written from `engines`, so it cannot drift. */
function installNotes () {
  const lines = engines.node.split('||').map((range) => range.trim())
  return `# Installing Bandstand ${version}

Needs **Node ${lines.join(' or ')}** (package.json \`engines\`: the maintained LTS lines 22 and
24; \`node -v\` to check). Node 20 and older are not supported: the server and the CLI stop on
them with one line (exit 78). better-sqlite3 brings its binary for Linux x64 and arm64 (glibc
or musl) in its npm package, so nothing is compiled, but \`npm ci\` runs node-gyp for it, which
needs python3 and make (Debian: \`apt-get install python3 make\`).

\`\`\`sh
sudo mkdir -p /opt/bandstand
sudo tar xzf ${name}.tgz -C /opt/bandstand --strip-components=1
cd /opt/bandstand && sudo npm ci --omit=dev
sudo ln -sf /opt/bandstand/dist/src/cli.js /usr/local/bin/bandstand   # \`bandstand\` on PATH
DATA_DIR=/var/lib/bandstand node dist/server.js
\`\`\`

README.md (Deployment) has the systemd unit, the first hour on a fresh server and backups.
`
}
