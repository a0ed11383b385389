import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, json, userClient, type ErrorResponseBody
} from '#test/helpers.js'
import { errorBody } from '#src/errors.js'
import { WEAK_PASSWORD_REASONS } from '#shared/enums.js'

const detailOf = (body: ErrorResponseBody, field: string) => {
  // A 400's body always has details (the response schema marks them optional).
  const found = body.details!.find((d) => d.field === field)
  assert.ok(found, `a detail for ${field} in ${JSON.stringify(body.details)}`)
  return found
}

test('a 400 names each field with Ajv\'s keyword and params; the OpenAPI schema documents them',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const login = await anonymous(ctx.app).post('/login', { user: 'x' })
    assert.equal(login.statusCode, 400)
    const body = json<ErrorResponseBody>(login)
    assert.equal(body.code, 'VALIDATION_ERROR')
    assert.deepEqual(detailOf(body, 'body.username'), {
      field: 'body.username',
      message: "must have required property 'username'",
      keyword: 'required',
      params: { missingProperty: 'username' }
    })
    assert.equal(detailOf(body, 'body.user').keyword, 'additionalProperties')
    assert.deepEqual(detailOf(body, 'body.user').params, { additionalProperty: 'user' })

    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const gig = await editor.post('/gigs', {
      name: 'x'.repeat(201),
      date: '2026-07-04',
      status: 'maybe',
      startTime: '25:00',
      venue: { city: 7 }
    })
    assert.equal(gig.statusCode, 400, gig.body)
    const bad = json<ErrorResponseBody>(gig)
    const name = detailOf(bad, 'body.name')
    assert.equal(name.keyword, 'maxLength')
    assert.deepEqual(name.params, { limit: 200 })
    const status = detailOf(bad, 'body.status')
    assert.equal(status.keyword, 'enum')
    assert.deepEqual(status.params, {
      allowedValues: ['inquiry', 'confirmed', 'declined', 'cancelled']
    })
    assert.equal(detailOf(bad, 'body.startTime').keyword, 'pattern')
    assert.equal(detailOf(bad, 'body.venue.city').keyword, 'type')
    // A number in a path that is no finite number (the app's own check) has a keyword too.
    const infinite = await editor.get('/gigs/Infinity')
    assert.equal(infinite.statusCode, 400)
    assert.equal(detailOf(json<ErrorResponseBody>(infinite), 'params.id').keyword, 'type')

    // The part of the OpenAPI document read here.
    interface ErrorSchema {
      properties: { details: { items: { required: string[] } }; reason: { enum: string[] } }
    }
    const docs = json<{
      paths: {
        '/login': {
          post: { responses: { 400: { content: { 'application/json': { schema: ErrorSchema } } } } }
        }
      }
    }>(await anonymous(ctx.app).get('/docs/json'))
    const error = docs.paths['/login'].post.responses['400'].content['application/json'].schema
    const item = error.properties.details.items
    assert.ok(item.required.includes('keyword') && item.required.includes('params'))
    assert.deepEqual(error.properties.reason.enum, [...WEAK_PASSWORD_REASONS])
  })

test('WEAK_PASSWORD carries a reason code for each rule of the policy', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const create = (password: string) =>
    admin.post('/users', { username: 'annabelle', displayName: 'Anna', role: 'member', password })
  const cases = [
    ['too_short', 'fourteen chars'],
    ['too_long', 'x'.repeat(257)],
    ['contains_username', 'hello annabelle, welcome home'],
    ['too_common', 'passwordpassword']
  ] as const
  for (const [reason, password] of cases) {
    const res = await create(password)
    assert.equal(res.statusCode, 400, res.body)
    assert.equal(json<ErrorResponseBody>(res).code, 'WEAK_PASSWORD')
    assert.equal(json<ErrorResponseBody>(res).reason, reason, password)
  }
  // The set-up password must be changed for a new one: the same one is `unchanged`.
  const initial = 'an initial password of the admin'
  const created = await create(initial)
  assert.equal(created.statusCode, 201, created.body)
  const login = await anonymous(ctx.app).post('/login', {
    username: 'annabelle',
    password: initial
  })
  assert.equal(login.statusCode, 200, login.body)
  const cookie = [login.cookies].flat().map((c) => `${c.name}=${c.value}`).join('; ')
  const same = await ctx.app.inject({
    method: 'PUT',
    url: '/change_password',
    headers: { cookie },
    payload: { currentPassword: initial, newPassword: initial }
  })
  assert.equal(same.statusCode, 400, same.body)
  assert.equal(json<ErrorResponseBody>(same).reason, 'unchanged')
  // Other refusals carry no reason.
  assert.equal(json<ErrorResponseBody>(await admin.get('/users/9999')).reason, undefined)
})

test('errorBody is the one error shape: the code\'s status, or the one given', () => {
  assert.deepEqual(errorBody('SERVER_BUSY', 'wait'), {
    statusCode: 503,
    error: 'Service Unavailable',
    code: 'SERVER_BUSY',
    message: 'wait'
  })
  assert.deepEqual(errorBody('BAD_REQUEST', 'too large', 431), {
    statusCode: 431,
    error: 'Request Header Fields Too Large',
    code: 'BAD_REQUEST',
    message: 'too large'
  })
})
