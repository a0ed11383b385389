import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  createTestApp, json, userClient, type Client, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

// A queued tap names the song it was made for: a save that kept the entry's id but gave it
// another song refuses the tap instead of marking the new song played. Idempotency keys are each
// user's own.

const view = async (client: Client, gigId: number) => json<Ok<'/gigs_lm/{id}', 'get'>>(
  await client.get(`/gigs_lm/${gigId}`))
const entries = (state: Ok<'/gigs_lm/{id}', 'get'>) => state.sets.flatMap((s) => s.entries)

test('live taps: a tap for a song the entry no longer plays is 409, nothing marked', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const [a, b, c] = insertSongs(ctx.app, 3)
  const gig = await createGig(editor)
  const setlist = await putSetlist(editor, gig.id, [[a!, b!]])
  const [first, second] = setlist.sets[0].entries as Array<{ id: number }>
  const v0 = (await view(member, gig.id)).version
  // The tap names its song: accepted while the entry plays it.
  const played = await editor.put(`/gigs_lm/${gig.id}`, {
    entryId: first!.id, status: 'played', songId: a, version: v0, idempotencyKey: 'tap-song-a'
  })
  assert.equal(played.statusCode, 200, played.body)

  // Queued offline for song b; meanwhile a save keeps the entry's id and gives it song c.
  const queued = { entryId: second!.id, status: 'played', songId: b, idempotencyKey: 'tap-song-b' }
  const entriesNow = [{ id: first!.id, songId: a }, { id: second!.id, songId: c }]
  const saved = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: setlist.version,
    sets: [{ name: 'Set 1', entries: entriesNow }]
  })
  assert.equal(saved.statusCode, 200, saved.body)
  const stale = await editor.put(`/gigs_lm/${gig.id}`, queued)
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'LIVE_VERSION_CONFLICT')
  assert.match(json<ErrorResponseBody>(stale).message, /now plays song \d+, not the song \d+/)
  assert.equal(entries(await view(member, gig.id))[1]!.status, 'planned', 'song c not marked')
  // A tap made for a free-text entry (songId null) on what is now a song: refused too.
  const none = await editor.put(`/gigs_lm/${gig.id}`, {
    entryId: second!.id, status: 'skipped', songId: null
  })
  assert.equal(none.statusCode, 409)
  assert.match(json<ErrorResponseBody>(none).message, /not the song \(none\)/)
  // Without songId (a tap queued by an older app): as before.
  const old = await editor.put(`/gigs_lm/${gig.id}`, { entryId: second!.id, status: 'skipped' })
  assert.equal(old.statusCode, 200)
})

test('live taps: idempotency keys are per user; another\'s same key is applied', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const other = await userClient(ctx.app, 'olga', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const [a, b] = insertSongs(ctx.app, 2)
  const gig = await createGig(editor)
  const setlist = await putSetlist(editor, gig.id, [[a!, b!]])
  const [first, second] = setlist.sets[0].entries as Array<{ id: number }>
  const key = 'shared-key-0001'
  const mine = await editor.put(`/gigs_lm/${gig.id}`,
    { entryId: first!.id, status: 'played', idempotencyKey: key })
  assert.equal(mine.statusCode, 200)
  // The same key from another editor is their own tap: applied, not taken for a replay.
  const theirs = await other.put(`/gigs_lm/${gig.id}`,
    { entryId: second!.id, status: 'skipped', idempotencyKey: key })
  assert.equal(theirs.statusCode, 200, theirs.body)
  assert.deepEqual(entries(await view(member, gig.id)).map((e) => e.status), ['played', 'skipped'])
  // Each replay of one's own key is still a no-op.
  const version = (await view(member, gig.id)).version
  const replay = await other.put(`/gigs_lm/${gig.id}`,
    { entryId: second!.id, status: 'played', idempotencyKey: key })
  assert.equal(json<Ok<'/gigs_lm/{id}/', 'put'>>(replay).version, version)
  assert.equal(entries(await view(member, gig.id))[1]!.status, 'skipped')
})
