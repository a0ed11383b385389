import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { projectPath } from '#src/project-path.js'
import { createTestApp } from '#test/helpers.js'

// The built web app (npm test builds it first) as the API process serves it at /app/.
const WEB = projectPath('dist', 'web')
const asset = readdirSync(`${WEB}/_app/immutable/entry`).find((name) =>
  /^start\..+\.js$/.test(name)
)!

test('/ redirects to /app/; app routes and deep links get index.html, never cached', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const root = await ctx.app.inject({ url: '/' })
  assert.equal(root.statusCode, 302)
  assert.equal(root.headers.location, '/app/')
  const index = readFileSync(`${WEB}/index.html`, 'utf8')
  for (const url of ['/app', '/app/', '/app/gigs/12', '/app/surveys/3?x=1', '/app/me/']) {
    const response = await ctx.app.inject({ url })
    assert.equal(response.statusCode, 200, url)
    assert.match(String(response.headers['content-type']), /^text\/html/, url)
    assert.equal(response.headers['cache-control'], 'no-cache', url)
    assert.equal(response.body, index, url)
    assert.match(String(response.headers['content-security-policy']), /script-src 'self'/, url)
  }
})

test("index.html has no inline script: the app runs under script-src 'self'", () => {
  const index = readFileSync(`${WEB}/index.html`, 'utf8')
  const scripts = [...index.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
  assert.ok(scripts.length >= 1)
  for (const [, attributes, body] of scripts) {
    assert.match(attributes!, /\ssrc="\/app\/_app\/immutable\/entry\/boot\.[\w-]+\.js"/)
    assert.equal(body!.trim(), '')
  }
  assert.doesNotMatch(index, /\son[a-z]+=/i, 'no inline event handlers')
})

test('hashed assets: cached for a year, sent pre-compressed; unknown files 404', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const url = `/app/_app/immutable/entry/${asset}`
  const plain = await ctx.app.inject({ url })
  assert.equal(plain.statusCode, 200)
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable')
  assert.match(String(plain.headers['content-type']), /javascript/)
  const br = await ctx.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } })
  assert.equal(br.headers['content-encoding'], 'br')
  assert.ok(br.rawPayload.length < plain.rawPayload.length)
  for (const missing of [
    '/app/_app/immutable/entry/nope.js',
    '/app/favicon.ico',
    '/app/_app/nothing'
  ]) {
    const response = await ctx.app.inject({ url: missing })
    assert.equal(response.statusCode, 404, missing)
    assert.equal(response.json().code, 'ROUTE_NOT_FOUND', missing)
  }
  const version = await ctx.app.inject({ url: '/app/_app/version.json' })
  assert.equal(version.headers['cache-control'], 'no-cache')
})

test('the app adds nothing to the API: same routes, OpenAPI document and docs', async (t) => {
  const on = await createTestApp()
  const off = await createTestApp({ webEnabled: false })
  t.after(async () => {
    await on.close()
    await off.close()
  })
  assert.deepEqual(
    on.app.swagger(),
    off.app.swagger(),
    'the static routes are hidden from the OpenAPI document'
  )
  assert.deepEqual(on.app.routeTable, off.app.routeTable, 'no API route changed')
  for (const ctx of [on, off]) {
    assert.equal((await ctx.app.inject({ url: '/docs/json' })).statusCode, 200)
    assert.equal((await ctx.app.inject({ url: '/health' })).statusCode, 200)
    assert.equal((await ctx.app.inject({ url: '/me' })).statusCode, 401)
  }
})

test('WEB_ENABLED=false: no app, no redirect (404)', async (t) => {
  const ctx = await createTestApp({}, { WEB_ENABLED: 'false' })
  t.after(() => ctx.close())
  assert.equal(ctx.config.webEnabled, false)
  for (const url of ['/', '/app', '/app/', '/app/gigs/1', `/app/_app/immutable/entry/${asset}`]) {
    const response = await ctx.app.inject({ url })
    assert.equal(response.statusCode, 404, url)
    assert.equal(response.json().code, 'ROUTE_NOT_FOUND', url)
  }
})
