import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { App } from '#src/app.js'
import { createSession } from '#src/repositories/sessions.js'
import {
  anonymous,
  client,
  createTestApp,
  createUser,
  json,
  sessionClient,
  type Client,
  type TestUser,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'

// OWASP API1 (object level) / API5 (function level): a member's own data — sessions, calendar
// token, song votes, survey answers, availability, profile, email — is theirs alone, whatever route
// another user calls.

const B_EMAIL = 'bee-private@example.org'
const B_AGENT = 'bees-phone-user-agent-marker'

/**
 * B's session with a recognisable user agent, so any leak of it into another user's response shows.
 */
function markedSession (app: App, user: TestUser): { client: Client; sessionId: number } {
  const { session } = createSession(app.db, user.id, app.clock(), {
    userAgent: B_AGENT,
    ip: '203.0.113.7'
  })
  const c = client(app, user)
  c.jar.set('access_token', app.signAccessToken(user.id, session.id).token)
  return { client: c, sessionId: session.id }
}

/** Every row in every table that belongs to one user: compared before and after the attacks. */
function ownedRows (app: App, userId: number) {
  const rows = (sql: string) => app.sqlite.prepare(sql).all(userId)
  return {
    user: rows('SELECT * FROM users WHERE id = ?'),
    sessions: rows('SELECT * FROM sessions WHERE user_id = ? ORDER BY id'),
    votes: rows('SELECT * FROM song_votes WHERE user_id = ? ORDER BY song_id'),
    answers: rows('SELECT * FROM survey_answers WHERE user_id = ? ORDER BY option_id'),
    gigAvailability: rows('SELECT * FROM gig_availability WHERE user_id = ? ORDER BY gig_id'),
    rehearsalAvailability: rows(
      'SELECT * FROM rehearsal_availability WHERE user_id = ? ORDER BY rehearsal_id'
    ),
    calendar: rows('SELECT * FROM calendar_tokens WHERE user_id = ?')
  }
}

/** A band with member B's own data in every place it can live. */
async function band () {
  const ctx = await createTestApp()
  const { app } = ctx
  const a = await createUser(app, 'anna', 'member', { email: 'anna@example.org' })
  const b = await createUser(app, 'bert', 'member', { email: B_EMAIL })
  const e = await createUser(app, 'edda', 'editor', { email: 'edda@example.org' })
  const A = sessionClient(app, a)
  const E = sessionClient(app, e)
  const { client: B, sessionId: bSession } = markedSession(app, b)

  const songId = insertSong(app, 'Proposal', { status: 'proposed' })
  const gig = await createGig(E)
  const rehearsal = json<Ok<'/rehearsals', 'post'>>(
    await E.post('/rehearsals', { date: '2026-06-02', startTime: '19:00' }))
  const survey = json<Ok<'/surveys', 'post'>>(
    await E.post('/surveys', {
      title: 'Which Saturday?',
      kind: 'poll',
      options: [{ label: 'First' }, { label: 'Second' }]
    })
  )
  const [opt1, opt2] = survey.options.map((o: { id: number }) => o.id)

  assert.equal((await B.put(`/songs/${songId}/vote`, { vote: 'yes' })).statusCode, 200)
  assert.equal(
    (await B.put(`/surveys/${survey.id}/response`, { answers: [{ optionId: opt1, value: 'yes' }] }))
      .statusCode,
    200
  )
  assert.equal(
    (await B.put(`/gigs/${gig.id}/availability`, { status: 'yes', note: 'bert can' })).statusCode,
    200
  )
  assert.equal(
    (await B.put(`/rehearsals/${rehearsal.id}/availability`, { status: 'no', note: 'bert cannot' }))
      .statusCode,
    200
  )
  const feed = await B.post('/me/calendar')
  assert.equal(feed.statusCode, 201)
  const feedPath = new URL(json<Ok<'/me/calendar', 'post'>>(feed).url).pathname
  return {
    ctx,
    app,
    a,
    b,
    e,
    A,
    B,
    E,
    bSession,
    songId,
    gig,
    rehearsal,
    survey,
    opt1,
    opt2,
    feedPath
  }
}

test('sessions: A sees only own sessions and cannot end B’s', async (t) => {
  const s = await band()
  t.after(() => s.ctx.close())
  const mine = json<Array<{ id: number; userAgent: string | null }>>(await s.A.get('/me/sessions'))
  assert.ok(mine.length >= 1)
  assert.ok(!mine.some((x) => x.id === s.bSession), 'B’s session is not listed for A')
  assert.ok(!JSON.stringify(mine).includes(B_AGENT))

  for (const c of [s.A, s.E]) {
    const res = await c.delete(`/me/sessions/${s.bSession}`)
    assert.equal(
      res.statusCode,
      404,
      'someone else’s session is indistinguishable from a missing one'
    )
    assert.equal(json<ErrorResponseBody>(res).code, 'SESSION_NOT_FOUND')
  }
  assert.equal((await s.B.get('/me')).statusCode, 200, 'B’s session still works')
  assert.ok(
    json<Array<{ id: number }>>(await s.B.get('/me/sessions')).some((x) => x.id === s.bSession)
  )
})

test(
  'calendar: A’s create, replace and revoke never touch B’s token; B’s feed keeps working',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    const before = ownedRows(s.app, s.b.id).calendar
    assert.equal((await s.A.post('/me/calendar')).statusCode, 201)
    assert.equal((await s.A.post('/me/calendar')).statusCode, 200, 'A replaces only A’s own token')
    assert.equal(json<Ok<'/me/calendar', 'get'>>(await s.A.get('/me/calendar')).enabled, true)
    assert.equal((await s.A.delete('/me/calendar')).statusCode, 204)
    assert.equal(json<Ok<'/me/calendar', 'get'>>(await s.A.get('/me/calendar')).enabled, false)
    // The route takes no body: one with content is refused, never half-understood.
    const named = await s.A.post('/me/calendar', { userId: s.b.id })
    assert.equal(named.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(named).code, 'UNEXPECTED_BODY')
    assert.equal(json<Ok<'/me/calendar', 'get'>>(await s.A.get('/me/calendar')).enabled, false)
    assert.deepEqual(ownedRows(s.app, s.b.id).calendar, before)
    const res = await anonymous(s.app).get(s.feedPath)
    assert.equal(res.statusCode, 200)
    assert.match(res.headers['content-type'] as string, /text\/calendar/)
    assert.equal(json<Ok<'/me/calendar', 'get'>>(await s.B.get('/me/calendar')).enabled, true)
  }
)

