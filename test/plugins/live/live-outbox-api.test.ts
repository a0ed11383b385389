import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, json, userClient, type Client, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

// The server side of the editor's offline outbox: taps carry an idempotency key and the live
// version they were made on; a replay is a no-op, a tap on an entry changed since is 409.

async function setup () {
  const ctx = await createTestApp()
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const other = await userClient(ctx.app, 'olga', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const songIds = insertSongs(ctx.app, 4, 240)
  const gig = await createGig(editor, { startTime: '20:00' })
  const setlist = await putSetlist(editor, gig.id, [[songIds[0]!, songIds[1]!, songIds[2]!]])
  const ids: number[] = setlist.sets[0].entries.map((e: any) => e.id)
  return { ctx, editor, other, member, songIds, gig, setId: setlist.sets[0].id as number, ids }
}

const view = async (client: Client, gigId: number) => json<Ok<'/gigs_lm/{id}', 'get'>>(
  await client.get(`/gigs_lm/${gigId}`))
const states = (state: any) =>
  state.sets.flatMap((s: any) => s.entries.map((e: any) => `${e.status}${e.rating ?? ''}`))

test('queued taps: applied once, replays are no-ops, in order on predicted versions', async (t) => {
  const { ctx, editor, member, gig, ids, setId, songIds } = await setup()
  t.after(() => ctx.close())
  const v0 = (await view(member, gig.id)).version
  const put = (body: object) => editor.put(`/gigs_lm/${gig.id}`, body)
  // Three taps queued offline, each on the version the phone expected after the one before.
  const taps = [
    { entryId: ids[0], status: 'played', version: v0, idempotencyKey: 'tap-0000-a' },
    { entryId: ids[0], rating: 3, version: v0 + 1, idempotencyKey: 'tap-0000-b' },
    { entryId: ids[1], status: 'skipped', version: v0 + 2, idempotencyKey: 'tap-0000-c' }
  ]
  for (const tap of taps) assert.equal((await put(tap)).statusCode, 200)
  const after = await view(member, gig.id)
  assert.deepEqual(states(after), ['played3', 'skipped', 'planned'])
  assert.equal(after.version, v0 + 3)
  // The phone never heard the answers and sends them all again: nothing changes.
  for (const tap of taps) {
    const again = await put(tap)
    assert.equal(again.statusCode, 200)
    assert.equal(json<Ok<'/gigs_lm/{id}/', 'put'>>(again).version, v0 + 3)
  }
  assert.equal((await view(member, gig.id)).version, v0 + 3)
  assert.deepEqual(states(await view(member, gig.id)), ['played3', 'skipped', 'planned'])

  // An insert with a key: 201 once, then 200 with the live view and no second song.
  const insert = {
    songId: songIds[3], setId, afterEntryId: ids[2], version: v0 + 3, idempotencyKey: 'ins-0000-a'
  }
  const first = await editor.post(`/gigs_lm/${gig.id}/insert`, insert)
  assert.equal(first.statusCode, 201)
  assert.equal(json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(first).inserted, true)
  const replay = await editor.post(`/gigs_lm/${gig.id}/insert`, insert)
  assert.equal(replay.statusCode, 200)
  assert.equal(states(json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(replay)).length, 4)
  assert.equal((await view(member, gig.id)).sets[0]!.entries.length, 4)
})

test('a queued tap on an entry changed since is 409; others still apply', async (t) => {
  const { ctx, editor, other, member, gig, ids, setId, songIds } = await setup()
  t.after(() => ctx.close())
  const v0 = (await view(member, gig.id)).version
  // Another editor (online) marks the first song played while this phone is offline.
  assert.equal((await other.put(`/gigs_lm/${gig.id}`, { entryId: ids[0], status: 'played' }))
    .statusCode, 200)
  const stale = await editor.put(`/gigs_lm/${gig.id}`, {
    entryId: ids[0], status: 'skipped', version: v0, idempotencyKey: 'stale-000-1'
  })
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'LIVE_VERSION_CONFLICT')
  assert.deepEqual(states(await view(member, gig.id)), ['played', 'planned', 'planned'])
  // A tap on an entry nobody touched since the same old version still makes sense.
  const fresh = await editor.put(`/gigs_lm/${gig.id}`, {
    entryId: ids[1], status: 'played', version: v0, idempotencyKey: 'fresh-000-1'
  })
  assert.equal(fresh.statusCode, 200)
  // An undo by the other editor touches the entry it reverts: stale for that entry too.
  const now = (await view(member, gig.id)).version
  const undo = await other.post(`/gigs_lm/${gig.id}/undo`, { version: now })
  assert.equal(undo.statusCode, 200)
  const afterUndo = await editor.put(`/gigs_lm/${gig.id}`, {
    entryId: ids[1], rating: 2, version: now, idempotencyKey: 'stale-000-2'
  })
  assert.equal(afterUndo.statusCode, 409)
  // An insert after an entry changed since its version is refused the same way.
  const insert = await editor.post(`/gigs_lm/${gig.id}/insert`, {
    songId: songIds[3], setId, afterEntryId: ids[0], version: v0, idempotencyKey: 'stale-ins-1'
  })
  assert.equal(insert.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(insert).code, 'LIVE_VERSION_CONFLICT')
  assert.equal((await view(member, gig.id)).sets[0]!.entries.length, 3)
  // Without a version (an online tap) the old rules apply: no stale check.
  assert.equal((await editor.put(`/gigs_lm/${gig.id}`, { entryId: ids[0], rating: 1 }))
    .statusCode, 200)
})

test('queued taps: 400, 401, 403, 404', async (t) => {
  const { ctx, editor, member, gig, ids, setId, songIds } = await setup()
  t.after(() => ctx.close())
  const body = { entryId: ids[0], status: 'played', version: 1, idempotencyKey: 'tap-1111-a' }
  for (const bad of [
    { ...body, idempotencyKey: 'short' },
    { ...body, idempotencyKey: 'has space in it' },
    { ...body, version: -1 },
    { ...body, version: 'x' },
    { entryId: ids[0], version: 1, idempotencyKey: 'tap-1111-b' }
  ]) {
    const refused = await editor.put(`/gigs_lm/${gig.id}`, bad)
    assert.equal(refused.statusCode, 400, JSON.stringify(bad))
    assert.equal(json<ErrorResponseBody>(refused).code, 'VALIDATION_ERROR')
  }
  const badInsert = await editor.post(`/gigs_lm/${gig.id}/insert`, {
    songId: songIds[3], setId, idempotencyKey: 'x'
  })
  assert.equal(badInsert.statusCode, 400)
  assert.equal((await anonymous(ctx.app).put(`/gigs_lm/${gig.id}`, body)).statusCode, 401)
  assert.equal((await member.put(`/gigs_lm/${gig.id}`, body)).statusCode, 403)
  assert.equal((await editor.put('/gigs_lm/999999', body)).statusCode, 404)
  assert.equal((await editor.put(`/gigs_lm/${gig.id}`, { ...body, entryId: 999999 })).statusCode,
    404)
  assert.equal((await editor.post('/gigs_lm/999999/insert', {
    songId: songIds[3], setId, idempotencyKey: 'tap-1111-c', version: 1
  })).statusCode, 404)
  // Nothing of it was applied.
  assert.deepEqual(states(await view(member, gig.id)), ['planned', 'planned', 'planned'])
})
