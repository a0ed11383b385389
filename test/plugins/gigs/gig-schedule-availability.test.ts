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
import { eq } from '#src/db/orm.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { users } from '#src/db/schema.js'

test('schedule: stored items with derived gig times and set blocks, in time order', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const songIds = insertSongs(ctx.app, 2, 270)
  const g = await createGig(editor, {
    date: '2026-07-04',
    getInTime: '16:00',
    soundcheckTime: '17:30',
    doorsTime: '19:00',
    startTime: '21:00',
    endTime: '01:00',
    venue: { name: 'Kulturhalle' }
  })
  await putSetlist(editor, g.id, [[songIds[0]!], [songIds[1]!]])
  const res = await editor.put(`/gigs/${g.id}/schedule`, {
    items: [
      { at: '2026-07-04T18:00', title: 'Abendessen', who: 'Alle', where: 'Backstage' },
      { at: '2026-07-04T14:30', title: 'Abfahrt Proberaum', notes: 'Bus' }
    ]
  })
  assert.equal(res.statusCode, 200, res.body)
  const items = json<Ok<'/gigs/{id}/schedule', 'put'>>(res).items
  // Rows derived from the gig carry a kind code and no English title: clients translate them.
  assert.deepEqual(
    items.map((i: any) => [i.at, i.title, i.kind, i.source, i.readOnly, i.songCount]),
    [
      ['2026-07-04T14:30', 'Abfahrt Proberaum', 'item', 'item', false, null],
      ['2026-07-04T16:00', null, 'getIn', 'gig', true, null],
      ['2026-07-04T17:30', null, 'soundcheck', 'gig', true, null],
      ['2026-07-04T18:00', 'Abendessen', 'item', 'item', false, null],
      ['2026-07-04T19:00', null, 'doors', 'gig', true, null],
      ['2026-07-04T21:00', null, 'start', 'gig', true, null],
      ['2026-07-04T21:00', 'Set 1', 'set', 'set', true, 1],
      ['2026-07-04T21:15', 'Set 2', 'set', 'set', true, 1],
      ['2026-07-05T01:00', null, 'end', 'gig', true, null]
    ]
  )
  // No English word is built by the API: set rows carry the count, not "1 song".
  for (const item of items.filter((i: any) => i.readOnly)) assert.equal(item.notes, null)
  const set1 = items.find((i: any) => i.title === 'Set 1')
  assert.equal(set1!.endAt, '2026-07-04T21:05')
  assert.equal(set1!.id, null)
  const dinner = items.find((i: any) => i.title === 'Abendessen')
  assert.equal(dinner!.who, 'Alle')
  assert.equal(dinner!.where, 'Backstage')
  assert.deepEqual(json<Ok<'/gigs/{id}/schedule', 'get'>>(
    await member.get(`/gigs/${g.id}/schedule`)), json<Ok<'/gigs/{id}/schedule', 'put'>>(res))

  // Keeping an id updates in place; items left out are deleted.
  const updated = json<Ok<'/gigs/{id}/schedule', 'put'>>(
    await editor.put(`/gigs/${g.id}/schedule/`, {
      items: [{ id: dinner!.id, at: '2026-07-04T18:30', title: 'Essen' }]
    })
  )
  const own = updated.items.filter((i: any) => i.source === 'item')
  assert.deepEqual(
    own.map((i: any) => [i.id, i.at, i.title, i.who]),
    [[dinner!.id, '2026-07-04T18:30', 'Essen', null]]
  )
})

