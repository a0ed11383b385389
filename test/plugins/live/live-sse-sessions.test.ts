import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  client,
  createTestApp,
  sessionClient,
  userClient,
  type TestContext
} from '#test/helpers.js'
import { eventually, followedGig, listen, openStream } from '#test/plugins/live/sse-follow.js'

// A follower's stream ends with its session: logged out elsewhere, the user deactivated or held to
// a password change, and on the heartbeat for an idle stream.

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
