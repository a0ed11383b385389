import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  countStatements,
  createTestApp,
  createUser,
  json,
  userClient,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { surveyAnswers, surveyOptions, surveys } from '#src/db/schema.js'

const future = (ctx: { now(): Date }, hours = 24) =>
  new Date(ctx.now().getTime() + hours * 3600_000).toISOString()

test('surveys: any member creates a poll, others answer, results and list fields', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const ben = await userClient(ctx.app, 'ben')
  const created = await anna.post('/surveys', {
    title: 'Bandshirt colour',
    kind: 'poll',
    options: [{ label: 'Black' }, { label: 'Red' }, { label: 'Teal' }],
    closesAt: future(ctx)
  })
  assert.equal(created.statusCode, 201, created.body)
  const s = json<Ok<'/surveys', 'post'>>(created)
  assert.equal(s.status, 'open')
  assert.equal(s.multipleChoice, false)
  assert.equal(s.createdBy, anna.user.id)
  assert.equal(s.responseCount, 0)
  assert.equal(s.myResponse, null)
  assert.deepEqual(
    s.options.map((o) => [o.label, o.at]),
    [
      ['Black', null],
      ['Red', null],
      ['Teal', null]
    ]
  )
  const [black, red, teal] = s.options.map((o: { id: number }) => o.id)

  const a1 = await ben.put(`/surveys/${s.id}/response`, {
    answers: [
      { optionId: red, value: 'yes', comment: '  Red is our colour  ' },
      { optionId: black, value: 'maybe', comment: '   ' }
    ]
  })
  assert.equal(a1.statusCode, 200, a1.body)
  assert.deepEqual(json<Ok<'/surveys/{id}/response', 'put'>>(a1).myResponse, [
    { optionId: black, value: 'maybe', comment: null },
    { optionId: red, value: 'yes', comment: 'Red is our colour' }
  ])
  // a new response replaces the old one entirely
  await ben.put(`/surveys/${s.id}/response`, { answers: [{ optionId: teal, value: 'yes' }] })
  await anna.put(`/surveys/${s.id}/response`, {
    answers: [
      { optionId: teal, value: 'yes' },
      { optionId: red, value: 'no', comment: 'Red clashes with the stage lights' }
    ]
  })

  const detail = json<Ok<'/surveys/{id}', 'get'>>(await ben.get(`/surveys/${s.id}`))
  assert.equal(detail.responseCount, 2)
  assert.deepEqual(detail.myResponse, [{ optionId: teal, value: 'yes', comment: null }])
  assert.deepEqual(detail.results[1]!.answers, [
    {
      userId: anna.user.id,
      displayName: 'Anna',
      value: 'no',
      comment: 'Red clashes with the stage lights'
    }
  ])
  assert.deepEqual(
    detail.results.map((r: { optionId: number; yes: number; maybe: number; no: number }) => [
      r.optionId,
      r.yes,
      r.maybe,
      r.no
    ]),
    [
      [black, 0, 0, 0],
      [red, 0, 0, 1],
      [teal, 2, 0, 0]
    ]
  )
  assert.deepEqual(
    detail.results[2]!.answers.map((a: { displayName: string }) => a.displayName),
    ['Anna', 'Ben']
  )

  ctx.advance(1000)
  await ben.post('/surveys', {
    title: 'Second',
    kind: 'poll',
    multipleChoice: true,
    options: [{ label: 'a' }, { label: 'b' }]
  })
  const list = json<Ok<'/surveys', 'get'>>(await anna.get('/surveys'))
  assert.deepEqual(
    list.map((x: { title: string }) => x.title),
    ['Second', 'Bandshirt colour']
  )
  assert.equal(list[1]!.responseCount, 2)
  assert.deepEqual(list[1]!.myResponse, [
    { optionId: red, value: 'no', comment: 'Red clashes with the stage lights' },
    { optionId: teal, value: 'yes', comment: null }
  ])
  assert.equal(list[0]!.myResponse, null)
  assert.equal((list[0] as Record<string, unknown>).results, undefined)
  assert.deepEqual(json<Ok<'/surveys', 'get'>>(await anna.get('/surveys?status=closed')), [])
})

