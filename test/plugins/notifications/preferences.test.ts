import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sessionClient, userClient, type Client } from '#test/helpers.js'
import { inDays, mailingBand, settle } from '#test/plugins/notifications/member-mail-fixtures.js'
import type { App } from '#src/app.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

const asMember = (app: App, id: number): Client =>
  sessionClient(app, { id, username: 'm1', role: 'member' })

test('a member turns a kind of mail off; that mail is no longer sent', async (t) => {
  const { app, boss, members, parsed, sink } = await mailingBand(t, { members: 2 })
  const m1 = asMember(app, members[0]!.id)
  const got = await m1.get('/me/notifications')
  assert.equal(got.statusCode, 200)
  assert.deepEqual(got.json(), {
    mail: true,
    newEvents: true,
    changes: true,
    reminders: true,
    surveys: true,
    digest: false,
    enabled: true,
    hasEmail: true
  })
  const put = await m1.put('/me/notifications', {
    mail: true, newEvents: false, changes: true, reminders: true, surveys: true
  })
  assert.equal(put.statusCode, 200)
  assert.equal(put.json().newEvents, false)
  assert.equal((await m1.put('/me/notifications', { mail: 'yes' })).statusCode, 400)
  assert.equal((await app.inject({ url: '/me/notifications' })).statusCode, 401)
  const gig = (await boss.post('/gigs', { name: 'Opt Out', date: inDays(20) })).json()
  await settle(app)
  assert.deepEqual((await parsed()).map((m) => m.to && [m.to].flat()[0]!.text), ['m2@example.org'])
  await boss.patch(`/gigs/${gig.id}`, { startTime: '18:00' })
  await settle(app)
  assert.equal(sink.messages.length, 3, 'changes still come to both')
  // Everything off.
  await m1.put('/me/notifications', {
    mail: false, newEvents: true, changes: true, reminders: true, surveys: true
  })
  await boss.patch(`/gigs/${gig.id}`, { startTime: '18:30' })
  await settle(app)
  assert.equal(sink.messages.length, 4)
  const admin = await userClient(app, 'nomail', 'member')
  assert.equal((await admin.get('/me/notifications')).json().hasEmail, false)
})

test('List-Unsubscribe: one-click POST turns the kind off without a login; GET does not',
  async (t) => {
    const { app, boss, members, sink } = await mailingBand(t, { members: 1 })
    await boss.post('/gigs', { name: 'Unsub', date: inDays(20) })
    await settle(app)
    const head = sink.messages[0]!.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ')
    assert.match(head, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
    const url = new URL(/^List-Unsubscribe: +<(https:[^>]+)>$/m.exec(head)![1]!)
    assert.equal(url.origin, 'https://band.example.org')
    const page = await app.inject({ url: url.pathname })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /No more mails about new events\?/)
    const m1 = asMember(app, members[0]!.id)
    assert.equal((await m1.get('/me/notifications')).json().newEvents, true, 'GET changed nothing')
    const post = await app.inject({
      method: 'POST', url: url.pathname, headers: FORM, payload: 'List-Unsubscribe=One-Click'
    })
    assert.equal(post.statusCode, 200)
    assert.match(post.body, /no more mails about new events/)
    assert.equal((await m1.get('/me/notifications')).json().newEvents, false)
    assert.equal((await app.inject({ url: '/unsubscribe/forged' })).statusCode, 404)
    const oneClick = 'List-Unsubscribe=One-Click'
    const forged = await app.inject({
      method: 'POST', url: '/unsubscribe/forged', headers: FORM, payload: oneClick
    })
    assert.equal(forged.statusCode, 404)
    const bad = await app.inject({
      method: 'POST', url: url.pathname, headers: FORM, payload: `${oneClick}${'x'.repeat(30)}`
    })
    assert.equal(bad.statusCode, 404)
  })
