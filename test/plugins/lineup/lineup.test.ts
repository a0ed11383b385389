import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, createUser, sessionClient, userClient } from '#test/helpers.js'
import { inDays } from '#test/plugins/notifications/member-mail-fixtures.js'

test('lineup: what a gig needs by instrument, who covers it, what is missing', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const players = {
    bass: await createUser(ctx.app, 'bea', 'member', { instruments: ['Bass'] }),
    drums: await createUser(ctx.app, 'dan', 'member', { instruments: ['drums'] }),
    singer: await createUser(ctx.app, 'sue', 'member', { instruments: ['Vocals', 'Guitar'] }),
    gone: await createUser(ctx.app, 'old', 'member', { instruments: ['Drums'], status: 'inactive' })
  }
  const gig = (await editor.post('/gigs', { name: 'Lineup', date: inDays(20) })).json()
  assert.deepEqual((await editor.get(`/gigs/${gig.id}/lineup`)).json(),
    { needs: [], asked: [], substitutes: [] })
  const put = await editor.put(`/gigs/${gig.id}/lineup`, {
    needs: [{ instrument: 'Bass', count: 1 }, { instrument: 'Drums', count: 1 },
      { instrument: 'Vocals', count: 2 }]
  })
  assert.equal(put.statusCode, 200, put.body)
  for (const [who, status] of [[players.bass, 'yes'], [players.drums, 'no'],
    [players.singer, 'maybe']] as const) {
    const c = sessionClient(ctx.app, who)
    assert.equal((await c.put(`/gigs/${gig.id}/availability`, { status })).statusCode, 200)
  }
  const lineup = (await sessionClient(ctx.app, players.bass).get(`/gigs/${gig.id}/lineup`)).json()
  const byInstrument = Object.fromEntries(lineup.needs.map((n: { instrument: string }) =>
    [n.instrument, n]))
  assert.deepEqual(byInstrument.Bass.yes.map((p: { displayName: string }) => p.displayName),
    ['Bea'])
  assert.equal(byInstrument.Bass.missing, 0)
  assert.equal(byInstrument.Drums.missing, 1, 'no drums confirmed')
  assert.deepEqual(byInstrument.Drums.no.map((p: { userId: number }) => p.userId),
    [players.drums.id], 'an inactive drummer does not count')
  assert.equal(byInstrument.Vocals.missing, 2)
  assert.equal(byInstrument.Vocals.maybe.length, 1)

  const dup = await editor.put(`/gigs/${gig.id}/lineup`, {
    needs: [{ instrument: 'Bass', count: 1 }, { instrument: ' bass', count: 2 }]
  })
  assert.equal(dup.statusCode, 400)
  assert.equal(dup.json().code, 'DUPLICATE_INSTRUMENT')
  const zero = { needs: [{ instrument: 'X', count: 0 }] }
  assert.equal((await editor.put(`/gigs/${gig.id}/lineup`, zero)).statusCode, 400)
  assert.equal((await editor.put('/gigs/999/lineup', { needs: [] })).statusCode, 404)
  assert.equal((await editor.get('/gigs/999/lineup')).statusCode, 404)
  const member = sessionClient(ctx.app, players.bass)
  assert.equal((await member.put(`/gigs/${gig.id}/lineup`, { needs: [] })).statusCode, 403)
  assert.equal((await ctx.app.inject({ url: `/gigs/${gig.id}/lineup` })).statusCode, 401)
  const cleared = await editor.put(`/gigs/${gig.id}/lineup`, { needs: [] })
  assert.deepEqual(cleared.json().needs, [])
})
