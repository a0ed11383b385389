import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, userClient } from '#test/helpers.js'

// Routes anyone may call. A new public route must be added here on purpose, or this test fails.
const PUBLIC_ROUTES = new Set([
  'POST /login',
  'POST /refresh',
  'POST /logout',
  'GET /health',
  'GET /public/app_config',
  'GET /public/logo',
  // The installable web app: browsers fetch the manifest and its icons without cookies.
  'GET /public/manifest.webmanifest',
  'GET /public/icons/:file',
  'GET /cal/ical/:token',
  'POST /password-reset',
  'POST /password-reset/verify',
  // The links in a member's mail: a token instead of a session (a GET changes nothing).
  'GET /answer/:token',
  'POST /answer/:token',
  'GET /unsubscribe/:token',
  'POST /unsubscribe/:token'
])

const fill = (url: string) =>
  url.replace(/:(\w+)/g, (_m, name: string) => (name === 'token' ? 'not-a-token' : '1'))
const withBody = (method: string) => (['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined)

test('authorization matrix generated from the route table', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const member = await userClient(ctx.app, 'mia', 'member')
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const routes = ctx.app.routeTable.filter((r) => r.method !== 'HEAD')
  assert.ok(routes.length >= 10, 'route table collected')

  for (const route of routes) {
    const name = `${route.method} ${route.url}`
    const url = fill(route.url)
    if (route.access === 'public') {
      assert.ok(PUBLIC_ROUTES.has(name), `${name} is public but not on the public list`)
      continue
    }
    const anon = await anonymous(ctx.app).request(route.method, url, withBody(route.method))
    assert.equal(anon.statusCode, 401, `${name} without a session`)
    assert.equal(anon.json().statusCode, 401)
    if (route.access === 'editor' || route.access === 'admin') {
      const asMember = await member.request(route.method, url, withBody(route.method))
      assert.equal(asMember.statusCode, 403, `${name} as member`)
    }
    if (route.access === 'admin') {
      const asEditor = await editor.request(route.method, url, withBody(route.method))
      assert.equal(asEditor.statusCode, 403, `${name} as editor`)
    }
  }
})
