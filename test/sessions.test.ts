import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, createUser, login, PASSWORD, json } from './helpers.js'

test('login sets httpOnly cookies, /logout ends the session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const user = await createUser(ctx.app, 'anna', 'member')
  const c = await login(ctx.app, user)
  assert.ok(c.jar.get('access_token'))
  assert.ok(c.jar.get('refresh_token'))
  const out = await c.post('/logout')
  assert.equal(out.statusCode, 204)
  assert.equal(out.body, '')
})

test('wrong password and unknown user give the same 401', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  await createUser(ctx.app, 'anna')
  const a = await anonymous(ctx.app).post('/login', { username: 'anna', password: 'wrong password wrong' })
  const b = await anonymous(ctx.app).post('/login', { username: 'nobody', password: PASSWORD })
  assert.equal(a.statusCode, 401)
  assert.deepEqual(json(a), json(b))
})

test('validation error names every field, unknown property refused', async (t) => {
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
})
