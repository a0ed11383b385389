import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, json, sessionClient, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { seedDemo } from '#src/seed/index.js'
import { createGig } from '#test/gig-fixtures.js'
import { gigChecklistItems } from '#src/db/schema.js'
import { MAX_CHECKLIST_ITEMS } from '#schemas/checklist.js'
import { todayIn } from '#shared/local-time.js'

const positions = (items: Array<{ title: string; position: number }>) =>
  items.map((i) => `${i.position}:${i.title}`)

test('gig checklist: editors manage, members read, positions stay dense', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const tom = await userClient(ctx.app, 'tom')
  const gig = await createGig(editor)
  const url = `/gigs/${gig.id}/checklist`

  assert.deepEqual(json(await mia.get(url)), [])
  const first = await editor.post(url, {
    title: ' PA mieten ',
    category: 'Technik',
    assigneeId: mia.user.id,
    dueAt: '2026-07-01T18:00',
    notes: 'beim Verleih anrufen'
  })
  assert.equal(first.statusCode, 201)
  const pa = json<Ok<'/gigs/{id}/checklist', 'post'>>(first)
  assert.equal(pa.title, 'PA mieten')
  assert.equal(pa.assigneeName, 'Mia')
  assert.equal(pa.position, 0)
  assert.equal(pa.done, false)
  const bus = json<Ok<'/gigs/{id}/checklist', 'post'>>(await editor.post(url, { title: 'Bus' }))
  const catering = json<Ok<'/gigs/{id}/checklist', 'post'>>(
    await editor.post(url, { title: 'Catering', position: 0 }))
  const far = json<Ok<'/gigs/{id}/checklist', 'post'>>(
    await editor.post(url, { title: 'Merch', position: 150 }))
  assert.deepEqual(positions(json(await mia.get(url))), [
    '0:Catering',
    '1:PA mieten',
    '2:Bus',
    '3:Merch'
  ])
  assert.equal(far.position, 3, 'a position beyond the end means last')

  // moves in both directions, and beyond the end
  await editor.patch(`${url}/${catering.id}`, { position: 2 })
  assert.deepEqual(positions(json(await mia.get(url))), [
    '0:PA mieten',
    '1:Bus',
    '2:Catering',
    '3:Merch'
  ])
  await editor.patch(`${url}/${far.id}`, { position: 0 })
  await editor.patch(`${url}/${pa.id}`, { position: 99 })
  assert.deepEqual(positions(json(await mia.get(url))), [
    '0:Merch',
    '1:Bus',
    '2:Catering',
    '3:PA mieten'
  ])
  assert.equal((await editor.delete(`${url}/${bus.id}`)).statusCode, 204)
  assert.deepEqual(positions(json(await mia.get(url))), ['0:Merch', '1:Catering', '2:PA mieten'])

  // editors change any field, null clears
  const changed = json<Ok<'/gigs/{id}/checklist/{itemId}', 'patch'>>(
    await editor.patch(`${url}/${catering.id}`, {
      title: 'Catering klären',
      category: 'Orga',
      assigneeId: tom.user.id,
      dueAt: null,
      notes: null
    })
  )
  assert.equal(changed.title, 'Catering klären')
  assert.equal(changed.assigneeName, 'Tom')

  // the assignee ticks off their own item, and only `done`
  const ticked = await mia.patch(`${url}/${pa.id}`, { done: true })
  assert.equal(ticked.statusCode, 200)
  assert.equal(json<Ok<'/gigs/{id}/checklist/{itemId}', 'patch'>>(ticked).done, true)
  assert.equal(json<Ok<'/gigs/{id}/checklist/{itemId}', 'patch'>>(ticked).doneBy, mia.user.id)
  assert.ok(json<Ok<'/gigs/{id}/checklist/{itemId}', 'patch'>>(ticked).doneAt)
  assert.equal((await mia.patch(`${url}/${pa.id}`, { done: true, title: 'x' })).statusCode, 403)
  assert.equal((await mia.patch(`${url}/${catering.id}`, { done: true })).statusCode, 403)
  const undone = json<Ok<'/gigs/{id}/checklist/{itemId}', 'patch'>>(
    await mia.patch(`${url}/${pa.id}`, { done: false }))
  assert.equal(undone.doneAt, null)
  assert.equal(undone.doneBy, null)

  // 400, 401, 403, 404
  assert.equal((await editor.post(url, { title: '' })).statusCode, 400)
  assert.equal((await editor.post(url, { title: 'x', extra: 1 })).statusCode, 400)
  assert.equal((await editor.post(url, { title: 'x', dueAt: '2026-02-31T10:00' })).statusCode, 400)
  const ghost = await editor.post(url, { title: 'x', assigneeId: 9999 })
  assert.equal(ghost.statusCode, 400)
  assert.equal(json<ErrorResponseBody>(ghost).code, 'UNKNOWN_USER')
  assert.equal((await editor.patch(`${url}/${pa.id}`, {})).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get(url)).statusCode, 401)
  assert.equal((await mia.post(url, { title: 'x' })).statusCode, 403)
  assert.equal((await mia.delete(`${url}/${pa.id}`)).statusCode, 403)
  assert.equal(json<ErrorResponseBody>(await mia.get('/gigs/999/checklist')).code, 'GIG_NOT_FOUND')
  assert.equal((await editor.post('/gigs/999/checklist', { title: 'x' })).statusCode, 404)
  const missing = await editor.patch(`${url}/9999`, { title: 'x' })
  assert.equal(json<ErrorResponseBody>(missing).code, 'CHECKLIST_ITEM_NOT_FOUND')
  assert.equal((await mia.patch(`${url}/9999`, { done: true })).statusCode, 404)
  assert.equal((await editor.delete(`${url}/9999`)).statusCode, 404)
  // an item of another gig is not found through this gig
  const other = await createGig(editor, { name: 'Other' })
  const foreign = await editor.patch(`/gigs/${other.id}/checklist/${pa.id}`, { title: 'x' })
  assert.equal(foreign.statusCode, 404)

  // deleting the gig takes the checklist with it
  assert.equal((await editor.delete(`/gigs/${gig.id}`)).statusCode, 204)
  assert.equal(ctx.app.db.select().from(gigChecklistItems).all().length, 0)
})

