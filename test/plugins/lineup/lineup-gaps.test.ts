import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  countStatements,
  createTestApp,
  createUser,
  sessionClient,
  userClient
} from '#test/helpers.js'
import {
  inDays,
  mailingBand,
  settle,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

test('lineup gaps: every listed gig with an open need, at a fixed cost', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const bass = await createUser(ctx.app, 'bea', 'member', { instruments: ['Bass'] })
  type Need = { instrument: string; count: number }
  const gig = async (name: string, days: number, needs: Need[]) => {
    const made = (await editor.post('/gigs', { name, date: inDays(days) })).json()
    if (needs.length > 0) await editor.put(`/gigs/${made.id}/lineup`, { needs })
    return made.id as number
  }
  const covered = await gig('Covered', 10, [{ instrument: 'Bass', count: 1 }])
  const open = await gig('Open', 12,
    [{ instrument: 'Bass', count: 1 }, { instrument: 'Drums', count: 1 }])
  await gig('No needs', 14, [])
  await sessionClient(ctx.app, bass).put(`/gigs/${covered}/availability`, { status: 'yes' })

  const measure = () =>
    countStatements(ctx.app, () => editor.get('/gigs/lineup-gaps?upcoming=true'))
  const first = await measure()
  assert.equal(first.result.statusCode, 200, first.result.body)
  assert.deepEqual(first.result.json(), {
    gigs: [{
      gigId: open,
      date: inDays(12),
      open: [{ instrument: 'Bass', missing: 1, confirmed: 0 },
        { instrument: 'Drums', missing: 1, confirmed: 0 }]
    }]
  })
  for (let i = 0; i < 5; i++) await gig(`More ${i}`, 20 + i, [{ instrument: 'Keys', count: 1 }])
  const more = await measure()
  assert.equal(more.result.json().gigs.length, 6)
  assert.equal(more.statements, first.statements, 'no statement per listed gig')

  const filtered = await editor.get(`/gigs/lineup-gaps?from=${inDays(20)}&to=${inDays(21)}`)
  assert.equal(filtered.json().gigs.length, 2)
  assert.equal((await editor.get('/gigs/lineup-gaps?from=yesterday')).statusCode, 400)
  assert.equal((await ctx.app.inject({ url: '/gigs/lineup-gaps' })).statusCode, 401)
  assert.equal((await sessionClient(ctx.app, bass).get('/gigs/lineup-gaps')).statusCode, 200)
})

test('a reminder to one instrument mails only its players who have not answered', async (t) => {
  const { app, boss, sink, parsed } = await mailingBand(t, { members: 0 })
  const player = (name: string, instruments: string[]) =>
    createUser(app, name, 'member', { email: `${name}@example.org`, instruments })
  const [bass1, , drums] = [await player('bea', ['Bass']), await player('bob', ['bass', 'Keys']),
    await player('dan', ['Drums'])]
  const gig = (await boss.post('/gigs', { name: 'Bass night', date: inDays(30) })).json()
  await boss.put(`/gigs/${gig.id}/lineup`, {
    needs: [{ instrument: 'Bass', count: 2 }, { instrument: 'Drums', count: 1 }]
  })
  await sessionClient(app, bass1).put(`/gigs/${gig.id}/availability`, { status: 'yes' })
  await settle(app)
  const before = sink.messages.length
  const reminded = await boss.post(`/gigs/${gig.id}/reminders`, { instrument: 'BASS' })
  assert.equal(reminded.statusCode, 200, reminded.body)
  assert.deepEqual(reminded.json(), { mailed: 1 })
  await settle(app)
  const mails = (await parsed()).slice(before)
  assert.deepEqual(mails.map((m) => toOf(m)[0]), ['bob@example.org'])
  assert.match(mails[0]!.subject ?? '', /^Please answer: Bass night/)

  const unknown = await boss.post(`/gigs/${gig.id}/reminders`, { instrument: 'Tuba' })
  assert.equal(unknown.statusCode, 400)
  assert.equal(unknown.json().code, 'LINEUP_INSTRUMENT_UNKNOWN')
  assert.equal((await boss.post(`/gigs/${gig.id}/reminders`, { instrument: '' })).statusCode, 400)
  assert.equal((await boss.post(`/gigs/${gig.id}/reminders`, { other: 1 })).statusCode, 400)
  const rehearsal = (await boss.post('/rehearsals', { date: inDays(9), startTime: '19:00' })).json()
  const noLineup = await boss.post(`/rehearsals/${rehearsal.id}/reminders`, { instrument: 'Bass' })
  assert.equal(noLineup.json().code, 'LINEUP_INSTRUMENT_UNKNOWN')
  assert.equal((await boss.post('/gigs/999/reminders', { instrument: 'Bass' })).statusCode, 404)
  assert.equal((await sessionClient(app, drums)
    .post(`/gigs/${gig.id}/reminders`, { instrument: 'Drums' })).statusCode, 403)
  // The whole gig still: the drummer (the bass player was reminded today already).
  assert.deepEqual((await boss.post(`/gigs/${gig.id}/reminders`)).json(), { mailed: 1 })
})
