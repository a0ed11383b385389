import { test } from 'node:test'
import assert from 'node:assert/strict'
import Database from 'better-sqlite3'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { eventually, listen, openStream, tagOf } from '#test/plugins/live/sse-follow.js'

test(
  'SSE: every change of the live view reaches a follower as a snapshot equal to the poll, ' +
    'whatever changed it; reconnects with Last-Event-ID are exact',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const admin = await userClient(ctx.app, 'root', 'admin')
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')
    const songIds = insertSongs(ctx.app, 4)
    const gig = await createGig(editor)
    const setlist = await putSetlist(editor, gig.id, [songIds.slice(0, 3)])
    const entries = setlist.sets[0].entries
    const other = await createGig(editor, { name: 'Another gig' })

    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    assert.equal(stream.res.status, 200)
    assert.match(stream.res.headers.get('content-type')!, /^text\/event-stream/)
    let poll = await member.get(`/gigs_lm/${gig.id}`)
    let event = await stream.next()
    assert.equal(event!.event, 'snapshot')
    assert.deepEqual(event!.data, json<Ok<'/gigs_lm/{id}', 'get'>>(poll))
    assert.equal(event!.id, tagOf(poll.headers.etag))

    /** After a change: the next event is a snapshot, the same view a poller gets now. */
    const agree = async (what: string, check: (view: any) => void) => {
      event = await stream.next()
      poll = await member.get(`/gigs_lm/${gig.id}`)
      assert.equal(event!.event, 'snapshot', what)
      assert.deepEqual(event!.data, json<Ok<'/gigs_lm/{id}', 'get'>>(
        poll), `${what}: follower and poller agree`)
      assert.equal(event!.id, tagOf(poll.headers.etag), `${what}: the event id is the ETag`)
      check(event!.data)
    }
    const ok = async (response: Promise<{ statusCode: number, body: string }>, status = 200) => {
      const r = await response
      assert.equal(r.statusCode, status, r.body)
    }
    const entry = (view: any, id: number) =>
      view.sets.flatMap((s: any) => s.entries).find((e: any) => e.id === id)

    await ok(editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'played' }))
    await agree('entry status', (v) => assert.equal(entry(v, entries[0].id).status, 'played'))
    await ok(editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, rating: 3 }))
    await agree('rating', (v) => assert.equal(entry(v, entries[0].id).rating, 3))
    // A skip re-times every later entry and moves `current`: the whole view travels.
    await ok(editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[1].id, status: 'skipped' }))
    await agree('skip', (v) => {
      assert.equal(v.current.id, entries[2].id)
      assert.equal(entry(v, entries[2].id).plannedStart, '20:03')
    })
    const inserted = json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(
      await editor.post(`/gigs_lm/${gig.id}/insert`, {
        songId: songIds[3],
        setId: setlist.sets[0].id
      }))
    await agree('insert', (v) => assert.equal(entry(v, inserted.id).inserted, true))
    const saved = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
    await ok(editor.put(`/gigs/${gig.id}/setlist`, {
      version: saved.version,
      sets: [{ ...saved.sets[0], entries: saved.sets[0]!.entries.slice(0, 3) }].map((set) => ({
        id: set.id,
        name: 'Main set',
        entries: set.entries.map((e: any) => ({ id: e.id, songId: e.songId }))
      }))
    }))
    await agree('setlist save', (v) => assert.equal(v.sets[0].name, 'Main set'))
    await ok(editor.patch(`/gigs/${gig.id}`, { name: 'Stadtfest, Hauptbühne', startTime: '21:00' }))
    await agree('gig fields', (v) => {
      assert.equal(v.gig.name, 'Stadtfest, Hauptbühne')
      assert.equal(v.sets[0].start, '21:00')
    })

    const beforeRename = event!.id
    const key = 'Db'
    for (const [field, value] of [
      ['title', 'Neuer Titel'],
      ['key', key],
      ['leadSinger', 'Lena'],
      ['durationSeconds', 333]
    ] as const) {
      await ok(editor.patch(`/songs/${songIds[2]}`, { [field]: value }))
      await agree(`song ${field}`, (v) => assert.equal(entry(v, entries[2].id).song[field], value))
    }
    const timing = { ...ctx.app.appSettings.get().timing, songGapSeconds: 90 }
    await ok(admin.put('/admin/app_config', { ...ctx.app.appSettings.get(), timing }))
    await agree('timing defaults', (v) =>
      assert.equal(entry(v, entries[2].id).plannedStart, '21:04'))

    // A write of another process (the CLI) on the same file is found by the revision too.
    const cli = new Database(ctx.config.databaseFile)
    cli.prepare('UPDATE songs SET title = ? WHERE id = ?').run('Von der CLI', songIds[0])
    cli.close()
    await agree('another process', (v) =>
      assert.equal(entry(v, entries[0].id).song.title, 'Von der CLI'))

    // Writes that leave the view as it was send nothing and keep the poller's ETag.
    const unchanged = String(poll.headers.etag)
    await ok(editor.patch(`/gigs/${other.id}`, { name: 'Renamed elsewhere' }))
    await ok(editor.post('/songs', { title: 'Not in this setlist', status: 'ready' }), 201)
    const notModified = await member.get(`/gigs_lm/${gig.id}`, { 'if-none-match': unchanged })
    assert.equal(notModified.statusCode, 304)

    // Reconnects: an id from before the song changes gets a fresh snapshot at once; the current
    // id gets none, its first event is the next change.
    const stale = await openStream(base, `/gigs_lm/${gig.id}/events`, member, {
      'last-event-id': beforeRename!
    })
    t.after(() => stale.close())
    const fresh = await stale.next()
    assert.equal(fresh!.event, 'snapshot')
    assert.equal(fresh!.id, tagOf(unchanged))
    const upToDate = await openStream(base, `/gigs_lm/${gig.id}/events`, member, {
      'last-event-id': tagOf(unchanged)!
    })
    t.after(() => upToDate.close())
    await eventually(() => ctx.app.liveViews.followers.count(gig.id) === 3)
    await ok(editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[2].id, status: 'played' }))
    await agree('after the unrelated writes', (v) => assert.equal(v.current, null))
    for (const follower of [stale, upToDate]) {
      const next = await follower.next()
      assert.equal(next!.event, 'snapshot')
      assert.equal(next!.id, event!.id, 'no snapshot in between: nothing had changed')
    }

    // Deleting the gig: `deleted`, the streams end, the poller gets 404.
    await ok(editor.delete(`/gigs/${gig.id}`), 204)
    for (const follower of [stream, stale, upToDate]) {
      const last = await follower.next()
      assert.deepEqual(last, { event: 'deleted', id: undefined, data: { gigId: gig.id } })
      assert.equal(await follower.next(), null, 'the stream ended')
    }
    const gone = await member.get(`/gigs_lm/${gig.id}`, { 'if-none-match': unchanged })
    assert.equal(gone.statusCode, 404)
    await eventually(() => ctx.app.liveViews.followers.count() === 0)
  }
)

