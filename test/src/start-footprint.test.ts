import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { projectPath } from '#src/project-path.js'

// What the server's module graph loads at start is memory held for its whole life
// (docs/performance.md). Node's bundled undici (fetch, WebSocket) is loaded by an ESM
// `import … from 'node:http'` on Node 24 (the namespace reads http.WebSocket); the server never
// needs it before a chat notice is sent.
const load = (entry: string) =>
  spawnSync(
    process.execPath,
    [
      '--conditions=bandstand-source',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(entry)}); ` +
        'console.log(JSON.stringify(process.moduleLoadList.filter((m) => /undici/.test(m))))'
    ],
    { cwd: projectPath(), encoding: 'utf8' }
  )

test('loading the app and the HTTP server does not load undici', () => {
  const run = load('#src/app.js')
  assert.equal(run.status, 0, run.stderr)
  assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').at(-1)!), [])
})

test('the check sees undici when a module imports node:http as ESM (it can fail)', () => {
  const run = load('data:text/javascript,import "node:http"')
  assert.equal(run.status, 0, run.stderr)
  const loaded = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as string[]
  // Node 22 has no http.WebSocket: there the ESM import loads nothing more.
  if (process.versions.node.startsWith('24.')) assert.ok(loaded.length > 0, 'undici loaded')
})
