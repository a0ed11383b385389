import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous, createTestApp, json, userClient, type Client, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { asc, eq } from '#src/db/orm.js'
import { setlistEntries } from '#src/db/schema.js'

async function setup () {
  const ctx = await createTestApp()
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const other = await userClient(ctx.app, 'olga', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const songIds = insertSongs(ctx.app, 5, 240)
  const gig = await createGig(editor, { startTime: '20:00' })
  const setlist = await putSetlist(editor, gig.id, [
    [songIds[0]!, songIds[1]!],
    [songIds[2]!, songIds[3]!]
  ])
  const ids: number[] = setlist.sets.flatMap((s: any) => s.entries.map((e: any) => e.id))
  const setIds: number[] = setlist.sets.map((s: any) => s.id)
  return { ctx, editor, other, member, songIds, gig, setIds, ids }
}

const view = async (client: Client, gigId: number) => json<Ok<'/gigs_lm/{id}', 'get'>>(
  await client.get(`/gigs_lm/${gigId}`))
const states = (state: any) =>
  state.sets.flatMap((s: any) => s.entries.map((e: any) => `${e.status}${e.rating ?? ''}`))

test('Undo reverts the last tap for everyone, walking back through them', async (t) => {
  const { ctx, editor, other, member, gig, setIds, songIds, ids } = await setup()
  t.after(() => ctx.close())
  const undo = (client: Client, body: object) => client.post(`/gigs_lm/${gig.id}/undo`, body)

  // Nothing tapped yet.
  let state = await view(member, gig.id)
  const nothing = await undo(editor, { version: state.version })
  assert.equal(nothing.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(nothing).code, 'NOTHING_TO_UNDO')

  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: ids[0], status: 'played' })
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: ids[0], rating: 3 })
  await other.put(`/gigs_lm/${gig.id}/`, { entryId: ids[1], status: 'skipped' })
  const inserted = await editor.post(`/gigs_lm/${gig.id}/insert`, {
    songId: songIds[4],
    setId: setIds[1],
    afterEntryId: ids[2]
  })
  assert.equal(inserted.statusCode, 201)
  state = await view(member, gig.id)
  assert.deepEqual(states(state), ['played3', 'skipped', 'planned', 'planned', 'planned'])
  const setlistVersion = async () => json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await editor.get(`/gigs/${gig.id}/setlist`)).version
  const versionBefore = await setlistVersion()

  // A stale version: another editor moved on meanwhile, so nothing is undone.
  const stale = await undo(editor, { version: state.version - 1 })
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'LIVE_VERSION_CONFLICT')
  assert.deepEqual(states(await view(member, gig.id)), states(state))

  // 1: the insert goes (and the setlist version moves: an open editor must reload).
  const first = await undo(editor, { version: state.version, idempotencyKey: 'undo-key-0001' })
  assert.equal(first.statusCode, 200)
  state = json(first)
  assert.deepEqual(states(state), ['played3', 'skipped', 'planned', 'planned'])
  assert.deepEqual(
    state.sets[1]!.entries.map((e: any) => e.id),
    [ids[2], ids[3]]
  )
  const positions = ctx.app.db
    .select({ position: setlistEntries.position })
    .from(setlistEntries)
    .where(eq(setlistEntries.setId, setIds[1]!))
    .orderBy(asc(setlistEntries.position))
    .all()
  assert.deepEqual(positions.map((p) => p.position), [0, 1], 'the gap is closed')
  assert.ok((await setlistVersion()) > versionBefore, 'the setlist changed too')
  // The same key again (a phone's retry) is not applied twice: the current view, unchanged.
  const replay = await undo(editor, { version: 0, idempotencyKey: 'undo-key-0001' })
  assert.equal(replay.statusCode, 200)
  assert.equal(json<Ok<'/gigs_lm/{id}/', 'put'>>(replay).version, state.version)
  assert.deepEqual(states(json(replay)), states(state))
  // 2: the other editor's skip; 3: the rating; 4: the played mark. Members see each.
  for (const expected of [
    ['played3', 'planned', 'planned', 'planned'],
    ['played', 'planned', 'planned', 'planned'],
    ['planned', 'planned', 'planned', 'planned']
  ]) {
    const r = await undo(other, { version: state.version })
    assert.equal(r.statusCode, 200)
    state = await view(member, gig.id)
    assert.deepEqual(states(state), expected)
  }
  assert.equal(state.current!.id, ids[0])
  assert.equal(state.currentSince, null, 'the played time went with the mark')
  assert.equal(json<ErrorResponseBody>(
    await undo(editor, { version: state.version })).code, 'NOTHING_TO_UNDO')
})