test('gig checklist: at most MAX_CHECKLIST_ITEMS items; past gigs stay readable', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const past = await createGig(editor, { date: '2020-05-01' })
  const stamp = ctx.now().toISOString()
  ctx.app.db
    .insert(gigChecklistItems)
    .values(
      Array.from({ length: MAX_CHECKLIST_ITEMS }, (_, position) => ({
        gigId: past.id,
        position,
        title: `Item ${position}`,
        createdAt: stamp,
        updatedAt: stamp
      }))
    )
    .run()
  const full = await editor.post(`/gigs/${past.id}/checklist`, { title: 'one too many' })
  assert.equal(full.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(full).code, 'LIMIT_REACHED')
  const items = json<Ok<'/gigs/{id}/checklist', 'get'>>(await mia.get(`/gigs/${past.id}/checklist`))
  assert.equal(items.length, MAX_CHECKLIST_ITEMS)
  assert.equal(items.at(-1)!.position, MAX_CHECKLIST_ITEMS - 1)
})

test('open checklist items assigned to me appear in /me/todos until ticked off', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const today = todayIn('Europe/Berlin', ctx.now())
  const year = Number(today.slice(0, 4))
  const upcoming = await createGig(editor, { date: `${year + 1}-06-01`, name: 'Sommer' })
  const cancelled = await createGig(editor, { date: `${year + 1}-06-02`, status: 'cancelled' })
  const past = await createGig(editor, { date: `${year - 1}-06-01` })
  const mine = json<Ok<'/gigs/{id}/checklist', 'post'>>(
    await editor.post(`/gigs/${upcoming.id}/checklist`, {
      title: 'Kabel',
      assigneeId: mia.user.id,
      dueAt: `${year + 1}-05-30T12:00`
    })
  )
  await editor.post(`/gigs/${upcoming.id}/checklist`, { title: 'Not mine' })
  await editor.post(`/gigs/${cancelled.id}/checklist`, { title: 'Off', assigneeId: mia.user.id })
  await editor.post(`/gigs/${past.id}/checklist`, { title: 'Old', assigneeId: mia.user.id })
  const todos = json<Ok<'/me/todos', 'get'>>(await mia.get('/me/todos'))
  assert.deepEqual(todos.checklist, [
    {
      id: mine.id,
      gigId: upcoming.id,
      gigName: 'Sommer',
      gigDate: `${year + 1}-06-01`,
      title: 'Kabel',
      category: null,
      dueAt: `${year + 1}-05-30T12:00`
    }
  ])
  assert.equal(todos.total, 2, 'the checklist item and the gig availability')
  await mia.patch(`/gigs/${upcoming.id}/checklist/${mine.id}`, { done: true })
  assert.deepEqual(json<Ok<'/me/todos', 'get'>>(await mia.get('/me/todos')).checklist, [])
})

test('the demo band has checklists for its next gigs and two repertoire setlists', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { context } = await seedDemo(ctx.app.db, { now: ctx.now() })
  const tim = sessionClient(ctx.app, { id: context.userIds[5]!, username: 'tim', role: 'member' })
  const todos = json<Ok<'/me/todos', 'get'>>(await tim.get('/me/todos'))
  assert.equal(todos.checklist.length, 2, 'PA und Licht, for each of the next two gigs')
  const gigId = todos.checklist[0]!.gigId
  const items = json<Ok<'/gigs/{id}/checklist', 'get'>>(await tim.get(`/gigs/${gigId}/checklist`))
  assert.equal(items.length, 5)
  assert.deepEqual(
    items.map((i: { position: number }) => i.position),
    [0, 1, 2, 3, 4]
  )
  const lists = json<Ok<'/repertoire', 'get'>>(await tim.get('/repertoire'))
  assert.deepEqual(
    lists.map((l: { name: string; setCount: number }) => [l.name, l.setCount]),
    [
      ['Hochzeit (3 Sets)', 3],
      ['Stadtfest (2 × 45 min)', 2]
    ]
  )
  assert.ok(lists.every((l: { songCount: number }) => l.songCount > 10))
})
