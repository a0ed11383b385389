import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import { gigAvailability, users } from '#src/db/schema.js'
import {
  inDays,
  mailingBand,
  settle,
  textOf,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** A band with one member mailed about a gig; answers the member's `yes` link (path and query). */
async function linkedBand (t: { after (fn: () => unknown): void }, locale = 'en-GB') {
  const band = await mailingBand(t, { members: 1, locale })
  const created = await band.boss.post('/gigs', {
    name: 'Harbour Fest', date: inDays(30), startTime: '20:00'
  })
  await settle(band.app)
  const mail = (await band.parsed()).find((m) => toOf(m)[0] === 'm1@example.org')!
  const url = new URL(/https:\/\/band\.example\.org\/answer\/\S+\?a=yes/.exec(textOf(mail))![0])
  const path = url.pathname
  // Read from the database: the editor's session does not outlive a clock jump.
  const mine = async () => band.app.db.select().from(gigAvailability)
    .where(eq(gigAvailability.userId, band.members[0]!.id)).get() ?? { status: null, note: null }
  return { ...band, gigId: created.json().id as number, path, query: url.search, mine }
}

test('the link shows a page and changes nothing; its form records the answer', async (t) => {
  const { app, path, query, mine } = await linkedBand(t)
  const page = await app.inject({ url: path + query })
  assert.equal(page.statusCode, 200)
  assert.equal(page.headers['referrer-policy'], 'no-referrer')
  assert.equal(page.headers['cache-control'], 'no-store')
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(page.body, /<html lang="en">/)
  assert.match(page.body, /Harbour Fest/)
  assert.match(page.body, /value="yes" required checked/)
  assert.match(page.body, /maxlength="200"/)
  // A scanner's GET (and a HEAD) changed nothing.
  await app.inject({ method: 'HEAD', url: path + query })
  assert.equal((await mine()).status, null)

  const saved = await app.inject({
    method: 'POST', url: path, headers: FORM, payload: 'answer=maybe&comment=if+the+train+runs'
  })
  assert.equal(saved.statusCode, 200, saved.body)
  assert.match(saved.body, /Saved: Maybe/)
  assert.deepEqual(
    { status: (await mine()).status, note: (await mine()).note },
    { status: 'maybe', note: 'if the train runs' })
  // Used again: the member changes their mind.
  await app.inject({ method: 'POST', url: path, headers: FORM, payload: 'answer=no' })
  assert.equal((await mine()).status, 'no')
  const again = await app.inject({ url: path })
  assert.match(again.body, /value="no" required checked/)
})

test('forged, altered and malformed links answer a clear 404 page', async (t) => {
  const { app, path, mine } = await linkedBand(t)
  const altered = path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A')
  for (const url of [altered, '/answer/forged-token']) {
    const page = await app.inject({ url })
    assert.equal(page.statusCode, 404)
    assert.match(page.body, /This link is not valid/)
    const post = await app.inject({ method: 'POST', url, headers: FORM, payload: 'answer=yes' })
    assert.equal(post.statusCode, 404)
  }
  const tooLong = await app.inject({
    method: 'POST', url: `/answer/${'x'.repeat(101)}`, headers: FORM, payload: 'answer=yes'
  })
  assert.ok(tooLong.statusCode >= 400 && tooLong.statusCode < 500)
  assert.equal((await mine()).status, null)
})

test('a bad form answers 400 with the page and stores nothing', async (t) => {
  const { app, path, mine } = await linkedBand(t)
  for (const payload of ['answer=perhaps', `answer=yes&comment=${'x'.repeat(201)}`, 'comment=hi']) {
    const page = await app.inject({ method: 'POST', url: path, headers: FORM, payload })
    assert.equal(page.statusCode, 400, payload)
    assert.match(page.body, /Please choose Yes, Maybe or No/)
  }
  assert.equal((await mine()).status, null)
})

test('after the start, for a cancelled gig or a deactivated member the link is dead (410)',
  async (t) => {
    const { app, ctx, path, boss, gigId, members, mine } = await linkedBand(t)
    await boss.patch(`/gigs/${gigId}`, { status: 'cancelled' })
    const post = () =>
      app.inject({ method: 'POST', url: path, headers: FORM, payload: 'answer=yes' })
    const cancelled = await post()
    assert.equal(cancelled.statusCode, 410)
    assert.match(cancelled.body, /Answers for this event are closed/)
    await boss.patch(`/gigs/${gigId}`, { status: 'confirmed' })
    assert.equal((await app.inject({ url: path })).statusCode, 200)
    ctx.advance(31 * 86_400_000)
    assert.equal((await post()).statusCode, 410, 'the gig has started')
    ctx.advance(-31 * 86_400_000)
    app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, members[0]!.id)).run()
    assert.equal((await app.inject({ url: path })).statusCode, 410)
    // Dead for good once tidied away, even when the member comes back.
    app.memberMail.tidy()
    app.db.update(users).set({ status: 'active' }).where(eq(users.id, members[0]!.id)).run()
    assert.equal((await app.inject({ url: path })).statusCode, 404)
    assert.equal((await mine()).status, null)
  })

test('a German band gets the German page; the links are rate-limited', async (t) => {
  const { app, path } = await linkedBand(t, 'de-DE')
  const page = await app.inject({ url: path })
  assert.match(page.body, /<html lang="de">/)
  assert.match(page.body, /Kannst du\?/)
  let last = 0
  for (let i = 0; i < 31; i++) last = (await app.inject({ url: path })).statusCode
  assert.equal(last, 429)
})
