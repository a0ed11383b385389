import { test } from 'node:test'
import assert from 'node:assert/strict'
import { get as httpGet, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import {
  client,
  createTestApp,
  json,
  sessionClient,
  userClient,
  type Client,
  type TestContext,
  type Ok
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

interface SseEvent {
  event: string
  id?: string
  data: any
}

/**
 * A real HTTP stream (inject cannot stream): reads SSE frames, skipping comments and retry lines.
 */
async function openStream (
  base: string,
  path: string,
  c: Client | null,
  headers: Record<string, string> = {}
) {
  const controller = new AbortController()
  const res = await fetch(base + path, {
    headers: { ...(c ? { cookie: c.jar.header() } : {}), ...headers },
    signal: controller.signal
  })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let done = false
  const comments: string[] = []
  async function next (): Promise<SseEvent | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const fields: Record<string, string> = {}
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) comments.push(line)
          const i = line.indexOf(':')
          if (i > 0) fields[line.slice(0, i)] = line.slice(i + 1).trimStart()
        }
        if (fields.event) {
          return { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') }
        }
        continue
      }
      if (done) return null
      const chunk = await reader.read()
      if (chunk.done) done = true
      else buffer += decoder.decode(chunk.value, { stream: true })
    }
  }
  return { res, next, close: () => controller.abort(), comments }
}

async function listen (ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
}

/** Waits (without a time limit of its own) until the condition holds. */
async function eventually (condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** The opaque part of a weak ETag: what the live stream sends as its event id. */
const tagOf = (etag: unknown) => /^W\/"(.+)"$/.exec(String(etag))![1]

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

/** A gig with a setlist, an editor who changes it and a member who follows it. */
async function followedGig (ctx: TestContext) {
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const gig = await createGig(editor)
  const entries = (await putSetlist(editor, gig.id, [insertSongs(ctx.app, 3)])).sets[0]
    .entries as Array<{ id: number }>
  let n = 0
  const change = async () =>
    assert.equal(
      (
        await editor.put(`/gigs_lm/${gig.id}/`, {
          entryId: entries[n++ % entries.length]!.id,
          status: 'played'
        })
      ).statusCode,
      200
    )
  return { editor, member, gig, change }
}

async function assertEndedForSession (
  ctx: TestContext,
  stream: Awaited<ReturnType<typeof openStream>>,
  remainingListeners = 0
) {
  assert.deepEqual(await stream.next(), {
    event: 'end',
    id: undefined,
    data: { reason: 'session ended' }
  })
  assert.equal(await stream.next(), null, 'the stream closed')
  await eventually(() => ctx.app.liveViews.followers.count() === remainingListeners)
}

test(
  "SSE: logout of the stream's session (from another client) ends the stream " +
    'on the next event; other sessions do not',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const { member, gig, change } = await followedGig(ctx)
    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    assert.equal((await stream.next())!.event, 'snapshot')

    // The same user's other session (another phone) logging out leaves this stream alone.
    assert.equal((await sessionClient(ctx.app, member.user).post('/logout')).statusCode, 204)
    ctx.advance(1_000)
    await change()
    assert.equal((await stream.next())!.event, 'snapshot')

    // Another client holding the stream's own session (the same browser's other tab) logs out.
    const sameSession = client(ctx.app, member.user)
    sameSession.jar.set('access_token', member.jar.get('access_token')!)
    assert.equal((await sameSession.post('/logout')).statusCode, 204)
    ctx.advance(1_000)
    await change()
    await assertEndedForSession(ctx, stream)
  }
)

test(
  'SSE: deactivating the user (admin PATCH status inactive) ends their stream on the next event',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const admin = await userClient(ctx.app, 'root', 'admin')
    const { member, editor, gig, change } = await followedGig(ctx)
    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    const editorStream = await openStream(base, `/gigs_lm/${gig.id}/events`, editor)
    t.after(() => editorStream.close())
    assert.equal((await stream.next())!.event, 'snapshot')
    assert.equal((await editorStream.next())!.event, 'snapshot')

    assert.equal(
      (await admin.patch(`/users/${member.user.id}`, { status: 'inactive' })).statusCode,
      200
    )
    ctx.advance(1_000)
    await change()
    await assertEndedForSession(ctx, stream, 1)
    assert.equal((await editorStream.next())!.event, 'snapshot', "an active user's stream goes on")
  }
)

