import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import {
  client,
  createTestApp,
  json,
  sessionClient,
  userClient,
  type Client,
  type TestContext
} from './helpers.js'
import { createGig, insertSong, insertSongs, putSetlist } from './gig-fixtures.js'

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

test(
  'SSE: snapshot first, then an entry event per change with the version as ' +
    'id; insert sends a snapshot',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')
    const songIds = insertSongs(ctx.app, 3)
    const gig = await createGig(editor)
    const setlist = await putSetlist(editor, gig.id, [songIds])
    const entries = setlist.sets[0].entries

    const stream = await openStream(base, `/gigs_lm/${gig.id}/events`, member)
    t.after(() => stream.close())
    assert.equal(stream.res.status, 200)
    assert.match(stream.res.headers.get('content-type')!, /^text\/event-stream/)
    const snapshot = await stream.next()
    assert.equal(snapshot!.event, 'snapshot')
    const live = json(await member.get(`/gigs_lm/${gig.id}`))
    assert.deepEqual(snapshot!.data, live)
    assert.equal(snapshot!.id, String(live.version))

    const update = json(
      await editor.put(`/gigs_lm/${gig.id}/`, {
        entryId: entries[0].id,
        status: 'played',
        rating: 3
      })
    )
    const event = await stream.next()
    assert.equal(event!.event, 'entry')
    assert.equal(event!.id, String(update.version))
    assert.deepEqual(event!.data, { version: update.version, entry: update.entry })

    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[1].id, status: 'skipped' })
    const second = await stream.next()
    assert.equal(second!.data.entry.id, entries[1].id)
    assert.equal(second!.data.entry.status, 'skipped')
    assert.equal(Number(second!.id), update.version + 1)

    const extra = insertSong(ctx.app, 'Zugabe')
    const inserted = json(
      await editor.post(`/gigs_lm/${gig.id}/insert`, { songId: extra, setId: setlist.sets[0].id })
    )
    const fresh = await stream.next()
    assert.equal(fresh!.event, 'snapshot')
    assert.ok(fresh!.data.sets[0].entries.some((e: any) => e.id === inserted.id && e.inserted))

    // A follower of another gig hears nothing of this one; closing cleans the listener up.
    assert.equal(ctx.app.liveBus.listenerCount(gig.id), 1)
    stream.close()
    await eventually(() => ctx.app.liveBus.listenerCount() === 0)
  }
)

test(
  'SSE reconnect: Last-Event-ID equal to the version skips the snapshot, ' +
    'a stale one gets a fresh snapshot',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const base = await listen(ctx)
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const songIds = insertSongs(ctx.app, 2)
    const gig = await createGig(editor)
    const entries = (await putSetlist(editor, gig.id, [songIds])).sets[0].entries
    const version = json(await editor.get(`/gigs_lm/${gig.id}`)).version

    const upToDate = await openStream(base, `/gigs_lm/${gig.id}/events`, editor, {
      'last-event-id': String(version)
    })
    t.after(() => upToDate.close())
    await eventually(() => ctx.app.liveBus.listenerCount(gig.id) === 1)
    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'played' })
    const first = await upToDate.next()
    assert.equal(first!.event, 'entry', 'no snapshot: the client was up to date')
    assert.equal(first!.id, String(version + 1))

    const stale = await openStream(base, `/gigs_lm/${gig.id}/events`, editor, {
      'last-event-id': String(version)
    })
    t.after(() => stale.close())
    const snap = await stale.next()
    assert.equal(snap!.event, 'snapshot')
    assert.equal(snap!.id, String(version + 1))
    assert.equal(snap!.data.sets[0].entries[0].status, 'played')
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
    assert.equal(ctx.app.liveBus.listenerCount(), 0)
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
  await eventually(() => ctx.app.liveBus.listenerCount() === remainingListeners)
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
    assert.equal((await stream.next())!.event, 'entry')

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
    assert.equal((await editorStream.next())!.event, 'entry', "an active user's stream goes on")
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
