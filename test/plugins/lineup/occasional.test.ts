import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createUser, sessionClient } from '#test/helpers.js'
import {
  inDays,
  mailingBand,
  settle,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

const subOf = async (app: Parameters<typeof createUser>[0]) =>
  createUser(app, 'sam', 'member',
    { email: 'sam@example.org', instruments: ['Drums'], occasional: true })

test('a sub hears only of the gigs they are asked for, and owes no other answer', async (t) => {
  const { app, boss, sink, parsed } = await mailingBand(t, { members: 1 })
  const sub = await subOf(app)
  const gig = (await boss.post('/gigs', { name: 'Fair', date: inDays(30) })).json()
  await boss.post('/rehearsals', { date: inDays(8), startTime: '19:00' })
  await boss.post('/surveys',
    { title: 'Poll', kind: 'poll', options: [{ label: 'A' }, { label: 'B' }] })
  await boss.put(`/gigs/${gig.id}/lineup`, { needs: [{ instrument: 'Drums', count: 1 }] })
  await settle(app)
  assert.deepEqual((await parsed()).flatMap(toOf).filter((a) => a === 'sam@example.org'), [],
    'no mail of a gig, rehearsal or survey the sub was not asked for')
  const drums = () => boss.get(`/gigs/${gig.id}/lineup`).then((r) => r.json().needs[0])
  assert.deepEqual((await drums()).unanswered, [], 'an unasked sub is no missing answer')
  // The admin and m1.
  assert.equal((await boss.get(`/gigs/${gig.id}/availability`)).json().summary.unanswered, 2)
  const subClient = sessionClient(app, sub)
  const todos = (await subClient.get('/me/todos')).json()
  assert.deepEqual([todos.gigs.length, todos.rehearsals.length, todos.surveys.length], [0, 0, 0])
  assert.deepEqual((await boss.post(`/gigs/${gig.id}/reminders`)).json(), { mailed: 1 })
  await settle(app)

  const before = sink.messages.length
  const asked = await boss.post(`/gigs/${gig.id}/asked`, { userId: sub.id })
  assert.equal(asked.statusCode, 200, asked.body)
  assert.deepEqual(asked.json().asked.map((p: { displayName: string }) => p.displayName), ['Sam'])
  assert.deepEqual(asked.json().needs[0].unanswered.map((p: { userId: number }) => p.userId),
    [sub.id], 'an asked sub owes an answer')
  await settle(app)
  const news = (await parsed()).slice(before)
  assert.deepEqual(news.map((m) => [toOf(m)[0], m.subject?.split(':')[0]]),
    [['sam@example.org', 'New']])
  assert.equal((await boss.post(`/gigs/${gig.id}/asked`, { userId: sub.id })).statusCode, 200)
  await settle(app)
  assert.equal(sink.messages.length, before + 1, 'asked twice: one mail')
  assert.deepEqual((await subClient.get('/me/todos')).json().gigs.map((g: { id: number }) => g.id),
    [gig.id])
  assert.equal((await boss.get(`/gigs/${gig.id}/availability`)).json().summary.unanswered, 3)
  // A change of the gig reaches the asked sub too.
  await boss.patch(`/gigs/${gig.id}`, { startTime: '20:00' })
  await settle(app)
  assert.ok((await parsed()).some((m) => toOf(m)[0] === 'sam@example.org' &&
    m.subject?.startsWith('Changed')))
  const reminders = await boss.post(`/gigs/${gig.id}/reminders`, { instrument: 'drums' })
  assert.deepEqual(reminders.json(), { mailed: 1 })

  const removed = await boss.delete(`/gigs/${gig.id}/asked/${sub.id}`)
  assert.equal(removed.statusCode, 200)
  assert.deepEqual(removed.json().asked, [])
  const again = await boss.delete(`/gigs/${gig.id}/asked/${sub.id}`)
  assert.equal(again.json().code, 'NOT_ASKED')
  assert.equal(again.statusCode, 404)
  // A sub who answers anyway counts with that answer.
  await subClient.put(`/gigs/${gig.id}/availability`, { status: 'yes' })
  const covered = await drums()
  assert.deepEqual([covered.yes.length, covered.missing], [1, 0])
})

test('asking a member for a gig: who may, whom, and for which gig', async (t) => {
  const { app, boss, members } = await mailingBand(t, { members: 1 })
  const sub = await subOf(app)
  const gig = (await boss.post('/gigs', { name: 'Fair', date: inDays(30) })).json()
  const ask = (userId: number, gigId = gig.id) => boss.post(`/gigs/${gigId}/asked`, { userId })
  const regular = await ask(members[0]!.id)
  assert.equal(regular.statusCode, 400)
  assert.equal(regular.json().code, 'NOT_OCCASIONAL')
  assert.equal((await ask(9999)).json().code, 'USER_NOT_FOUND')
  assert.equal((await ask(sub.id, 9999)).json().code, 'GIG_NOT_FOUND')
  assert.equal((await boss.post(`/gigs/${gig.id}/asked`, {})).statusCode, 400)
  const member = sessionClient(app, members[0]!)
  assert.equal((await member.post(`/gigs/${gig.id}/asked`, { userId: sub.id })).statusCode, 403)
  assert.equal((await member.delete(`/gigs/${gig.id}/asked/${sub.id}`)).statusCode, 403)
  assert.equal((await app.inject({ method: 'POST', url: `/gigs/${gig.id}/asked` })).statusCode, 401)
  assert.equal((await boss.delete(`/gigs/9999/asked/${sub.id}`)).statusCode, 404)
  // A past or declined gig is asked without a mail.
  const past = (await boss.post('/gigs', { name: 'Past', date: inDays(-3) })).json()
  assert.equal((await ask(sub.id, past.id)).statusCode, 200)
  const declined = (await boss.post('/gigs', { name: 'No', date: inDays(9), status: 'declined' }))
    .json()
  assert.equal((await ask(sub.id, declined.id)).statusCode, 200)

  // The admin marks a member occasional.
  const marked = await boss.patch(`/users/${members[0]!.id}`, { occasional: true })
  assert.equal(marked.statusCode, 200, marked.body)
  assert.equal(marked.json().occasional, true)
  assert.equal((await ask(members[0]!.id)).statusCode, 200)
  const made = await boss.post('/users', {
    username: 'guest', displayName: 'Guest', role: 'member', occasional: true
  })
  assert.equal(made.json().occasional, true)
})

test('substitutes without a login count for the lineup', async (t) => {
  const { app, boss, members } = await mailingBand(t, { members: 1 })
  const gig = (await boss.post('/gigs', { name: 'Fair', date: inDays(30) })).json()
  await boss.put(`/gigs/${gig.id}/lineup`, { needs: [{ instrument: 'Drums', count: 2 }] })
  const named = await boss.post(`/gigs/${gig.id}/substitutes`, {
    name: ' Kim ', instrument: 'drums', contact: '+49 170 000000'
  })
  assert.equal(named.statusCode, 201, named.body)
  const lineup = named.json()
  assert.deepEqual(lineup.substitutes.map((s: { name: string }) => s.name), ['Kim'])
  assert.equal(lineup.needs[0].substitutes[0].contact, '+49 170 000000')
  assert.equal(lineup.needs[0].missing, 1)
  const other = await boss.post(`/gigs/${gig.id}/substitutes`, { name: 'Lou', instrument: 'Horn' })
  assert.equal(other.json().substitutes[1].contact, null)
  assert.equal(other.json().needs[0].missing, 1, 'a horn is no drummer')
  const gaps = (await boss.get('/gigs/lineup-gaps')).json()
  assert.deepEqual(gaps.gigs[0].open, [{ instrument: 'Drums', missing: 1, confirmed: 1 }])

  const bad = (body: object) => boss.post(`/gigs/${gig.id}/substitutes`, body)
  assert.equal((await bad({ name: ' ', instrument: 'Drums' })).statusCode, 400)
  assert.equal((await bad({ name: 'X'.repeat(81), instrument: 'Drums' })).statusCode, 400)
  assert.equal((await bad({ name: 'X' })).statusCode, 400)
  const noGig = await boss.post('/gigs/9999/substitutes', { name: 'X', instrument: 'Y' })
  assert.equal(noGig.statusCode, 404)
  const member = sessionClient(app, members[0]!)
  assert.equal((await member.post(`/gigs/${gig.id}/substitutes`, { name: 'X', instrument: 'Y' }))
    .statusCode, 403)

  const id = lineup.substitutes[0].id
  assert.equal((await member.delete(`/gigs/${gig.id}/substitutes/${id}`)).statusCode, 403)
  const gone = await boss.delete(`/gigs/${gig.id}/substitutes/${id}`)
  assert.equal(gone.statusCode, 200)
  assert.equal(gone.json().needs[0].missing, 2)
  const again = await boss.delete(`/gigs/${gig.id}/substitutes/${id}`)
  assert.equal(again.json().code, 'SUBSTITUTE_NOT_FOUND')
  assert.equal((await boss.delete(`/gigs/9999/substitutes/${id}`)).statusCode, 404)

  const insert = app.sqlite.prepare(`INSERT INTO gig_substitutes (gig_id, name, instrument,
    created_at) VALUES (?, 'S', 'Bass', '2026-01-01')`)
  for (let i = 0; i < 29; i++) insert.run(gig.id)
  const full = await bad({ name: 'One more', instrument: 'Bass' })
  assert.equal(full.json().code, 'TOO_MANY_SUBSTITUTES')
})
