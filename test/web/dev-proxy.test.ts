import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { anonymous, createTestApp, json } from '#test/helpers.js'
import { projectPath } from '#src/project-path.js'

// The web dev server's proxy (web/dev-proxy.ts) sends every API path to the API and keeps the
// app's own paths: checked against the OpenAPI document, so a new route cannot be missed.
type DevProxy = typeof import('../../web/dev-proxy.js')
const { API_PATHS } = (await import(
  pathToFileURL(projectPath('web', 'dev-proxy.ts')).href
)) as DevProxy
const toApi = new RegExp(API_PATHS)

test('dev proxy: every path of the OpenAPI document goes to the API', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const doc = json<{ paths: Record<string, unknown> }>(await anonymous(ctx.app).get('/docs/json'))
  const paths = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, '12'))
  assert.ok(paths.length > 50)
  for (const path of [...paths, '/', '/docs/json', '/apple', '/me?x=1']) {
    assert.ok(toApi.test(path), path)
  }
})

test('dev proxy: the app’s own paths stay with the dev server', () => {
  for (const path of ['/app', '/app/', '/app?x=1', '/app/gigs/12', '/app/@vite/client']) {
    assert.equal(toApi.test(path), false, path)
  }
})