test('song votes: PUT sets only the caller’s vote; a userId in the body is 400', async (t) => {
  const s = await band()
  t.after(() => s.ctx.close())
  const url = `/songs/${s.songId}/vote`
  assert.equal((await s.A.put(url, { vote: 'no', userId: s.b.id })).statusCode, 400)
  assert.equal(
    (await s.E.put(url, { vote: 'no', userId: s.b.id })).statusCode,
    400,
    'not even an editor'
  )
  assert.equal((await s.A.put(url, { vote: 'no' })).statusCode, 200)
  assert.equal((await s.A.delete(url)).statusCode, 204)
  assert.equal((await s.A.put(url, { vote: 'abstain' })).statusCode, 200)
  const votes = json<Ok<'/songs/{id}/votes', 'get'>>(await s.A.get(`/songs/${s.songId}/votes`))
  const byUser = Object.fromEntries(
    votes.votes.map((v: { userId: number; vote: string }) => [v.userId, v.vote])
  )
  assert.deepEqual(byUser, { [s.a.id]: 'abstain', [s.b.id]: 'yes' })
  assert.deepEqual(votes.counts, { yes: 1, no: 0, abstain: 1 })
})

test(
  'survey responses: PUT replaces only the caller’s answers; a userId anywhere in the body is 400',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    const url = `/surveys/${s.survey.id}/response`
    assert.equal(
      (await s.A.put(url, { userId: s.b.id, answers: [{ optionId: s.opt2, value: 'no' }] }))
        .statusCode,
      400
    )
    assert.equal(
      (await s.A.put(url, { answers: [{ optionId: s.opt2, value: 'no', userId: s.b.id }] }))
        .statusCode,
      400
    )
    assert.equal(
      (await s.E.put(url, { userId: s.b.id, answers: [{ optionId: s.opt1, value: 'no' }] }))
        .statusCode,
      400
    )
    const res = await s.A.put(url, { answers: [{ optionId: s.opt1, value: 'no' }] })
    assert.equal(res.statusCode, 200)
    const detail = json<Ok<'/surveys/{id}', 'get'>>(res)
    assert.deepEqual(detail.myResponse, [{ optionId: s.opt1, value: 'no', comment: null }])
    const first = detail.results.find((r: { optionId: number }) => r.optionId === s.opt1)
    const answers = Object.fromEntries(
      first!.answers.map((x: { userId: number; value: string }) => [x.userId, x.value])
    )
    assert.deepEqual(answers, { [s.a.id]: 'no', [s.b.id]: 'yes' }, 'B’s answer stands next to A’s')
    const asB = json<Ok<'/surveys/{id}', 'get'>>(await s.B.get(`/surveys/${s.survey.id}`))
    assert.deepEqual(asB.myResponse, [{ optionId: s.opt1, value: 'yes', comment: null }])
  }
)

