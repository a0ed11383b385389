import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from 'drizzle-orm'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { gigs } from '#src/db/schema.js'

async function setup () {
  const ctx = await createTestApp()
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const songIds = insertSongs(ctx.app, 4, 270)
  const gig = await createGig(editor, { startTime: '20:00' })
  const setlist = await putSetlist(editor, gig.id, [
    [songIds[0]!, songIds[1]!],
    [songIds[2]!, songIds[3]!]
  ])
  const entries = setlist.sets.flatMap((s: any) => s.entries)
  return { ctx, editor, member, songIds, gig, setlist, entries }
}

test(
  'GET /gigs_lm/{id}: member view with header, current, timing, version and ' +
    'ETag; 304 on If-None-Match',
  async (t) => {
    const { ctx, editor, member, gig, entries } = await setup()
    t.after(() => ctx.close())
    const res = await member.get(`/gigs_lm/${gig.id}`)
    assert.equal(res.statusCode, 200)
    const state = json<Ok<'/gigs_lm/{id}', 'get'>>(res)
    assert.equal(state.gig.name, gig.name)
    assert.equal(state.sets.length, 2)
    assert.equal(state.current!.id, entries[0].id)
    assert.equal(state.current!.song!.title, 'Song 001')
    assert.deepEqual(state.progress, { planned: 4, played: 0, skipped: 0 })
    assert.match(String(res.headers.etag), /^W\/"[^"]+"$/)
    assert.equal((await member.get(`/gigs_lm/${gig.id}/`)).statusCode, 200, 'trailing slash')

    const notModified = await member.get(`/gigs_lm/${gig.id}`, {
      'if-none-match': res.headers.etag as string
    })
    assert.equal(notModified.statusCode, 304)
    assert.equal(notModified.body, '')
    assert.equal(notModified.headers['content-length'], undefined, 'a 304 has no length')
    assert.equal(notModified.headers.etag, res.headers.etag)
    assert.equal(
      (
        await member.get(`/gigs_lm/${gig.id}`, {
          'if-none-match': String(res.headers.etag).slice(2)
        })
      ).statusCode,
      304,
      'weak comparison'
    )
    assert.equal(
      (
        await member.get(`/gigs_lm/${gig.id}`, {
          'if-none-match': 'W/"other", ' + res.headers.etag
        })
      ).statusCode,
      304,
      'lists'
    )

    // Skipped take no time, current moves on, version and ETag change.
    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'skipped' })
    const changed = await member.get(`/gigs_lm/${gig.id}`, {
      'if-none-match': res.headers.etag as string
    })
    assert.equal(changed.statusCode, 200)
    const s2 = json<Ok<'/gigs_lm/{id}', 'get'>>(changed)
    assert.equal(s2.version, state.version + 1)
    assert.notEqual(changed.headers.etag, res.headers.etag)
    assert.equal(s2.current!.id, entries[1].id)
    assert.equal(s2.sets[0]!.entries[1]!.plannedStart, '20:00')
    assert.deepEqual(s2.progress, { planned: 3, played: 0, skipped: 1 })

    for (const e of entries.slice(1)) {
      await editor.put(`/gigs_lm/${gig.id}/`, { entryId: e.id, status: 'played' })
    }
    assert.equal(json<Ok<'/gigs_lm/{id}', 'get'>>(
      await member.get(`/gigs_lm/${gig.id}`)).current, null, 'all done')

    assert.equal((await anonymous(ctx.app).get(`/gigs_lm/${gig.id}`)).statusCode, 401)
    assert.equal((await member.get('/gigs_lm/999')).statusCode, 404)
    assert.equal(
      (await member.get('/gigs_lm/999', { 'if-none-match': 'W/"stale"' })).statusCode,
      404
    )
    assert.equal((await member.get('/gigs_lm/x')).statusCode, 400)
  }
)

