import { test } from 'node:test'
import assert from 'node:assert/strict'
import { get as httpGet, type IncomingMessage } from 'node:http'
import {
  createTestApp,
  json,
  sessionClient,
  userClient,
  type Client,
  type TestContext,
  type Ok
} from '#test/helpers.js'
import { insertSongs } from '#test/gig-fixtures.js'
import {
  eventually,
  followedGig,
  listen,
  openStream,
  tagOf
} from '#test/plugins/live/sse-follow.js'

// The event streams' limits: caps per session, user and server, and back-pressure from a reader
// that stops reading or falls behind.

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
