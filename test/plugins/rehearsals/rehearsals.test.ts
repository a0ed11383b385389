import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { rehearsals, rehearsalSongs, songs, users } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { eq } from '#src/db/orm.js'

async function setup () {
  const ctx = await createTestApp()
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const s1 = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Alpha' }))
  const s2 = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Beta' }))
  return { ctx, editor, member, s1, s2 }
}

test(
  'rehearsals: create with songs, default end, get, patch replaces songs and bumps sequence',
  async (t) => {
    const { ctx, editor, member, s1, s2 } = await setup()
    t.after(() => ctx.close())
    const created = await editor.post('/rehearsals', {
      date: '2030-05-04',
      startTime: '19:00',
      location: 'Proberaum',
      songs: [
        { songId: s1.id, notes: 'Bridge!' },
        { songId: s2.id, done: true }
      ]
    })
    assert.equal(created.statusCode, 201, created.body)
    const r = json<Ok<'/rehearsals', 'post'>>(created)
    assert.equal(r.endTime, '21:00')
    assert.deepEqual(r.songs, [
      { songId: s1.id, title: 'Alpha', notes: 'Bridge!', done: false },
      { songId: s2.id, title: 'Beta', notes: null, done: true }
    ])
    assert.equal(r.sequence, 0)

    const got = await member.get(`/rehearsals/${r.id}`)
    assert.equal(got.statusCode, 200)
    assert.deepEqual(json<Ok<'/rehearsals/{id}', 'get'>>(got), r)

    ctx.advance(1000)
    const patched = await editor.patch(`/rehearsals/${r.id}`, {
      songs: [{ songId: s2.id, notes: 'only this' }],
      notes: 'bring cables'
    })
    assert.equal(patched.statusCode, 200)
    const p = json<Ok<'/rehearsals/{id}', 'patch'>>(patched)
    assert.deepEqual(p.songs, [{ songId: s2.id, title: 'Beta', notes: 'only this', done: false }])
    assert.equal(p.sequence, 1)
    assert.ok(p.updatedAt > r.updatedAt)
    assert.equal(p.location, 'Proberaum')

    // moving the start keeps the duration; endTime null resets to 2 h
    const moved = json<Ok<'/rehearsals/{id}', 'patch'>>(
      await editor.patch(`/rehearsals/${r.id}`, { startTime: '18:30' }))
    assert.equal(moved.endTime, '20:30')
    assert.equal(moved.sequence, 2)
    assert.equal(
      json<Ok<'/rehearsals/{id}', 'patch'>>(
        await editor.patch(`/rehearsals/${r.id}`, { endTime: '22:15' })).endTime,
      '22:15'
    )
    assert.equal(
      json<Ok<'/rehearsals/{id}', 'patch'>>(
        await editor.patch(`/rehearsals/${r.id}`, { endTime: null })).endTime,
      '20:30'
    )
    // songs untouched when not given
    assert.equal(json<Ok<'/rehearsals/{id}', 'get'>>(
      await editor.get(`/rehearsals/${r.id}`)).songs.length, 1)
    assert.deepEqual(json<Ok<'/rehearsals/{id}', 'patch'>>(
      await editor.patch(`/rehearsals/${r.id}`, { songs: [] })).songs, [])

    const late = json<Ok<'/rehearsals', 'post'>>(
      await editor.post('/rehearsals', { date: '2030-05-05', startTime: '22:30' }))
    assert.equal(late.endTime, '23:59')
    const tooLate = await editor.post('/rehearsals', { date: '2030-05-05', startTime: '23:59' })
    assert.equal(tooLate.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(tooLate).code, 'START_TOO_LATE')
  }
)

