import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, json } from './helpers.js'

test(
  'one 400 names every offending field (missing and unknown); unknown routes 404 in the same shape',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const r = await anonymous(ctx.app).post('/login', { user: 'x' })
    assert.equal(r.statusCode, 400)
    const body = json(r)
    assert.equal(body.code, 'VALIDATION_ERROR')
    assert.match(body.message, /username/)
    assert.match(body.message, /password/)
    assert.match(body.message, /user/)
    const nf = await anonymous(ctx.app).get('/nope')
    assert.equal(nf.statusCode, 404)
    assert.equal(json(nf).code, 'ROUTE_NOT_FOUND')
    const h = await anonymous(ctx.app).get('/health')
    assert.equal(h.statusCode, 200)
    const docs = await anonymous(ctx.app).get('/docs/json')
    assert.equal(docs.statusCode, 200)
  }
)