test(
  'PUT /gigs_lm/{id}/: omitted stays, null clears, skip clears rating, rating ' +
    'skipped 409, foreign entry 404',
  async (t) => {
    const { ctx, editor, member, gig, entries } = await setup()
    t.after(() => ctx.close())
    const url = `/gigs_lm/${gig.id}/`
    const put = async (body: unknown, status = 200) => {
      const r = await editor.put(url, body)
      assert.equal(r.statusCode, status, `${JSON.stringify(body)} → ${r.body}`)
      return json<Ok<'/gigs_lm/{id}/', 'put'> & Partial<ErrorResponseBody>>(r)
    }
    const e = entries[0].id
    const v0 = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`)).version
    const r1 = await put({ entryId: e, status: 'played' })
    assert.equal(r1.entry.status, 'played')
    assert.equal(r1.entry.rating, null)
    assert.equal(r1.version, v0 + 1)
    const r2 = await put({ entryId: e, rating: 2 })
    assert.equal(r2.entry.status, 'played', 'omitted status stays')
    assert.equal(r2.entry.rating, 2)
    const r3 = await put({ entryId: e, status: 'played' })
    assert.equal(r3.entry.rating, 2, 'omitted rating stays')
    const r4 = await put({ entryId: e, rating: null })
    assert.equal(r4.entry.rating, null, 'null clears')
    await put({ entryId: e, rating: 3 })
    const r5 = await put({ entryId: e, status: 'skipped' })
    assert.equal(r5.entry.rating, null, 'skipping clears the rating')
    const conflict = await put({ entryId: e, rating: 1 }, 409)
    assert.equal(conflict.code, 'ENTRY_SKIPPED')
    await put({ entryId: e, status: 'skipped', rating: 2 }, 409)
    await put({ entryId: e, status: 'skipped', rating: null })
    const back = await put({ entryId: e, status: 'planned', rating: 1 })
    assert.equal(back.entry.rating, 1)
    assert.equal(back.version, v0 + 8)
    // the same route without the trailing slash
    assert.equal(
      (await editor.put(`/gigs_lm/${gig.id}`, { entryId: e, status: 'played' })).statusCode,
      200
    )

    for (const body of [
      { entryId: e },
      { entryId: e, status: 'done' },
      { entryId: e, rating: 4 },
      { entryId: e, rating: 0 },
      { entryId: 'x', status: 'played' },
      { status: 'played' },
      { entryId: e, status: 'played', inserted: true }
    ]) {
      await put(body, 400)
    }
    const other = await createGig(editor, { name: 'Other' })
    const os = await putSetlist(editor, other.id, [[insertSong(ctx.app, 'Z')]])
    const foreign = await put({ entryId: os.sets[0].entries[0].id, status: 'played' }, 404)
    assert.equal(foreign.code, 'SETLIST_ENTRY_NOT_FOUND')
    assert.equal(
      json<Ok<'/gigs_lm/{id}', 'get'>>(
        await editor.get(`/gigs_lm/${other.id}`)).sets[0]!.entries[0]!.status,
      'planned'
    )
    assert.equal(
      (await editor.put('/gigs_lm/999/', { entryId: e, status: 'played' })).statusCode,
      404
    )
    assert.equal((await member.put(url, { entryId: e, status: 'played' })).statusCode, 403)
    assert.equal(
      (await anonymous(ctx.app).put(url, { entryId: e, status: 'played' })).statusCode,
      401
    )
  }
)

test(
  'POST /gigs_lm/{id}/insert adds an inserted entry after another (or at the end), bumps versions',
  async (t) => {
    const { ctx, editor, member, gig, setlist, entries } = await setup()
    t.after(() => ctx.close())
    const extra = insertSong(ctx.app, 'Zugabe', { durationSeconds: 200 })
    const set1 = setlist.sets[0]
    const res = await editor.post(`/gigs_lm/${gig.id}/insert`, {
      songId: extra,
      setId: set1.id,
      afterEntryId: entries[0].id
    })
    assert.equal(res.statusCode, 201, res.body)
    const entry = json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(res)
    assert.equal(entry.inserted, true)
    assert.equal(entry.status, 'planned')
    assert.equal(entry.song!.title, 'Zugabe')
    assert.equal(entry.plannedStart, '20:05')
    const live = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`))
    assert.deepEqual(
      live.sets[0]!.entries.map((e: any) => e.id),
      [entries[0].id, entry.id, entries[1].id]
    )
    const end = json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(
      await editor.post(`/gigs_lm/${gig.id}/insert/`, { songId: extra, setId: setlist.sets[1].id })
    )
    assert.deepEqual(
      json<Ok<'/gigs_lm/{id}', 'get'>>(
        await member.get(`/gigs_lm/${gig.id}`)).sets[1]!.entries.map((e: any) => e.id),
      [entries[2].id, entries[3].id, end.id]
    )
    // the setlist version moved on: an editor's older setlist cannot silently drop the inserted
    // songs
    const stale = await editor.put(`/gigs/${gig.id}/setlist`, {
      version: setlist.version,
      sets: []
    })
    assert.equal(stale.statusCode, 409)

    const other = await createGig(editor, { name: 'Other' })
    const os = await putSetlist(editor, other.id, [[extra]])
    assert.equal(
      (await editor.post(`/gigs_lm/${gig.id}/insert`, { songId: extra, setId: os.sets[0].id }))
        .statusCode,
      404,
      'set of another gig'
    )
    assert.equal(
      (
        await editor.post(`/gigs_lm/${gig.id}/insert`, {
          songId: extra,
          setId: set1.id,
          afterEntryId: entries[2].id
        })
      ).statusCode,
      400,
      'after entry not in set'
    )
    assert.equal(
      (await editor.post(`/gigs_lm/${gig.id}/insert`, { songId: 99999, setId: set1.id }))
        .statusCode,
      400
    )
    const retired = insertSong(ctx.app, 'Retired', { status: 'retired' })
    assert.equal(
      (await editor.post(`/gigs_lm/${gig.id}/insert`, { songId: retired, setId: set1.id }))
        .statusCode,
      400
    )
    assert.equal(
      (await editor.post(`/gigs_lm/${gig.id}/insert`, { songId: extra })).statusCode,
      400
    )
    assert.equal(
      (await editor.post('/gigs_lm/999/insert', { songId: extra, setId: set1.id })).statusCode,
      404
    )
    assert.equal(
      (await member.post(`/gigs_lm/${gig.id}/insert`, { songId: extra, setId: set1.id }))
        .statusCode,
      403
    )
    assert.equal(
      (
        await anonymous(ctx.app).post(`/gigs_lm/${gig.id}/insert`, {
          songId: extra,
          setId: set1.id
        })
      ).statusCode,
      401
    )
  }
)

test('a setlist save keeps live state, bumps the live version', async (t) => {
  const { ctx, editor, member, gig, setlist, entries } = await setup()
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
  const { ctx, editor, gig, songIds, entries } = await setup()
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
  const { ctx, editor, member, gig, entries } = await setup()
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