test('Make current: skip ahead, go back, undo it; 400, 401, 403, 404, 409', async (t) => {
  const { ctx, editor, member, gig, ids } = await setup()
  t.after(() => ctx.close())
  const current = (client: Client, body: object, gigId = gig.id) =>
    client.post(`/gigs_lm/${gigId}/current`, body)
  let state = await view(member, gig.id)

  // Skipped ahead to the third song: the first two are skipped.
  let r = await current(editor, { entryId: ids[2], version: state.version })
  assert.equal(r.statusCode, 200)
  state = json(r)
  assert.equal(state.current!.id, ids[2])
  assert.deepEqual(states(state), ['skipped', 'skipped', 'planned', 'planned'])
  assert.ok(state.currentSince, 'the new song started now')

  // Played it, rated it, then the band went back to play it again.
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: ids[2], status: 'played', rating: 2 })
  state = await view(member, gig.id)
  r = await current(editor, { entryId: ids[2], version: state.version })
  assert.equal(r.statusCode, 200)
  state = json(r)
  assert.equal(state.current!.id, ids[2])
  assert.deepEqual(states(state), ['skipped', 'skipped', 'planned', 'planned'])
  // Making the current song current changes nothing (no new version).
  r = await current(editor, { entryId: ids[2], version: state.version })
  assert.equal(json<Ok<'/gigs_lm/{id}/current', 'post'>>(r).version, state.version)

  // Undo puts back the played and rated song.
  r = await editor.post(`/gigs_lm/${gig.id}/undo`, { version: state.version })
  assert.deepEqual(states(json<Ok<'/gigs_lm/{id}/undo', 'post'>>(
    r)), ['skipped', 'skipped', 'played2', 'planned'])
  state = json<Ok<'/gigs_lm/{id}/undo', 'post'>>(r)

  // Rules and refusals.
  const stale = await current(editor, { entryId: ids[0], version: state.version - 1 })
  assert.equal(stale.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(stale).code, 'LIVE_VERSION_CONFLICT')
  const forbidden = await current(member, { entryId: ids[0], version: state.version })
  assert.equal(forbidden.statusCode, 403)
  assert.equal((await member.post(`/gigs_lm/${gig.id}/undo`, { version: 1 })).statusCode, 403)
  const anon = anonymous(ctx.app)
  assert.equal((await current(anon, { entryId: ids[0], version: 0 })).statusCode, 401)
  assert.equal((await anon.post(`/gigs_lm/${gig.id}/undo`, { version: 0 })).statusCode, 401)
  for (const bad of [
    { entryId: ids[0] },
    { entryId: ids[0], version: -1 },
    { entryId: 'x', version: 1 },
    { entryId: ids[0], version: 1, idempotencyKey: 'short' },
    { entryId: ids[0], version: 1, extra: true }
  ]) {
    const refused = await current(editor, bad)
    assert.equal(refused.statusCode, 400, JSON.stringify(bad))
    assert.equal(json<ErrorResponseBody>(refused).code, 'VALIDATION_ERROR')
  }
  assert.equal((await editor.post(`/gigs_lm/${gig.id}/undo`, {})).statusCode, 400)
  const otherGig = await createGig(editor, { startTime: '21:00' })
  const missingEntry = await current(editor, { entryId: ids[0], version: 0 }, otherGig.id)
  assert.equal(missingEntry.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missingEntry).code, 'SETLIST_ENTRY_NOT_FOUND')
  const missingGig = await current(editor, { entryId: ids[0], version: 0 }, 999_999)
  assert.equal(missingGig.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missingGig).code, 'GIG_NOT_FOUND')
  assert.equal((await editor.post('/gigs_lm/999999/undo', { version: 0 })).statusCode, 404)
  // Nothing of the refusals was written.
  assert.deepEqual(states(await view(member, gig.id)), ['skipped', 'skipped', 'played2', 'planned'])
})
