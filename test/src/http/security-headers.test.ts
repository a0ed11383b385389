import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp } from '#test/helpers.js'

test('every response carries the security headers, errors and docs included', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  for (const url of ['/health', '/docs', '/docs/json', '/no-such-route', '/me']) {
    const response = await anonymous(ctx.app).get(url)
    assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
    assert.equal(response.headers['x-frame-options'], 'DENY', url)
    assert.ok(response.headers['referrer-policy'], url)
    const csp = String(response.headers['content-security-policy'])
    assert.match(csp, /frame-ancestors 'none'/, url)
    assert.match(csp, /script-src 'self'(;|$)/, url)
  }
})

test('large JSON is compressed by Accept-Encoding, small answers are not', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const big = await ctx.app.inject({
    method: 'GET',
    url: '/docs/json',
    headers: { 'accept-encoding': 'br, gzip' }
  })
  assert.equal(big.headers['content-encoding'], 'br')
  const gz = await ctx.app.inject({
    method: 'GET',
    url: '/docs/json',
    headers: { 'accept-encoding': 'gzip' }
  })
  assert.equal(gz.headers['content-encoding'], 'gzip')
  const { gunzipSync } = await import('node:zlib')
  assert.ok(JSON.parse(gunzipSync(gz.rawPayload).toString()).openapi)
  const small = await ctx.app.inject({
    method: 'GET',
    url: '/health',
    headers: { 'accept-encoding': 'gzip' }
  })
  assert.equal(small.headers['content-encoding'], undefined)
})
