import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  createTestApp,
  json,
  sessionClient,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { surveyAnswers } from '#src/db/schema.js'

// Answering a survey: single choice, a foreign option, closed by hand or by time, another
// member's answers out of reach, and the comment's limit.

test(
  'surveys: response rules — single choice, foreign option, closed by hand or by time',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    let anna = await userClient(ctx.app, 'anna')
    let ben = await userClient(ctx.app, 'ben')
    const s1 = json<Ok<'/surveys', 'post'>>(
      await anna.post('/surveys', {
        title: 'one',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }],
        closesAt: new Date(ctx.now().getTime() + 3600_000).toISOString()
      })
    )
    const s2 = json<Ok<'/surveys', 'post'>>(
      await anna.post('/surveys', {
        title: 'two',
        kind: 'poll',
        options: [{ label: 'c' }, { label: 'd' }]
      })
    )
    const [a, b] = s1.options.map((o: { id: number }) => o.id)
    const single = await ben.put(`/surveys/${s1.id}/response`, {
      answers: [
        { optionId: a, value: 'yes' },
        { optionId: b, value: 'yes' }
      ]
    })
    assert.equal(single.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(single).code, 'SINGLE_CHOICE')
    const foreign = await ben.put(`/surveys/${s1.id}/response`, {
      answers: [{ optionId: s2.options[0]!.id, value: 'yes' }]
    })
    assert.equal(foreign.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(foreign).code, 'UNKNOWN_OPTION')
    assert.equal(
      (
        await ben.put(`/surveys/${s1.id}/response`, {
          answers: [
            { optionId: a, value: 'yes' },
            { optionId: a, value: 'no' }
          ]
        })
      ).statusCode,
      400
    )
    assert.equal((await ben.put(`/surveys/${s1.id}/response`, { answers: [] })).statusCode, 400)
    assert.equal(
      (await ben.put(`/surveys/${s1.id}/response`, { answers: [{ optionId: a, value: 'sure' }] }))
        .statusCode,
      400
    )
    assert.equal(
      (await ben.put('/surveys/9999/response', { answers: [{ optionId: a, value: 'yes' }] }))
        .statusCode,
      404
    )
    assert.equal(ctx.app.db.select().from(surveyAnswers).all().length, 0)
    assert.equal(
      (
        await ben.put(`/surveys/${s1.id}/response`, {
          answers: [
            { optionId: a, value: 'yes' },
            { optionId: b, value: 'maybe' }
          ]
        })
      ).statusCode,
      200
    )

    // closesAt passes (an hour later the access token has expired too: a fresh session)
    ctx.advance(3600_000 + 1000)
    ben = sessionClient(ctx.app, ben.user)
    anna = sessionClient(ctx.app, anna.user)
    const late = await ben.put(`/surveys/${s1.id}/response`, {
      answers: [{ optionId: b, value: 'yes' }]
    })
    assert.equal(late.statusCode, 409)
    assert.equal(json<ErrorResponseBody>(late).code, 'SURVEY_CLOSED')
    assert.equal(json<Ok<'/surveys/{id}', 'get'>>(
      await ben.get(`/surveys/${s1.id}`)).status, 'closed')
    assert.deepEqual(json<Ok<'/surveys/{id}', 'get'>>(
      await ben.get(`/surveys/${s1.id}`)).myResponse, [
      { optionId: a, value: 'yes', comment: null },
      { optionId: b, value: 'maybe', comment: null }
    ])
    assert.deepEqual(
      json<Ok<'/surveys', 'get'>>(
        await ben.get('/surveys?status=open')).map((x: { id: number }) => x.id),
      [s2.id]
    )
    assert.deepEqual(
      json<Ok<'/surveys', 'get'>>(
        await ben.get('/surveys?status=closed')).map((x: { id: number }) => x.id),
      [s1.id]
    )

    // closed by hand
    const closed = await anna.post(`/surveys/${s2.id}/close`)
    assert.equal(closed.statusCode, 200)
    assert.equal(json<Ok<'/surveys/{id}/close', 'post'>>(closed).status, 'closed')
    const c = await ben.put(`/surveys/${s2.id}/response`, {
      answers: [{ optionId: s2.options[0]!.id, value: 'yes' }]
    })
    assert.equal(c.statusCode, 409)
  }
)

test("surveys: member A cannot change member B's answers", async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const ben = await userClient(ctx.app, 'ben')
  const s = json<Ok<'/surveys', 'post'>>(
    await anna.post('/surveys', {
      title: 's',
      kind: 'poll',
      multipleChoice: true,
      options: [{ label: 'a' }, { label: 'b' }]
    })
  )
  const [a, b] = s.options.map((o: { id: number }) => o.id)
  await ben.put(`/surveys/${s.id}/response`, { answers: [{ optionId: a, value: 'yes' }] })
  assert.equal(
    (
      await anna.put(`/surveys/${s.id}/response`, {
        userId: ben.user.id,
        answers: [{ optionId: a, value: 'no' }]
      })
    ).statusCode,
    400
  )
  assert.equal(
    (
      await anna.put(`/surveys/${s.id}/response`, {
        answers: [{ optionId: a, value: 'no', userId: ben.user.id }]
      })
    ).statusCode,
    400
  )
  await anna.put(`/surveys/${s.id}/response?userId=${ben.user.id}`, {
    answers: [{ optionId: b, value: 'no' }]
  })
  assert.deepEqual(json<Ok<'/surveys/{id}', 'get'>>(await ben.get(`/surveys/${s.id}`)).myResponse, [
    { optionId: a, value: 'yes', comment: null }
  ])
})

test('surveys: an answer comment has at most 200 characters; a refused one changes nothing',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const anna = await userClient(ctx.app, 'anna')
    const s = json<Ok<'/surveys', 'post'>>(
      await anna.post('/surveys', {
        title: 'Rehearsal day',
        kind: 'poll',
        options: [{ label: 'Monday' }, { label: 'Tuesday' }]
      })
    )
    const [monday] = s.options.map((o: { id: number }) => o.id)
    const ok = await anna.put(`/surveys/${s.id}/response`, {
      answers: [{ optionId: monday, value: 'yes', comment: 'ä'.repeat(200) }]
    })
    assert.equal(ok.statusCode, 200, ok.body)
    for (const comment of ['ä'.repeat(201), 42, 'bell\u0007']) {
      const bad = await anna.put(`/surveys/${s.id}/response`, {
        answers: [{ optionId: monday, value: 'no', comment }]
      })
      assert.equal(bad.statusCode, 400, `${String(comment)}: ${bad.body}`)
    }
    const mine = json<Ok<'/surveys/{id}', 'get'>>(await anna.get(`/surveys/${s.id}`)).myResponse
    assert.deepEqual(mine, [{ optionId: monday, value: 'yes', comment: 'ä'.repeat(200) }])
  })