test('rehearsals: validation, unknown song writes nothing, roles, 404', async (t) => {
  const { ctx, editor, member, s1 } = await setup()
  t.after(() => ctx.close())
  const bad: object[] = [
    {},
    { date: '2030-02-30x', startTime: '19:00' },
    { date: '2030-02-01', startTime: '25:00' },
    { date: '2030-02-01', startTime: '19:00', endTime: '18:00' },
    { date: '2030-02-01', startTime: '19:00', endTime: '19:00' },
    { date: '2030-02-01', startTime: '19:00', songs: [{ songId: s1.id }, { songId: s1.id }] },
    { date: '2030-02-01', startTime: '19:00', songs: [{ songId: s1.id, userId: 1 }] },
    { date: '2030-02-01', startTime: '19:00', sequence: 5 }
  ]
  for (const body of bad) {
    assert.equal((await editor.post('/rehearsals', body)).statusCode, 400, JSON.stringify(body))
  }
  const endBefore = await editor.post('/rehearsals', {
    date: '2030-02-01',
    startTime: '19:00',
    endTime: '18:00'
  })
  assert.equal(json<ErrorResponseBody>(endBefore).code, 'END_BEFORE_START')

  const unknown = await editor.post('/rehearsals', {
    date: '2030-02-01',
    startTime: '19:00',
    songs: [{ songId: s1.id }, { songId: 9999 }]
  })
  assert.equal(unknown.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(unknown).code, 'UNKNOWN_SONG')
  assert.equal(ctx.app.db.select().from(rehearsals).all().length, 0)

  const r = json<Ok<'/rehearsals', 'post'>>(
    await editor.post('/rehearsals', {
      date: '2030-02-01',
      startTime: '19:00',
      songs: [{ songId: s1.id }]
    })
  )
  const before = json<Ok<'/rehearsals/{id}', 'get'>>(await editor.get(`/rehearsals/${r.id}`))
  const badPatch = await editor.patch(`/rehearsals/${r.id}`, {
    notes: 'x',
    songs: [{ songId: 9999 }]
  })
  assert.equal(badPatch.statusCode, 400)
  assert.deepEqual(json<Ok<'/rehearsals/{id}', 'get'>>(
    await editor.get(`/rehearsals/${r.id}`)), before)
  assert.equal((await editor.patch(`/rehearsals/${r.id}`, { endTime: '18:00' })).statusCode, 400)
  assert.equal((await editor.patch(`/rehearsals/${r.id}`, {})).statusCode, 400)

  assert.equal(
    (await member.post('/rehearsals', { date: '2030-02-01', startTime: '19:00' })).statusCode,
    403
  )
  assert.equal((await member.patch(`/rehearsals/${r.id}`, { notes: 'x' })).statusCode, 403)
  assert.equal((await member.delete(`/rehearsals/${r.id}`)).statusCode, 403)
  assert.equal((await anonymous(ctx.app).get('/rehearsals')).statusCode, 401)
  assert.equal((await anonymous(ctx.app).get(`/rehearsals/${r.id}`)).statusCode, 401)
  const nf = await member.get('/rehearsals/9999')
  assert.equal(nf.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(nf).code, 'REHEARSAL_NOT_FOUND')
  assert.equal((await editor.patch('/rehearsals/9999', { notes: 'x' })).statusCode, 404)
  assert.equal((await editor.delete('/rehearsals/9999')).statusCode, 404)

  assert.equal((await editor.delete(`/rehearsals/${r.id}`)).statusCode, 204)
  assert.equal((await editor.get(`/rehearsals/${r.id}`)).statusCode, 404)
  assert.equal(ctx.app.db.select().from(rehearsalSongs).all().length, 0)
})

test('rehearsals: list order and from/to/upcoming filters', async (t) => {
  const { ctx, editor, member } = await setup()
  t.after(() => ctx.close())
  const today = todayIn('Europe/Berlin', ctx.now())
  const shift = (days: number) =>
    new Date(Date.parse(`${today}T12:00:00Z`) + days * 86400_000).toISOString().slice(0, 10)
  await editor.post('/rehearsals', { date: shift(3), startTime: '19:00' })
  await editor.post('/rehearsals', { date: shift(-3), startTime: '19:00' })
  await editor.post('/rehearsals', { date: shift(3), startTime: '10:00' })
  await editor.post('/rehearsals', { date: today, startTime: '18:00' })
  const keys = (r: { body: string }) =>
    (JSON.parse(r.body) as Array<{ date: string; startTime: string }>).map(
      (x) => `${x.date} ${x.startTime}`
    )
  assert.deepEqual(keys(await member.get('/rehearsals')), [
    `${shift(-3)} 19:00`,
    `${today} 18:00`,
    `${shift(3)} 10:00`,
    `${shift(3)} 19:00`
  ])
  assert.deepEqual(keys(await member.get('/rehearsals?upcoming=true')), [
    `${today} 18:00`,
    `${shift(3)} 10:00`,
    `${shift(3)} 19:00`
  ])
  assert.deepEqual(keys(await member.get(`/rehearsals?from=${shift(-3)}&to=${today}`)), [
    `${shift(-3)} 19:00`,
    `${today} 18:00`
  ])
  assert.deepEqual(keys(await member.get(`/rehearsals?to=${shift(-4)}`)), [])
  assert.equal((await member.get('/rehearsals?from=tomorrow')).statusCode, 400)
})

