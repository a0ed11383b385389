import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import { countStatements, createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { gigs } from '#src/db/schema.js'
import { liveGig } from '#test/plugins/live/live-gig.js'

// Live state across the other writes: a setlist save keeps it, parallel taps all land, the view's
// statements do not grow with the setlist, zero is a value, and when the current song began.

test('a setlist save keeps live state, bumps the live version', async (t) => {
  const { ctx, editor, member, gig, setlist, entries } = await liveGig()
  t.after(() => ctx.close())
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'played', rating: 3 })
  const before = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`)).version
  const saved = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: setlist.version,
    sets: [
      {
        id: setlist.sets[0].id,
        name: 'Only',
        entries: [{ id: entries[0].id, songId: entries[0].songId }]
      }
    ]
  })
  assert.equal(saved.statusCode, 200)
  const after = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`))
  assert.equal(after.version, before + 1)
  assert.equal(after.sets[0]!.entries[0]!.status, 'played')
  assert.equal(after.sets[0]!.entries[0]!.rating, 3)
})

test(
  '50 parallel live updates from several sessions: all stored, version grew by exactly 50',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editors = await Promise.all(
      ['e1', 'e2', 'e3', 'e4', 'e5'].map((n) => userClient(ctx.app, n, 'editor'))
    )
    const songIds = insertSongs(ctx.app, 50)
    const gig = await createGig(editors[0]!)
    const setlist = await putSetlist(editors[0]!, gig.id, [songIds.slice(0, 25), songIds.slice(25)])
    const entries = setlist.sets.flatMap((s: any) => s.entries)
    const version = () =>
      ctx.app.db.select({ v: gigs.liveVersion }).from(gigs).where(eq(gigs.id, gig.id)).get()!.v
    const v0 = version()
    const responses = await Promise.all(
      entries.map((e: any, i: number) =>
        editors[i % editors.length]!.put(`/gigs_lm/${gig.id}/`, {
          entryId: e.id,
          status: i % 3 === 0 ? 'skipped' : 'played',
          ...(i % 3 === 0 ? {} : { rating: ((i % 3) + 1) as 2 | 3 })
        })
      )
    )
    assert.ok(responses.every((r) => r.statusCode === 200))
    const versions = responses.map((r) => json<Ok<'/gigs_lm/{id}/', 'put'>>(
      r).version).sort((a, b) => a - b)
    assert.deepEqual(
      versions,
      Array.from({ length: 50 }, (_, i) => v0 + i + 1),
      'each update got its own version'
    )
    assert.equal(version(), v0 + 50)
    const live = json<Ok<'/gigs_lm/{id}', 'get'>>(await editors[0]!.get(`/gigs_lm/${gig.id}`))
    live.sets
      .flatMap((s: any) => s.entries)
      .forEach((e: any, i: number) => {
        assert.equal(e.status, i % 3 === 0 ? 'skipped' : 'played')
        assert.equal(e.rating, i % 3 === 0 ? null : (i % 3) + 1)
      })
  }
)

test(
  'GET /gigs_lm/{id} for a 60-song gig uses as many statements as for a 2-song ' +
    'gig; 304 path is cheaper',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const songIds = insertSongs(ctx.app, 60)
    const small = await createGig(editor)
    const large = await createGig(editor)
    await putSetlist(editor, small.id, [songIds.slice(0, 2)])
    await putSetlist(editor, large.id, [
      songIds.slice(0, 20),
      songIds.slice(20, 40),
      songIds.slice(40)
    ])
    const a = await countStatements(ctx.app, () => editor.get(`/gigs_lm/${small.id}`))
    const b = await countStatements(ctx.app, () => editor.get(`/gigs_lm/${large.id}`))
    assert.equal(json<Ok<'/gigs_lm/{id}', 'get'>>(
      b.result).sets.flatMap((s) => s.entries).length, 60)
    assert.equal(a.statements, b.statements)
    // gig, sets, entries
    assert.ok(b.statements <= 3, b.sql.join('\n'))
    const hit = await countStatements(ctx.app, () => editor.get(`/gigs_lm/${large.id}`))
    assert.equal(hit.result.body, b.result.body)
    assert.equal(hit.statements, 0, 'a repeated poll is served from the response cache')
    assert.equal(hit.sessionChecks, 0, 'its session check is remembered for the revision')
    const etag = b.result.headers.etag as string
    const c = await countStatements(ctx.app, () =>
      editor.get(`/gigs_lm/${large.id}`, { 'if-none-match': etag })
    )
    assert.equal(c.result.statusCode, 304)
    assert.ok(c.statements < b.statements)
    const s = await countStatements(ctx.app, () => editor.get(`/gigs/${large.id}/setlist`))
    assert.equal(s.statements, a.statements)
  }
)

test('zero is a value, not null: a 0 s set break stays 0, rating 0 is 400', async (t) => {
  const { ctx, editor, gig, songIds, entries } = await liveGig()
  t.after(() => ctx.close())
  const current = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
  const res = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: current.version,
    sets: [
      { name: 'A', breakAfterSeconds: 0, entries: [{ songId: songIds[0] }] },
      { name: 'B', entries: [{ songId: songIds[1] }] }
    ]
  })
  const s = json<Ok<'/gigs/{id}/setlist', 'put'>>(res)
  assert.equal(s.sets[0]!.breakAfterSeconds, 0)
  assert.equal(s.sets[0]!.customBreakAfterSeconds, 0)
  assert.equal(s.sets[1]!.start, s.sets[0]!.end)
  assert.equal(
    (await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, rating: 0 })).statusCode,
    400
  )
  assert.equal((await editor.patch(`/gigs/${gig.id}`, { startTime: '' })).statusCode, 400)
})

test('currentSince: the actual start of the current song, kept when rated later', async (t) => {
  const { ctx, editor, member, gig, entries } = await liveGig()
  t.after(() => ctx.close())
  const view = async () => json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`))
  assert.equal((await view()).currentSince, null, 'nothing marked yet')

  const firstEnded = ctx.now().toISOString()
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'played' })
  ctx.advance(60_000)
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, rating: 3 })
  const afterRating = await view()
  assert.equal(afterRating.current!.id, entries[1].id)
  assert.ok(afterRating.currentSince! >= firstEnded, 'stamped by the Played tap')
  assert.ok(
    Date.parse(afterRating.currentSince!) < Date.parse(ctx.now().toISOString()) - 30_000,
    'the rating a minute later does not move it'
  )

  ctx.advance(60_000)
  const skipped = ctx.now().toISOString()
  await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[1].id, status: 'skipped' })
  const afterSkip = await view()
  assert.equal(afterSkip.current!.id, entries[2].id)
  assert.ok(afterSkip.currentSince! >= skipped, 'a skip starts the next song too')

  for (const entry of entries.slice(2)) {
    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entry.id, status: 'played' })
  }
  const done = await view()
  assert.equal(done.current, null)
  assert.equal(done.currentSince, null, 'nothing is playing after the last song')
})