test(
  'gig and rehearsal availability: PUT only the own answer; userId in the ' +
    'body is 400; everyone’s answers are visible',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    for (const [url, bStatus, bNote] of [
      [`/gigs/${s.gig.id}/availability`, 'yes', 'bert can'],
      [`/rehearsals/${s.rehearsal.id}/availability`, 'no', 'bert cannot']
    ] as const) {
      assert.equal((await s.A.put(url, { status: 'maybe', userId: s.b.id })).statusCode, 400, url)
      assert.equal((await s.E.put(url, { status: 'maybe', userId: s.b.id })).statusCode, 400, url)
      assert.equal(
        (await s.A.put(`${url}?userId=${s.b.id}`, { status: 'maybe' })).statusCode,
        200,
        url
      )
      // By contract the availability list is the band's shared planning view: members see every
      // answer.
      const list = json<Ok<'/gigs/{id}/availability', 'get'>>(await s.A.get(url))
      const byUser = new Map(list.answers.map((x) => [x.userId, x]))
      assert.equal((byUser.get(s.a.id) as { status: string }).status, 'maybe', url)
      const bAnswer = byUser.get(s.b.id) as { status: string; note: string | null }
      assert.equal(
        bAnswer.status,
        bStatus,
        `${url}: B’s answer is untouched (a userId in the query is ignored)`
      )
      assert.equal(bAnswer.note, bNote)
      assert.ok(!JSON.stringify(list).includes(B_EMAIL), 'the list carries no email')
    }
  }
)

test(
  'profile: PUT /update_user changes only the caller; id, role, username, ' +
    'status are 400; PATCH /users/{B} is admin-only',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    const before = ownedRows(s.app, s.b.id).user
    for (const extra of [
      { id: s.b.id },
      { userId: s.b.id },
      { role: 'admin' },
      { username: 'bert' },
      { status: 'inactive' }
    ]) {
      const res = await s.A.put('/update_user', { displayName: 'Taken Over', ...extra })
      assert.equal(res.statusCode, 400, JSON.stringify(extra))
    }
    const res = await s.A.put('/update_user', { displayName: 'Anna A' })
    assert.equal(res.statusCode, 200)
    assert.equal(json<Ok<'/update_user', 'put'>>(res).id, s.a.id)
    assert.equal(json<Ok<'/update_user', 'put'>>(res).role, 'member')
    for (const c of [s.A, s.E]) {
      const patch = await c.patch(`/users/${s.b.id}`, {
        displayName: 'Hijacked',
        email: 'evil@example.org'
      })
      assert.equal(patch.statusCode, 403)
      assert.equal((await c.delete(`/users/${s.b.id}`)).statusCode, 403)
    }
    assert.deepEqual(ownedRows(s.app, s.b.id).user, before)
  }
)