test('schedule PUT: the same number of statements for 5 and for 50 items', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const item = (i: number) => ({
    at: `2026-07-04T${String(10 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
    title: `Item ${i}`
  })
  const save = async (count: number) => {
    const g = await createGig(editor)
    const first = json<Ok<'/gigs/{id}/schedule', 'put'>>(
      await editor.put(`/gigs/${g.id}/schedule`, {
        items: Array.from({ length: count }, (_, i) => item(i))
      })
    )
    const stored = first.items.filter((i: any) => i.source === 'item')
    // keep all but one (renamed), drop one, add two
    const items = [
      ...stored.slice(1).map((i: any) => ({
        id: i.id,
        at: i.at,
        title: `${i.title} renamed`,
        who: 'Crew',
        where: null,
        notes: 'n'
      })),
      item(98),
      item(99)
    ]
    const counted = await countStatements(ctx.app, () =>
      editor.put(`/gigs/${g.id}/schedule`, { items })
    )
    assert.equal(counted.result.statusCode, 200, counted.result.body)
    const saved = json<Ok<'/gigs/{id}/schedule', 'put'>>(
      counted.result).items.filter((i: any) => i.source === 'item')
    assert.equal(saved.length, count + 1)
    const kept = saved.filter((i: any) => i.title.endsWith('renamed'))
    assert.deepEqual(
      kept.map((i: any) => i.id).sort(),
      stored
        .slice(1)
        .map((i: any) => i.id)
        .sort()
    )
    assert.ok(kept.every((i: any) => i.who === 'Crew' && i.notes === 'n'))
    assert.ok(!saved.some((i: any) => i.id === stored[0]!.id))
    return counted
  }
  const small = await save(5)
  const large = await save(50)
  assert.equal(
    large.statements,
    small.statements,
    `small: ${small.statements}, large: ${large.statements}\n${large.sql.join('\n')}`
  )
})

test('schedule: validation 400, foreign item id 400, max 100 items, 401/403/404', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const g = await createGig(editor)
  const other = await createGig(editor)
  const o = json<Ok<'/gigs/{id}/schedule', 'put'>>(
    await editor.put(`/gigs/${other.id}/schedule`, {
      items: [{ at: '2026-07-04T12:00', title: 'X' }]
    })
  )
  const bad = async (items: unknown) =>
    assert.equal(
      (await editor.put(`/gigs/${g.id}/schedule`, { items })).statusCode,
      400,
      JSON.stringify(items)
    )
  await bad([{ at: '2026-07-04 12:00', title: 'X' }])
  await bad([{ at: '2026-07-04T12:00' }])
  await bad([{ at: '2026-07-04T12:00', title: 'X', color: 'red' }])
  await bad([{ at: '2026-07-04T12:00', title: 'X', readOnly: true }])
  await bad(Array.from({ length: 101 }, () => ({ at: '2026-07-04T12:00', title: 'X' })))
  const foreign = await editor.put(`/gigs/${g.id}/schedule`, {
    items: [{ id: o.items[0]!.id, at: '2026-07-04T12:00', title: 'X' }]
  })
  assert.equal(foreign.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(foreign).code, 'ITEM_NOT_IN_GIG')
  assert.equal(
    json<Ok<'/gigs/{id}/schedule', 'get'>>(
      await editor.get(`/gigs/${other.id}/schedule`)).items.filter(
      (i: any) => i.source === 'item'
    ).length,
    1
  )
  assert.equal(
    (
      await editor.put(`/gigs/${g.id}/schedule`, {
        items: Array.from({ length: 100 }, () => ({ at: '2026-07-04T12:00', title: 'X' }))
      })
    ).statusCode,
    200
  )
  assert.equal((await anonymous(ctx.app).get(`/gigs/${g.id}/schedule`)).statusCode, 401)
  assert.equal((await member.put(`/gigs/${g.id}/schedule`, { items: [] })).statusCode, 403)
  assert.equal((await member.get('/gigs/999/schedule')).statusCode, 404)
  assert.equal((await editor.put('/gigs/999/schedule', { items: [] })).statusCode, 404)
})

test('availability: own upsert, everyone listed with summary over active musicians', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia', 'member')
  const max = await userClient(ctx.app, 'max', 'member')
  await createUser(ctx.app, 'tina', 'member', { isMusician: false }) // the band's tech: not counted
  await createUser(ctx.app, 'olaf', 'member', { status: 'inactive' })
  const former = await userClient(ctx.app, 'fritz', 'member')
  const g = await createGig(editor)
  await former.put(`/gigs/${g.id}/availability`, { status: 'yes' })
  ctx.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, former.user.id)).run()

  const first = await mia.put(`/gigs/${g.id}/availability`, {
    status: 'maybe',
    note: 'Kinderbetreuung offen'
  })
  assert.equal(first.statusCode, 200)
  assert.deepEqual(
    { ...(json<Ok<'/gigs/{id}/availability', 'put'>>(first) as object), updatedAt: undefined },
    {
      userId: mia.user.id,
      displayName: 'Mia',
      status: 'maybe',
      note: 'Kinderbetreuung offen',
      updatedAt: undefined
    }
  )
  const second = json<Ok<'/gigs/{id}/availability', 'put'>>(
    await mia.put(`/gigs/${g.id}/availability/`, { status: 'yes' }))
  assert.equal(second.status, 'yes')
  assert.equal(second.note, null)
  await max.put(`/gigs/${g.id}/availability`, { status: 'no' })

  const all = json<Ok<'/gigs/{id}/availability', 'get'>>(
    await max.get(`/gigs/${g.id}/availability`))
  assert.deepEqual(Object.keys(all).sort(), ['answers', 'summary'])
  assert.deepEqual(
    all.summary,
    { yes: 1, no: 1, maybe: 0, unanswered: 1 },
    'fritz left the band: listed, not counted'
  )
  assert.deepEqual(
    all.answers.map((a: any) => [a.displayName, a.status, a.updatedAt === null]),
    [
      ['Eddie', null, true],
      ['Fritz', 'yes', false],
      ['Max', 'no', false],
      ['Mia', 'yes', false]
    ]
  )
  // Another gig is independent.
  const g2 = await createGig(editor)
  assert.deepEqual(json<Ok<'/gigs/{id}/availability', 'get'>>(
    await mia.get(`/gigs/${g2.id}/availability`)).summary, {
    yes: 0,
    no: 0,
    maybe: 0,
    unanswered: 3
  })
  assert.equal(json<Ok<'/gigs/{id}/availability', 'get'>>(
    await mia.get(`/gigs/${g2.id}/availability`)).answers.length, 3)
})

test('availability: 400, 401, 404', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const mia = await userClient(ctx.app, 'mia', 'member')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const g = await createGig(editor)
  assert.equal((await mia.put(`/gigs/${g.id}/availability`, { status: 'perhaps' })).statusCode, 400)
  assert.equal(
    (await mia.put(`/gigs/${g.id}/availability`, { status: 'yes', userId: editor.user.id }))
      .statusCode,
    400
  )
  assert.equal((await mia.put(`/gigs/${g.id}/availability`, {})).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${g.id}/availability`)).statusCode, 401)
  assert.equal(
    (await anonymous(ctx.app).put(`/gigs/${g.id}/availability`, { status: 'yes' })).statusCode,
    401
  )
  assert.equal((await mia.get('/gigs/999/availability')).statusCode, 404)
  assert.equal((await mia.put('/gigs/999/availability', { status: 'yes' })).statusCode, 404)
})

