import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'

// What the server's module graph loads at start is memory held for its whole life
// (docs/performance-memory.md). Node's bundled undici (fetch, WebSocket) is loaded by an ESM
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

// The built server keeps every module's source in memory; comments are a third of it, and their
// typographic characters make V8 keep a file as two bytes a character (tsconfig.build.json).
test('the built server carries no comments in its modules', () => {
  const commented: string[] = []
  for (const folder of ['src', 'plugins', 'schemas']) {
    for (const file of readdirSync(projectPath('dist', folder), { recursive: true })) {
      if (!String(file).endsWith('.js')) continue
      const lines = readFileSync(projectPath('dist', folder, String(file)), 'utf8').split('\n')
      const comment = lines.find((line) => /^\s*(\/\/(?!# sourceMappingURL=)|\/\*)/.test(line))
      if (comment !== undefined) commented.push(`${folder}/${String(file)}: ${comment.trim()}`)
    }
  }
  assert.deepEqual(commented.slice(0, 5), [])
})
