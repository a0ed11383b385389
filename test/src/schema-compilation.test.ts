import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, json, userClient, type Ok, type ErrorResponseBody } from '#test/helpers.js'

// The server compiles validators and serializers on first use (start time); the other tests compile
// them at start. These check that the lazy ones behave exactly the same.
for (const compileSchemasAtStart of [false, true]) {
  test(
    `schemas compiled ${compileSchemasAtStart ? 'at start' : 'on first use'}: ` +
      'coercion, every error named, nothing leaks',
    async (t) => {
      const ctx = await createTestApp({}, {}, { compileSchemasAtStart })
      t.after(() => ctx.close())
      const admin = await userClient(ctx.app, 'ada', 'admin')

      // Path params and query strings are coerced from text; the same validator serves the second
      // call.
      const created = await admin.post('/songs', { title: 'Lazy Song', status: 'ready' })
      assert.equal(created.statusCode, 201)
      const id = json<Ok<'/songs', 'post'>>(created).id as number
      assert.equal(json<Ok<'/songs/{id}', 'get'>>(
        await admin.get(`/songs/${id}`)).title, 'Lazy Song')
      assert.equal(json<Ok<'/songs/{id}', 'get'>>(await admin.get(`/songs/${id}`)).id, id)
      assert.equal(json<Ok<'/songs', 'get'>>(await admin.get('/songs?status=ready')).length, 1)

      // A body error names every offending field, also on the second call of the same validator.
      for (let i = 0; i < 2; i++) {
        const bad = await admin.post('/songs', { title: 7, bogus: true })
        assert.equal(bad.statusCode, 400)
        const fields = (json<ErrorResponseBody>(
          bad).details as Array<{ field: string }>).map((d) => d.field).sort()
        assert.deepEqual(fields, ['body.bogus', 'body.title'])
      }
      const badParam = await admin.get('/songs/abc')
      assert.equal(badParam.statusCode, 400)
      assert.equal(json<ErrorResponseBody>(badParam).code, 'VALIDATION_ERROR')
      assert.match(json<ErrorResponseBody>(badParam).message, /params\.id/)
      // The schema controller tells bodies from text (it relies on Fastify passing the route
      // definition with its httpPart): query strings are coerced, JSON bodies are not.
      assert.equal((await admin.get('/songs?includeRetired=true')).statusCode, 200)
      const typed = await admin.post('/songs', { title: 'Typed', durationSeconds: '200' })
      assert.equal(typed.statusCode, 400)
      assert.match(json<ErrorResponseBody>(typed).message, /durationSeconds/)
      // A valid call after a failed one is not tainted by the earlier errors.
      assert.equal((await admin.get(`/songs/${id}`)).statusCode, 200)

      // Responses go through their schema: properties it does not name never reach the client.
      const me = json<Ok<'/me', 'get'>>(await admin.get('/me'))
      assert.equal(me.username, 'ada')
      assert.equal('passwordHash' in me, false)
      assert.equal(JSON.stringify(json<Ok<'/users', 'get'>>(
        await admin.get('/users'))).includes('scrypt'), false)
    }
  )
}