test(
  'SSE: a member held to a password change (an admin set theirs) has their stream ended',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const admin = await userClient(ctx.app, 'root', 'admin')
    const { member, gig, change } = await followedGig(ctx)
    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    assert.equal((await stream.next())!.event, 'snapshot')
    const set = await admin.patch(`/users/${member.user.id}`,
      { password: 'set for you by the admin 42' })
    assert.equal(set.statusCode, 200)
    ctx.advance(1_000)
    await change()
    await assertEndedForSession(ctx, stream)
  }
)

test(
  "SSE: the heartbeat re-checks the session too: a revoked session's idle " + 'stream ends',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const { member, gig } = await followedGig(ctx)
    // Only the stream's heartbeat interval is faked: the test fires it instead of waiting 15 s.
    t.mock.timers.enable({ apis: ['setInterval'] })
    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    assert.equal((await stream.next())!.event, 'snapshot')

    // A live session's heartbeat is a plain comment; after logout the next heartbeat ends the
    // stream.
    ctx.advance(1_000)
    t.mock.timers.tick(15_000)
    assert.equal((await member.post('/logout')).statusCode, 204)
    ctx.advance(1_000)
    t.mock.timers.tick(15_000)
    await assertEndedForSession(ctx, stream)
    assert.deepEqual(stream.comments, [': heartbeat'])
  }
)

test(
  'SSE caps: a session or user over its cap ends its oldest stream ("replaced"); a full ' +
    'server answers 429 TOO_MANY_STREAMS with Retry-After',
  async (t) => {
    const ctx = await createTestApp({
      liveStreams: { total: 5, perUser: 3, perSession: 2, slowReaderBytes: 256 * 1024 }
    })
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const { member, editor, gig } = await followedGig(ctx)
    const otherPhone = sessionClient(ctx.app, member.user)
    const follow = async (c: Client) => {
      const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, c)
      t.after(() => stream.close())
      assert.equal(stream.res.status, 200)
      assert.equal((await stream.next())!.event, 'snapshot')
      return stream
    }
    const replaced = async (stream: Awaited<ReturnType<typeof openStream>>) => {
      assert.deepEqual(await stream.next(), {
        event: 'end',
        id: undefined,
        data: { reason: 'replaced' }
      })
      assert.equal(await stream.next(), null)
    }
    const count = () => ctx.app.liveViews.followers.count()

    const a1 = await follow(member)
    await follow(member)
    await follow(member) // the session's third: its first ends
    await replaced(a1)
    assert.equal(count(), 2)
    const b1 = await follow(otherPhone) // the user's third across two sessions
    assert.equal(count(), 3)
    await follow(otherPhone) // the user's fourth: the user's oldest (a2) ends
    assert.equal(count(), 3)

    await follow(editor)
    await follow(editor)
    assert.equal(count(), 5)
    const admin = await userClient(ctx.app, 'root', 'admin')
    const refused = await fetch(`${base}/gigs_lm/${gig.id}/events`, {
      headers: { cookie: admin.jar.header() }
    })
    assert.equal(refused.status, 429)
    assert.equal(refused.headers.get('retry-after'), '30')
    assert.equal(((await refused.json()) as { code: string }).code, 'TOO_MANY_STREAMS')
    assert.equal(count(), 5, 'nobody was ended for the refused stream')

    b1.close()
    await eventually(() => count() === 4)
    await follow(admin)
  }
)

/**
 * A follower over node:http that can stop reading: paused, its socket is not read, so the server's
 * writes back up (kernel buffers first, then Node's).
 */
function rawFollower (base: string, path: string, c: Client) {
  let text = ''
  const response = new Promise<IncomingMessage>((resolve) => {
    httpGet(base + path, { headers: { cookie: c.jar.header() } }, resolve)
  })
  const frames = () =>
    text
      .split('\n\n')
      .filter((f) => f.startsWith('event: '))
      .map((f) => ({ event: f.split('\n')[0]!.slice(7), id: /\nid: (.*)/.exec(f)?.[1] }))
  return {
    response,
    frames,
    read: async () => (await response).on('data', (chunk: Buffer) => (text += chunk)).resume(),
    pause: async () => (await response).pause(),
    destroy: async () => (await response).destroy()
  }
}

