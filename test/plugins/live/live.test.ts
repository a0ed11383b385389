import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, json, type Ok, type ErrorResponseBody } from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { liveGig } from '#test/plugins/live/live-gig.js'

test(
  'GET /gigs_lm/{id}: member view with header, current, timing, version and ' +
    'ETag; 304 on If-None-Match',
  async (t) => {
    const { ctx, editor, member, gig, entries } = await liveGig()
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
    const { ctx, editor, member, gig, entries } = await liveGig()
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
    const { ctx, editor, member, gig, setlist, entries } = await liveGig()
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