test('surveys: date survey options, validation of create', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const date = await anna.post('/surveys', {
    title: 'Next rehearsal weekend',
    kind: 'date',
    options: [{ at: '2030-03-01T14:00' }, { at: '2030-03-02T10:00', label: 'Sunday morning' }]
  })
  assert.equal(date.statusCode, 201)
  assert.deepEqual(
    json<Ok<'/surveys', 'post'>>(date).options.map((o) => [o.label, o.at]),
    [
      ['2030-03-01T14:00', '2030-03-01T14:00'],
      ['Sunday morning', '2030-03-02T10:00']
    ]
  )
  assert.equal(json<Ok<'/surveys', 'post'>>(date).multipleChoice, true)
  const options = json<Ok<'/surveys', 'post'>>(date).options.map((o: { id: number }) => o.id)
  const both = await anna.put(`/surveys/${json<Ok<'/surveys', 'post'>>(date).id}/response`, {
    answers: options.map((optionId: number) => ({ optionId, value: 'yes' }))
  })
  assert.equal(both.statusCode, 200)

  const bad: Array<[object, string]> = [
    [
      { title: 'x', kind: 'date', options: [{ at: '2030-03-01T14:00' }, { label: 'no date' }] },
      'OPTION_NEEDS_AT'
    ],
    [
      {
        title: 'x',
        kind: 'poll',
        options: [{ label: 'a', at: '2030-03-01T14:00' }, { label: 'b' }]
      },
      'OPTION_AT_NOT_ALLOWED'
    ],
    [{ title: 'x', kind: 'poll', options: [{ label: 'a' }, {}] }, 'OPTION_NEEDS_LABEL'],
    [{ title: 'x', kind: 'poll', options: [{ label: 'a' }, { label: 'A' }] }, 'DUPLICATE_OPTION'],
    [{ title: 'x', kind: 'poll', options: [{ label: 'a' }] }, 'VALIDATION_ERROR'],
    [
      {
        title: 'x',
        kind: 'poll',
        options: Array.from({ length: 51 }, (_, i) => ({ label: `o${i}` }))
      },
      'VALIDATION_ERROR'
    ],
    [{ title: 'x', kind: 'vote', options: [{ label: 'a' }, { label: 'b' }] }, 'VALIDATION_ERROR'],
    [
      {
        title: 'x',
        kind: 'date',
        options: [{ at: '2030-13-01T14:00' }, { at: '2030-03-01T14:00' }]
      },
      'VALIDATION_ERROR'
    ],
    [
      {
        title: 'x',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }],
        closesAt: new Date(ctx.now().getTime() - 1000).toISOString()
      },
      'CLOSES_AT_IN_PAST'
    ],
    [
      { title: 'x', kind: 'poll', options: [{ label: 'a' }, { label: 'b' }], createdBy: 1 },
      'VALIDATION_ERROR'
    ],
    [
      { title: 'x', kind: 'poll', options: [{ label: 'a' }, { label: 'b' }], status: 'closed' },
      'VALIDATION_ERROR'
    ]
  ]
  for (const [body, code] of bad) {
    const r = await anna.post('/surveys', body)
    assert.equal(r.statusCode, 400, JSON.stringify(body))
    assert.equal(json<ErrorResponseBody>(r).code, code, JSON.stringify(body))
  }
  assert.equal(
    (
      await anonymous(ctx.app).post('/surveys', {
        title: 'x',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }]
      })
    ).statusCode,
    401
  )
  assert.equal((await anonymous(ctx.app).get('/surveys')).statusCode, 401)
})