test(
  'rehearsal availability: own answer upsert, everyone sees all, summary over active musicians',
  async (t) => {
    const { ctx, editor, member } = await setup()
    t.after(() => ctx.close())
    const other = await userClient(ctx.app, 'otto')
    const former = await userClient(ctx.app, 'fritz')
    const manager = await userClient(ctx.app, 'manni')
    ctx.app.db.update(users).set({ isMusician: false }).where(eq(users.id, manager.user.id)).run()
    const r = json<Ok<'/rehearsals', 'post'>>(
      await editor.post('/rehearsals', { date: '2030-01-01', startTime: '19:00' }))

    const put = await member.put(`/rehearsals/${r.id}/availability`, {
      status: 'maybe',
      note: 'late'
    })
    assert.equal(put.statusCode, 200)
    assert.deepEqual(
      { ...json<object>(put), updatedAt: undefined },
      {
        userId: member.user.id,
        displayName: 'Mia',
        status: 'maybe',
        note: 'late',
        updatedAt: undefined
      }
    )
    assert.equal(
      json<Ok<'/rehearsals/{id}/availability', 'put'>>(
        await member.put(`/rehearsals/${r.id}/availability`, { status: 'yes' })).status,
      'yes'
    )
    await other.put(`/rehearsals/${r.id}/availability`, { status: 'no' })
    await former.put(`/rehearsals/${r.id}/availability`, { status: 'yes' })
    ctx.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, former.user.id)).run()

    const all = json<Ok<'/rehearsals/{id}/availability', 'get'>>(
      await other.get(`/rehearsals/${r.id}/availability`))
    // The same shape as gig availability: every active musician (eddie has not answered: status
    // null) plus anyone else who answered (fritz, now inactive); manni is no musician and did not
    // answer.
    assert.deepEqual(Object.keys(all).sort(), ['answers', 'summary'])
    assert.deepEqual(
      all.answers.map(
        (a: {
          displayName: string
          status: string | null
          note: string | null
          updatedAt: string | null
        }) => [a.displayName, a.status, a.note, a.updatedAt === null]
      ),
      [
        ['Eddie', null, null, true],
        ['Fritz', 'yes', null, false],
        ['Mia', 'yes', null, false],
        ['Otto', 'no', null, false]
      ]
    )
    // fritz is inactive: his answer is listed but not counted
    assert.deepEqual(all.summary, { yes: 1, no: 1, maybe: 0, unanswered: 1 })

    // API1/API5: no way to answer for someone else
    assert.equal(
      (
        await member.put(`/rehearsals/${r.id}/availability`, {
          status: 'no',
          userId: other.user.id
        })
      ).statusCode,
      400
    )
    await member.put(`/rehearsals/${r.id}/availability?userId=${other.user.id}`, { status: 'no' })
    const after = json<Ok<'/rehearsals/{id}/availability', 'get'>>(
      await member.get(`/rehearsals/${r.id}/availability`))
    assert.equal(
      after.answers.find((a: { userId: number }) => a.userId === other.user.id)!.status,
      'no'
    )
    assert.equal(
      after.answers.find((a: { userId: number }) => a.userId === member.user.id)!.status,
      'no'
    )

    assert.equal(
      (await member.put(`/rehearsals/${r.id}/availability`, { status: 'perhaps' })).statusCode,
      400
    )
    assert.equal(
      (await member.put('/rehearsals/9999/availability', { status: 'yes' })).statusCode,
      404
    )
    assert.equal((await member.get('/rehearsals/9999/availability')).statusCode, 404)
    assert.equal((await anonymous(ctx.app).get(`/rehearsals/${r.id}/availability`)).statusCode, 401)
    assert.equal(
      (await anonymous(ctx.app).put(`/rehearsals/${r.id}/availability`, { status: 'yes' }))
        .statusCode,
      401
    )
  }
)

test(
  'rehearsals: the list takes the same number of statements for 10 and 200 rehearsals with songs',
  async (t) => {
    const { ctx, member } = await setup()
    t.after(() => ctx.close())
    const stamp = ctx.now().toISOString()
    const songIds = ctx.app.db
      .select({ id: songs.id })
      .from(songs)
      .all()
      .map((s) => s.id)
    const insert = (from: number, to: number) =>
      ctx.app.db.transaction((tx) => {
        for (let i = from; i < to; i++) {
          const pad = (n: number) => String(n).padStart(2, '0')
          const date = `2030-${pad((i % 12) + 1)}-${pad((i % 28) + 1)}`
          const row = tx
            .insert(rehearsals)
            .values({
              date,
              startTime: '19:00',
              endTime: '21:00',
              createdAt: stamp,
              updatedAt: stamp
            })
            .returning()
            .get()
          tx.insert(rehearsalSongs)
            .values(songIds.map((songId, position) => ({ rehearsalId: row.id, songId, position })))
            .run()
        }
      })
    insert(0, 10)
    const small = await countStatements(ctx.app, () => member.get('/rehearsals'))
    assert.equal(json<Ok<'/rehearsals', 'get'>>(small.result).length, 10)
    insert(10, 200)
    const large = await countStatements(ctx.app, () => member.get('/rehearsals'))
    const list = json<Ok<'/rehearsals', 'get'>>(large.result)
    assert.equal(list.length, 200)
    assert.ok(list.every((r: { songs: unknown[] }) => r.songs.length === 2))
    assert.equal(large.statements, small.statements)
    assert.ok(large.statements <= 4, `${large.statements} statements`)
  }
)