test(
  'availability of gigs and rehearsals: one shape, a constant number of statements ' +
    'for 3 and 30 musicians',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const mia = await userClient(ctx.app, 'mia', 'member')
    const g = await createGig(editor)
    const r = json<Ok<'/rehearsals', 'post'>>(
      await editor.post('/rehearsals', { date: '2030-01-01', startTime: '19:00' }))
    const paths = [`/gigs/${g.id}/availability`, `/rehearsals/${r.id}/availability`]

    const measure = async () =>
      Promise.all(
        paths.map(async (path) => {
          const put = await countStatements(ctx.app, () =>
            mia.put(path, { status: 'maybe', note: 'spät' })
          )
          assert.equal(put.result.statusCode, 200, put.result.body)
          const get = await countStatements(ctx.app, () => mia.get(path))
          assert.equal(get.result.statusCode, 200)
          return {
            put: put.statements,
            get: get.statements,
            body: json<Ok<'/gigs/{id}/availability', 'get'>>(
              get.result)
          }
        })
      )
    const small = await measure()
    for (let i = 0; i < 28; i++) await createUser(ctx.app, `musician${String(i).padStart(2, '0')}`)
    const large = await measure()
    for (const [i, path] of paths.entries()) {
      assert.equal(large[i]!.get, small[i]!.get, path)
      assert.equal(large[i]!.put, small[i]!.put, path)
      assert.equal(large[i]!.body.answers.length, 30)
      assert.deepEqual(large[i]!.body.summary, { yes: 0, no: 0, maybe: 1, unanswered: 29 })
    }
    // Same answers, same shape for both kinds of event.
    const strip = (body: any) => ({
      ...body,
      answers: body.answers.map((a: any) => ({ ...a, updatedAt: a.updatedAt === null }))
    })
    assert.deepEqual(strip(large[0]!.body), strip(large[1]!.body))
  }
)