test('surveys: close and delete by creator, editor or admin only', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const anna = await userClient(ctx.app, 'anna')
  const ben = await userClient(ctx.app, 'ben')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const admin = await userClient(ctx.app, 'ada', 'admin')
  const mk = async () =>
    json<Ok<'/surveys', 'post'>>(
      await anna.post('/surveys', {
        title: 's',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }]
      })
    ).id
  const s = await mk()
  assert.equal((await ben.post(`/surveys/${s}/close`)).statusCode, 403)
  assert.equal((await ben.delete(`/surveys/${s}`)).statusCode, 403)
  assert.equal((await anna.post(`/surveys/${s}/close`)).statusCode, 200)
  assert.equal((await anna.post(`/surveys/${s}/close`)).statusCode, 200)
  assert.equal((await anna.delete(`/surveys/${s}`)).statusCode, 204)
  assert.equal((await anna.get(`/surveys/${s}`)).statusCode, 404)
  const s2 = await mk()
  assert.equal((await editor.post(`/surveys/${s2}/close`)).statusCode, 200)
  assert.equal((await admin.delete(`/surveys/${s2}`)).statusCode, 204)
  const s3 = await mk()
  await ben.put(`/surveys/${s3}/response`, {
    answers: [{
      optionId: json<Ok<'/surveys/{id}', 'get'>>(
        await ben.get(`/surveys/${s3}`)).options[0]!.id,
      value: 'yes'
    }]
  })
  assert.equal((await editor.delete(`/surveys/${s3}`)).statusCode, 204)
  assert.equal(ctx.app.db.select().from(surveyAnswers).all().length, 0)
  const nf = await anna.get('/surveys/9999')
  assert.equal(nf.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(nf).code, 'SURVEY_NOT_FOUND')
  assert.equal((await anna.post('/surveys/9999/close')).statusCode, 404)
  assert.equal((await anna.delete('/surveys/9999')).statusCode, 404)
  assert.equal((await anonymous(ctx.app).post(`/surveys/${s3}/close`)).statusCode, 401)
  assert.equal((await anonymous(ctx.app).delete(`/surveys/${s3}`)).statusCode, 401)
  assert.equal((await anonymous(ctx.app).get(`/surveys/${s3}`)).statusCode, 401)
})

test(
  'surveys: the list takes the same number of statements for 10 and 100 surveys ' +
    'with 20 answers each',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const member = await userClient(ctx.app, 'mia')
    const voters: Array<{ id: number }> = []
    for (let i = 0; i < 20; i++) voters.push(await createUser(ctx.app, `voter${i}`))
    const stamp = ctx.now().toISOString()
    const insert = (n: number) =>
      ctx.app.db.transaction((tx) => {
        for (let i = 0; i < n; i++) {
          const s = tx
            .insert(surveys)
            .values({
              title: `S${i}`,
              kind: 'poll',
              createdBy: member.user.id,
              createdAt: stamp,
              updatedAt: stamp
            })
            .returning()
            .get()
          const opts = tx
            .insert(surveyOptions)
            .values([
              { surveyId: s.id, position: 0, label: 'a' },
              { surveyId: s.id, position: 1, label: 'b' }
            ])
            .returning()
            .all()
          tx.insert(surveyAnswers)
            .values(
              voters.map((v, k) => ({
                surveyId: s.id,
                optionId: opts[k % 2]!.id,
                userId: v.id,
                value: 'yes' as const,
                answeredAt: stamp
              }))
            )
            .run()
        }
      })
    insert(10)
    const small = await countStatements(ctx.app, () => member.get('/surveys'))
    assert.equal(json<Ok<'/surveys', 'get'>>(small.result).length, 10)
    insert(90)
    const large = await countStatements(ctx.app, () => member.get('/surveys'))
    const list = json<Ok<'/surveys', 'get'>>(large.result)
    assert.equal(list.length, 100)
    assert.ok(list.every((s: { responseCount: number }) => s.responseCount === 20))
    assert.equal(large.statements, small.statements)
    assert.ok(large.statements <= 5, `${large.statements} statements`)
  }
)