test(
  'SSE: 401 without session, 404 unknown gig, deleted gig ends the stream, ' +
    'app close ends all streams',
  async (t) => {
    const ctx = await createTestApp()
    let closed = false
    t.after(() => (closed ? undefined : ctx.close()))
    const base = await listen(ctx)
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')
    const gig = await createGig(editor)
    const other = await createGig(editor)

    const anon = await fetch(`${base}/gigs_lm/${gig.id}/events`)
    assert.equal(anon.status, 401)
    assert.equal(((await anon.json()) as { code: string }).code, 'UNAUTHORIZED')
    const missing = await fetch(`${base}/gigs_lm/999/events`, {
      headers: { cookie: member.jar.header() }
    })
    assert.equal(missing.status, 404)
    await missing.body?.cancel()

    const deleted = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    assert.equal((await deleted.next())!.event, 'snapshot')
    assert.equal((await editor.delete(`/gigs/${gig.id}`)).statusCode, 204)
    assert.equal((await deleted.next())!.event, 'deleted')
    assert.equal(await deleted.next(), null, 'stream ended')

    const open = await openStream(base, `/gigs_lm/${other.id}/events`, member)
    assert.equal((await open.next())!.event, 'snapshot')
    await ctx.close()
    closed = true
    assert.equal(await open.next(), null, 'graceful shutdown ended the stream')
    assert.equal(ctx.app.liveViews.followers.count(), 0)
  }
)
