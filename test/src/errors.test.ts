import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { anonymous, createTestApp, json, type ErrorResponseBody } from '#test/helpers.js'
import { ERROR_CODES } from '#src/error-codes.js'
import { projectPath } from '#src/project-path.js'

test(
  'one 400 names every offending field (missing and unknown); unknown routes 404 in the same shape',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const r = await anonymous(ctx.app).post('/login', { user: 'x' })
    assert.equal(r.statusCode, 400)
    const body = json<ErrorResponseBody>(r)
    assert.equal(body.code, 'VALIDATION_ERROR')
    assert.match(body.message, /username/)
    assert.match(body.message, /password/)
    assert.match(body.message, /user/)
    const nf = await anonymous(ctx.app).get('/nope')
    assert.equal(nf.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(nf).code, 'ROUTE_NOT_FOUND')
    const h = await anonymous(ctx.app).get('/health')
    assert.equal(h.statusCode, 200)
    const docs = await anonymous(ctx.app).get('/docs/json')
    assert.equal(docs.statusCode, 200)
  }
)

test('the error catalogue has no unused code, and every status is an HTTP status', () => {
  const sources = ['src', 'plugins']
    .flatMap((dir) =>
      readdirSync(projectPath(dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('error-codes.ts'))
        .map((file) => readFileSync(projectPath(dir, file), 'utf8'))
    )
    .join('\n')
  const named = new Set([
    ...sources.matchAll(/'([A-Z][A-Z_]{3,})'/g)
  ].map((m) => m[1]!))
  for (const code of Object.keys(ERROR_CODES)) assert.ok(named.has(code), `${code} is used`)
  for (const [code, { status }] of Object.entries(ERROR_CODES)) {
    assert.ok(STATUS_CODES[status], `${code}: ${status} is an HTTP status`)
  }
})
