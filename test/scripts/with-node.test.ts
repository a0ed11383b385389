import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectPath } from '#src/project-path.js'
import { nodeTooOld } from '#src/node-version.js'
// @ts-expect-error -- plain JavaScript that Node 20 runs, without types
import { tooOld } from '#scripts/node-check.mjs'

const arch = process.arch === 'arm64' ? 'arm64' : 'x64'
const VERSION = '24.10.2'
const SOURCE = `https://nodejs.org/download/release/v${VERSION}/node-v${VERSION}.tar.gz`

/**
 * A copy of the launcher in a project of its own, a `node` first on PATH that says it is 20.20.2
 * (the check reads process.versions.node) and an `npm` that plays the registry: `view` answers
 * from the files here, `pack` hands over the tarball made here. Offline, and nothing is fetched.
 */
function project (t: { after: (fn: () => void) => void }, claim = `node v${VERSION} ${SOURCE}`) {
  const root = mkdtempSync(join(tmpdir(), 'bandstand-with-node-'))
  t.after(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'scripts'))
  for (const file of ['with-node.sh', 'fetch-node.sh', 'node-check.mjs']) {
    copyFileSync(projectPath('scripts', file), join(root, 'scripts', file))
  }
  copyFileSync(projectPath('package.json'), join(root, 'package.json'))
  const shims = join(root, 'shims')
  mkdirSync(shims)
  const script = (path: string, body: string) => {
    writeFileSync(path, `#!/bin/sh\n${body}\n`)
    chmodSync(path, 0o755)
  }
  const pretend = 'data:text/javascript,' + encodeURIComponent(
    'Object.defineProperty(process.versions, "node", { value: "20.20.2" })')
  script(join(shims, 'node'), `[ "$1" = -v ] && { echo v20.20.2; exit 0; }
exec "${process.execPath}" --import '${pretend}' "$@"`)
  // The package: bin/node answers the check with `claim`, anything else as the real Node.
  const pkg = join(root, 'pkg', 'package', 'bin')
  mkdirSync(pkg, { recursive: true })
  script(join(pkg, 'node'), `[ "$1" = -p ] && { echo '${claim}'; exit 0; }
exec "${process.execPath}" "$@"`)
  const tarball = join(root, `node-linux-${arch}-${VERSION}.tgz`)
  spawnSync('tar', ['czf', tarball, '-C', join(root, 'pkg'), 'package'])
  const bytes = readFileSync(tarball)
  const dist = {
    'dist.integrity': 'sha512-' + createHash('sha512').update(bytes).digest('base64'),
    'dist.shasum': createHash('sha1').update(bytes).digest('hex')
  }
  writeFileSync(join(root, 'dist.json'), JSON.stringify(dist))
  script(join(shims, 'npm'), `case "$1 $2" in
  "view node-linux-${arch}@24") echo '["24.9.9", "${VERSION}", "24.1.0", "24.11.0-rc.1"]' ;;
  "view node-linux-${arch}@${VERSION}") cat "${join(root, 'dist.json')}" ;;
  "pack --silent") cp "${tarball}" . && echo "${tarball.split('/').pop()}" ;;
  *) exit 9 ;;
esac`)
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync('bash', [join(root, 'scripts', 'with-node.sh'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${shims}:${process.env.PATH}`, ...env },
      timeout: 30_000
    })
  return { root, run, dist }
}

test('the launcher\'s check and the server\'s refusal agree on every version', () => {
  const engines = '^22.20.0 || ^24.12.0'
  for (const version of ['18.20.8', '20.20.2', '21.7.3', '22.9.0', '22.19.9', '22.20.0',
    '23.0.0', '24.11.9', '24.12.0', 'v24.22.3', '26.1.0']) {
    assert.equal(tooOld(engines, version), nodeTooOld(engines, version), version)
  }
  assert.equal(tooOld('', '1.0.0'), false)
})

test('on a supported Node the command runs on it, with no line and nothing fetched', (t) => {
  const { root } = project(t)
  const run = spawnSync('bash', [join(root, 'scripts', 'with-node.sh'), 'node', '-p',
    'process.versions.node'], { cwd: root, encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout.trim(), process.versions.node)
  assert.equal(run.stderr, '')
  assert.equal(existsSync(join(root, '.cache')), false)
})

test('on Node 20 Node 24 is fetched once, checked, and the command runs on it', (t) => {
  const { run } = project(t)
  const prepared = run(['--prepare'])
  assert.equal(prepared.status, 0, prepared.stderr)
  assert.match(prepared.stderr, /^Fetching Node 24 once \(npm package node-linux-\w+@24\)/)
  assert.match(prepared.stderr, /Node v20\.20\.2 is too old for Bandstand: npm start and npm run /)
  assert.equal(prepared.stdout, '')

  const started = run(['node', '-e', 'console.log(process.versions.node)'])
  assert.equal(started.status, 0, started.stderr)
  assert.equal(started.stdout.trim(), process.versions.node, 'the fetched Node ran the command')
  assert.equal(started.stderr, 'Node v20.20.2 is too old for Bandstand: running on Node ' +
    `v${process.versions.node} from .cache/node24 (BANDSTAND_NODE=system to refuse instead)\n`)

  const quiet = run(['--quiet', 'node', '-e', '""'])
  assert.equal(quiet.status, 0, quiet.stderr)
  assert.equal(quiet.stderr, '')
})

test('BANDSTAND_NODE=system keeps Node 20 and its one-line refusal, before any work', (t) => {
  const { root, run } = project(t)
  const refused = run(['node', '-e', 'console.log("built")'], { BANDSTAND_NODE: 'system' })
  assert.equal(refused.status, 78)
  assert.equal(refused.stdout, '')
  assert.equal(refused.stderr, 'Bandstand needs Node 22.20+ or 24.12+ (package.json engines), ' +
    'this is Node 20.20.2: install a supported Node (docs/node-versions.md).\n')
  assert.equal(run(['--prepare'], { BANDSTAND_NODE: 'system' }).status, 0)
  assert.equal(existsSync(join(root, '.cache')), false)
})

test('a tarball that does not match the registry\'s integrity is not used', (t) => {
  const { root, run, dist } = project(t)
  writeFileSync(join(root, 'dist.json'), JSON.stringify({
    ...dist, 'dist.integrity': 'sha512-' + createHash('sha512').update('other').digest('base64')
  }))
  const refused = run(['node', '-e', 'console.log("built")'])
  assert.equal(refused.status, 78)
  assert.equal(refused.stdout, '')
  assert.match(refused.stderr, /does not match the registry's dist\.integrity\/dist\.shasum/)
  assert.match(refused.stderr, /could not be fetched from the npm registry: install Node 22\.20\+/)
  assert.equal(existsSync(join(root, '.cache', 'node24')), false, 'nothing kept')
  // npm ci is not failed by it: the first start says it again.
  assert.equal(run(['--prepare']).status, 0)
})

test('a binary that is not the official release of that version is not used', (t) => {
  const { root, run } = project(t, `node v24.1.0 ${SOURCE}`)
  const refused = run(['node', '-e', '""'])
  assert.equal(refused.status, 78)
  assert.match(refused.stderr, /bin\/node says "node v24\.1\.0 https:.*", not Node v24\.10\.2/)
  assert.equal(existsSync(join(root, '.cache', 'node24')), false)
})