/** A gig whose live view is large (~330 KB): a few snapshots fill the kernel's socket buffers. */
async function largeFollowedGig (ctx: TestContext) {
  const { editor, member, gig } = await followedGig(ctx)
  const songIds = insertSongs(ctx.app, 50)
  const current = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
  // The longest setlist (2 × 200 entries), each entry with a long note.
  const saved = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: current.version,
    sets: Array.from({ length: 2 }, (_, s) => ({
      name: `Set ${s + 1}`,
      entries: Array.from({ length: 200 }, (_, i) => ({
        songId: songIds[(s * 200 + i) % songIds.length]!,
        notes: `Ansage ${i}: `.padEnd(500, 'x')
      }))
    }))
  })
  assert.equal(saved.statusCode, 200, saved.body)
  const entries = json<Ok<'/gigs/{id}/setlist', 'put'>>(saved).sets
    .flatMap((s) => s.entries)
  let n = 0
  const change = async () => {
    const response = await editor.put(`/gigs_lm/${gig.id}/`, {
      entryId: entries[n++ % entries.length]!.id,
      status: n % 2 === 0 ? 'played' : 'skipped'
    })
    assert.equal(response.statusCode, 200)
  }
  return { editor, member, gig, change }
}

test(
  'SSE back-pressure: a reader that stops reading is sent nothing more and, past the ' +
    'threshold, closed; what Node holds for a stream stays bounded; other followers go on',
  async (t) => {
    const slowReaderBytes = 64 * 1024
    const ctx = await createTestApp({
      liveStreams: { total: 10, perUser: 10, perSession: 10, slowReaderBytes }
    })
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const { member, gig, change } = await largeFollowedGig(ctx)
    const reader = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => reader.close())
    const first = await reader.next()
    const frameBytes = JSON.stringify(first!.data).length + 100
    assert.ok(frameBytes > slowReaderBytes, 'one snapshot is larger than the threshold')

    const stalled = rawFollower(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stalled.destroy())
    await stalled.pause()
    await eventually(() => ctx.app.liveViews.followers.count(gig.id) === 2)
    let changes = 0
    while (ctx.app.liveViews.followers.count(gig.id) === 2) {
      assert.ok(changes < 200, 'the stalled stream was closed within 200 changes')
      await change()
      changes++
      // The reading follower gets every change.
      assert.equal((await reader.next())!.event, 'snapshot')
    }
    const { peakBufferedBytes } = ctx.app.liveViews.followers
    assert.ok(
      peakBufferedBytes <= slowReaderBytes + frameBytes,
      `Node held at most the threshold plus one frame for a stream (${peakBufferedBytes} bytes)`
    )
    await change()
    assert.equal((await reader.next())!.event, 'snapshot', 'the reading follower goes on')
  }
)

test(
  'SSE back-pressure: a reader that falls behind and reads again gets the newest snapshot ' +
    '(frames withheld meanwhile are not queued)',
  async (t) => {
    const ctx = await createTestApp({
      liveStreams: { total: 10, perUser: 10, perSession: 10, slowReaderBytes: 1 << 30 }
    })
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const { member, gig, change } = await largeFollowedGig(ctx)
    const behind = rawFollower(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => behind.destroy())
    await behind.pause()
    await eventually(() => ctx.app.liveViews.followers.count(gig.id) === 1)
    let changes = 0
    while (ctx.app.liveViews.followers.behind() === 0) {
      assert.ok(changes++ < 200, 'the reader fell behind within 200 changes')
      await change()
    }
    await change()
    await change()
    const latest = tagOf((await member.get(`/gigs_lm/${gig.id}`)).headers.etag)
    await behind.read()
    await eventually(() => behind.frames().at(-1)?.id === latest)
    const ids = behind.frames().map((f) => f.id)
    // Queued, they would have been the first snapshot and one per change.
    const everyChange = 1 + changes + 2
    assert.ok(ids.length < everyChange, `frames were skipped, not queued (${ids.length})`)
    assert.equal(new Set(ids).size, ids.length, 'no snapshot twice')
  }
)
