import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok
} from '#test/helpers.js'
import { gigAvailability, gigs } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'

test(
  'GET /me/todos lists what the member still owes, and each answer removes an item',
  async (t) => {
    // Midday: "today" cannot change while the test runs.
    const ctx = await createTestApp({}, {}, { startAt: new Date('2026-06-10T10:00:00Z') })
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const mia = await userClient(ctx.app, 'mia')
    const today = todayIn('Europe/Berlin', ctx.now())
    const shift = (days: number) =>
      new Date(Date.parse(`${today}T12:00:00Z`) + days * 86400_000).toISOString().slice(0, 10)

    const empty = await mia.get('/me/todos')
    assert.equal(empty.statusCode, 200)
    assert.deepEqual(json<Ok<'/me/todos', 'get'>>(empty), {
      surveys: [],
      songs: [],
      rehearsals: [],
      gigs: [],
      checklist: [],
      total: 0
    })

    const proposal = json<Ok<'/songs', 'post'>>(
      await editor.post('/songs', { title: 'Idea', status: 'proposed' }))
    await editor.post('/songs', { title: 'Accepted' })
    const survey = json<Ok<'/surveys', 'post'>>(
      await editor.post('/surveys', {
        title: 'Poll',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }]
      })
    )
    const closed = json<Ok<'/surveys', 'post'>>(
      await editor.post('/surveys', {
        title: 'Closed',
        kind: 'poll',
        options: [{ label: 'a' }, { label: 'b' }]
      })
    )
    await editor.post(`/surveys/${closed.id}/close`)
    const upcoming = json<Ok<'/rehearsals', 'post'>>(
      await editor.post('/rehearsals', { date: today, startTime: '19:00' }))
    await editor.post('/rehearsals', { date: shift(-1), startTime: '19:00' })
    const stamp = ctx.now().toISOString()
    const gig = ctx.app.db
      .insert(gigs)
      .values({
        name: 'Stadtfest',
        date: shift(10),
        status: 'confirmed',
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
      .get()
    ctx.app.db
      .insert(gigs)
      .values({
        name: 'Declined',
        date: shift(10),
        status: 'declined',
        createdAt: stamp,
        updatedAt: stamp
      })
      .run()
    ctx.app.db
      .insert(gigs)
      .values({
        name: 'Past',
        date: shift(-10),
        status: 'confirmed',
        createdAt: stamp,
        updatedAt: stamp
      })
      .run()

    const { result, statements } = await countStatements(ctx.app, () => mia.get('/me/todos'))
    const todos = json<Ok<'/me/todos', 'get'>>(result)
    assert.deepEqual(
      todos.songs.map((s: { id: number }) => s.id),
      [proposal.id]
    )
    assert.deepEqual(
      todos.surveys.map((s: { id: number }) => s.id),
      [survey.id]
    )
    assert.deepEqual(
      todos.rehearsals.map((r: { id: number }) => r.id),
      [upcoming.id]
    )
    assert.deepEqual(
      todos.gigs.map((g: { id: number }) => g.id),
      [gig.id]
    )
    assert.equal(todos.total, 4)
    // the session check and one statement per kind of to-do
    assert.ok(statements <= 6, `${statements} statements`)

    await mia.put(`/songs/${proposal.id}/vote`, { vote: 'yes' })
    await mia.put(`/surveys/${survey.id}/response`, {
      answers: [{ optionId: survey.options[0]!.id, value: 'yes' }]
    })
    await mia.put(`/rehearsals/${upcoming.id}/availability`, { status: 'no' })
    ctx.app.db
      .insert(gigAvailability)
      .values({ gigId: gig.id, userId: mia.user.id, status: 'yes', updatedAt: stamp })
      .run()
    assert.deepEqual(json<Ok<'/me/todos', 'get'>>(await mia.get('/me/todos')), {
      surveys: [],
      songs: [],
      rehearsals: [],
      gigs: [],
      checklist: [],
      total: 0
    })
    // the editor has answered nothing yet
    assert.equal(json<Ok<'/me/todos', 'get'>>(await editor.get('/me/todos')).total, 4)
    assert.equal((await anonymous(ctx.app).get('/me/todos')).statusCode, 401)
  }
)