test(
  'email: members and editors see only their own email in the user list and detail',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    for (const [c, self, ownEmail] of [
      [s.A, s.a, 'anna@example.org'],
      [s.E, s.e, 'edda@example.org']
    ] as const) {
      const list = json<Array<{ id: number; email?: string | null }>>(await c.get('/users'))
      assert.equal(list.length, 3)
      for (const u of list) {
        if (u.id === self.id) assert.equal(u.email, ownEmail)
        else assert.ok(!('email' in u), `user ${u.id} shows no email to ${self.username}`)
      }
      const detail = await c.get(`/users/${s.b.id}`)
      assert.equal(detail.statusCode, 200)
      assert.ok(!('email' in json<Ok<'/users/{id}', 'get'>>(detail)))
      assert.ok(!detail.body.includes(B_EMAIL))
    }
    const admin = sessionClient(s.app, await createUser(s.app, 'root', 'admin'))
    assert.equal(
      json<Array<{ id: number; email?: string }>>(await admin.get('/users')).find(
        (u) => u.id === s.b.id
      )!.email,
      B_EMAIL
    )
  }
)

// The route table is walked, so a route added later is attacked too: every route a member or an
// editor may call, with every id slot filled with the ids of B's things (B's user id, session id
// and the records B answered), bodies naming B, and a `userId` query. Nothing B owns may change,
// and no response may carry B's email or anything of B's session.
test(
  'no route lets a member or an editor read B’s private data or change B’s own data',
  async (t) => {
    const s = await band()
    t.after(() => s.ctx.close())
    const before = ownedRows(s.app, s.b.id)
    const ids = [
      ...new Set([s.b.id, s.bSession, s.songId, s.gig.id, s.rehearsal.id, s.survey.id, s.opt1])
    ]
    const bodies = (method: string) =>
      method === 'GET' || method === 'DELETE'
        ? [undefined]
        : [
            {},
            { userId: s.b.id },
            { id: s.b.id },
            { user: s.b.id, userId: s.b.id, sessionId: s.bSession, status: 'yes', vote: 'no' }
          ]
    const routes = s.app.routeTable.filter(
      (r) => r.method !== 'HEAD' && r.access !== 'public' && r.access !== 'admin'
    )
    assert.ok(routes.length > 30)
    let requests = 0
    for (const [who, user] of [
      ['member', s.a],
      ['editor', s.e]
    ] as const) {
      for (const route of routes) {
        if (route.access === 'editor' && who === 'member') continue
        // The event stream never ends by itself, so inject() cannot wait for it; it only reads the
        // shared live view.
        if (route.url.endsWith('/events')) continue
        // An editor deleting a gig, rehearsal, song or survey deletes the answers to it by design.
        if (who === 'editor' && route.method === 'DELETE' && !route.url.startsWith('/me/')) continue
        const urls = route.url.includes(':id')
          ? ids.map((id) => route.url.replace(':id', String(id)))
          : [route.url]
        for (const url of urls) {
          for (const body of bodies(route.method)) {
            // A fresh session each time: logout or ending the own session must not blind the next
            // request.
            const c = sessionClient(s.app, user)
            const target = route.method === 'GET' ? `${url}?userId=${s.b.id}` : url
            const res = await c.request(route.method, target, body)
            requests++
            assert.ok(
              res.statusCode < 500,
              `${who} ${route.method} ${target}: ${res.statusCode} ${res.body.slice(0, 200)}`
            )
            assert.ok(
              !res.body.includes(B_EMAIL),
              `${who} ${route.method} ${target} leaks B’s email`
            )
            assert.ok(
              !res.body.includes(B_AGENT),
              `${who} ${route.method} ${target} leaks B’s session`
            )
          }
        }
      }
    }
    assert.ok(requests > 300)
    assert.deepEqual(ownedRows(s.app, s.b.id), before, 'nothing B owns changed')
    assert.equal((await s.B.get('/me')).statusCode, 200, 'B is still signed in')
    assert.equal(
      (await anonymous(s.app).get(s.feedPath)).statusCode,
      200,
      'B’s calendar feed still works'
    )
  }
)
