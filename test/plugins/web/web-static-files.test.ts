import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import webAppRoutes from '#plugins/web/routes.js'
import { ConfigError } from '#src/config.js'

// The web app's files are served as files: no symlink is followed (at the start
// a build holding one is refused; a file swapped for one later is not served) and no directory is
// listed.

function build (t: { after(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-web-static-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const root = join(dir, 'web')
  mkdirSync(join(root, '_app', 'immutable'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(root, '_app', 'immutable', 'a.js'), 'export {}')
  writeFileSync(join(root, 'robots.txt'), 'User-agent: *')
  const outside = join(dir, 'outside')
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.txt'), 'the secret outside the build')
  return { root, outside }
}

async function serve (t: { after(fn: () => unknown): void }, root: string) {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(webAppRoutes, { enabled: true, root })
  await app.ready()
  return app
}

for (const [name, link] of [
  ['a file', (root: string, outside: string) =>
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret.txt'))],
  ['a folder', (root: string, outside: string) =>
    symlinkSync(outside, join(root, '_app', 'immutable', 'more'))]
] as const) {
  test(`the start refuses a web app build with a symlink to ${name}`, async (t) => {
    const { root, outside } = build(t)
    link(root, outside)
    await assert.rejects(
      serve(t, root),
      (error: Error) => error instanceof ConfigError && /contains a symlink/.test(error.message)
    )
  })
}

test('static files: no link followed after the start, no directory listed', async (t) => {
  const { root, outside } = build(t)
  const app = await serve(t, root)
  assert.equal((await app.inject({ url: '/app/robots.txt' })).body, 'User-agent: *')
  // The file swapped for a link while the server runs: not served.
  unlinkSync(join(root, 'robots.txt'))
  symlinkSync(join(outside, 'secret.txt'), join(root, 'robots.txt'))
  const swapped = await app.inject({ url: '/app/robots.txt' })
  assert.equal(swapped.statusCode, 404)
  assert.doesNotMatch(swapped.body, /the secret outside/)
  for (const url of [
    '/app/../outside/secret.txt',
    '/app/%2e%2e/outside/secret.txt',
    '/app/..%2foutside%2fsecret.txt',
    '/app/_app/..%2f..%2f..%2foutside/secret.txt',
    '/app/%252e%252e/outside/secret.txt'
  ]) {
    const response = await app.inject({ url })
    assert.doesNotMatch(response.body, /the secret outside/, url)
    assert.ok(response.statusCode >= 300, `${url}: ${response.statusCode}`)
  }
  for (const url of ['/app/_app/', '/app/_app/immutable/', '/app/_app/immutable']) {
    const response = await app.inject({ url })
    assert.ok([403, 404].includes(response.statusCode), `${url}: ${response.statusCode}`)
    assert.doesNotMatch(response.body, /a\.js/, `${url}: no listing`)
  }
})
