import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import {
  anonymous,
  createTestApp,
  json,
  userClient,
  type Client,
  type TestContext,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { calendarTokens, gigs, rehearsals, users } from '#src/db/schema.js'
import { buildApp } from '#src/app.js'
import { parseEvents } from '#test/ical-parse.js'
import { createGig } from '#test/gig-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

const stamp = '2026-05-01T10:00:00.000Z'
let t: TestContext
let member: Client
before(async () => {
  t = await createTestApp()
  member = await userClient(t.app, 'cal', 'member')
})
after(() => t.close())

const feedPath = (url: string) => new URL(url).pathname

test(
  'POST /me/calendar creates (201) then replaces (200) the token; the old URL stops working',
  async () => {
    assert.deepEqual(json<Ok<'/me/calendar', 'get'>>(
      await member.get('/me/calendar')), { enabled: false, createdAt: null })
    const created = await member.post('/me/calendar')
    assert.equal(created.statusCode, 201)
    const { url } = json<{ url: string }>(created)
    assert.match(url, /^http:\/\/localhost(:\d+)?\/cal\/ical\/[A-Za-z0-9_-]{43}$/)
    const token = url.split('/').pop()!
    // Stored only as a hash.
    const row = t.app.db
      .select()
      .from(calendarTokens)
      .where(eq(calendarTokens.userId, member.user.id))
      .get()!
    assert.notEqual(row.tokenHash, token)
    const status = json<Ok<'/me/calendar', 'get'>>(await member.get('/me/calendar'))
    assert.equal(status.enabled, true)
    assert.equal(status.createdAt, row.createdAt)
    const feed = await anonymous(t.app).get(feedPath(url))
    assert.equal(feed.statusCode, 200)
    assert.equal(feed.headers['content-type'], 'text/calendar; charset=utf-8')
    assert.equal(feed.headers['referrer-policy'], 'no-referrer')
    assert.match(String(feed.headers['cache-control']), /^private/)

    const replaced = await member.post('/me/calendar')
    assert.equal(replaced.statusCode, 200)
    assert.equal((await anonymous(t.app).get(feedPath(url))).statusCode, 404)
    assert.equal((await anonymous(t.app).get(feedPath(json<Ok<'/me/calendar', 'post'>>(
      replaced).url))).statusCode, 200)
  }
)

test(
  'DELETE /me/calendar revokes; unknown token and an inactive user give 404 ' +
    'JSON; 401 without session',
  async () => {
    const other = await userClient(t.app, 'leaver', 'member')
    const { url } = json<Ok<'/me/calendar', 'post'>>(await other.post('/me/calendar'))
    t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, other.user.id)).run()
    const inactive = await anonymous(t.app).get(feedPath(url))
    assert.equal(inactive.statusCode, 404)
    assert.equal(json<ErrorResponseBody>(inactive).code, 'CALENDAR_NOT_FOUND')
    assert.equal((await anonymous(t.app).get('/cal/ical/not-a-token')).statusCode, 404)

    const third = await userClient(t.app, 'revoker', 'member')
    const link = json<Ok<'/me/calendar', 'post'>>(await third.post('/me/calendar')).url
    assert.equal((await third.delete('/me/calendar')).statusCode, 204)
    assert.equal((await third.delete('/me/calendar')).statusCode, 204)
    assert.equal((await anonymous(t.app).get(feedPath(link))).statusCode, 404)
    assert.deepEqual(json<Ok<'/me/calendar', 'get'>>(
      await third.get('/me/calendar')), { enabled: false, createdAt: null })
    for (const method of ['GET', 'POST', 'DELETE']) {
      assert.equal((await anonymous(t.app).request(method, '/me/calendar')).statusCode, 401)
    }
  }
)

test(
  'feed: gigs and rehearsals, declined left out, cancelled marked; SEQUENCE ' +
    'and LAST-MODIFIED follow changes',
  async () => {
    const today = t.now().toISOString().slice(0, 10)
    const next = new Date(Date.parse(today) + 30 * 86_400_000).toISOString().slice(0, 10)
    const insert = (values: Partial<typeof gigs.$inferInsert>) =>
      t.app.db
        .insert(gigs)
        .values({
          name: 'G',
          date: next,
          status: 'confirmed',
          startTime: '20:00',
          createdAt: stamp,
          updatedAt: stamp,
          ...values
        })
        .returning()
        .get()
    const confirmed = insert({
      name: 'Feed-Konzert',
      venueName: 'Halle 7',
      venueCity: 'Köln',
      notes: 'Backline vor Ort'
    })
    const cancelled = insert({ name: 'Feed-Abgesagt', status: 'cancelled' })
    const declined = insert({ name: 'Feed-Abgelehnt', status: 'declined' })
    insert({ name: 'Feed-Alt', date: '2020-01-01' })
    const rehearsal = t.app.db
      .insert(rehearsals)
      .values({
        date: next,
        startTime: '19:00',
        endTime: '22:00',
        location: 'Proberaum',
        createdAt: stamp,
        updatedAt: stamp
      })
      .returning()
      .get()
    const url = json<Ok<'/me/calendar', 'post'>>(await member.post('/me/calendar')).url
    const read = async () => parseEvents((await anonymous(t.app).get(feedPath(url))).body).events
    const events = await read()
    const uids = events.map((e) => e.uid.split('@')[0])
    assert.ok(uids.includes(`gig-${confirmed.id}`))
    assert.ok(uids.includes(`gig-${cancelled.id}`))
    assert.ok(!uids.includes(`gig-${declined.id}`))
    assert.ok(uids.includes(`rehearsal-${rehearsal.id}`))
    assert.ok(!events.some((e) => e.summary === 'Feed-Alt'), 'more than a year old')
    const event = events.find((e) => e.uid.startsWith(`gig-${confirmed.id}@`))!
    assert.equal(event.location, 'Halle 7, Köln')
    assert.match(event.description, /Beginn 20:00[\s\S]*Backline vor Ort/)
    assert.equal(events.find((e) => e.summary === 'Feed-Abgesagt')!.status, 'CANCELLED')

    // A change bumps the sequence and the modification time (as the gig routes do).
    t.app.db
      .update(gigs)
      .set({ startTime: '21:00', sequence: 1, updatedAt: '2026-05-03T12:00:00.000Z' })
      .where(eq(gigs.id, confirmed.id))
      .run()
    const changed = (await read()).find((e) => e.uid === event.uid)!
    assert.equal(changed.sequence, event.sequence + 1)
    assert.notEqual(changed.lastModified, event.lastModified)
    assert.notEqual(changed.start, event.start)
  }
)

test('an end equal to the start: the same day in the API and the calendar, not 24 h', async () => {
  const editor = await userClient(t.app, 'cal-editor', 'editor')
  const create = async (name: string, startTime: string, endTime: string) =>
    json<Ok<'/gigs', 'post'>>(
      await editor.post('/gigs', { name, date: '2030-06-01', startTime, endTime }))
  const equal = await create('Gleich', '20:00', '20:00')
  const overnight = await create('Über Nacht', '22:00', '01:00')
  assert.equal(equal.endsNextDay, false)
  assert.equal(overnight.endsNextDay, true)
  const url = json<Ok<'/me/calendar', 'post'>>(await member.post('/me/calendar')).url
  const { events } = parseEvents((await anonymous(t.app).get(feedPath(url))).body)
  const hours = (summary: string) => {
    const event = events.find((e) => e.summary.startsWith(summary))!
    return (Date.parse(event.end) - Date.parse(event.start)) / 3_600_000
  }
  assert.equal(hours('Gleich'), 0)
  assert.equal(hours('Über Nacht'), 3)
  // The running order agrees: the end on the same day.
  const schedule = json<Ok<'/gigs/{id}/schedule', 'get'>>(
    await editor.get(`/gigs/${equal.id}/schedule`))
  const end = schedule.items.find((item: { kind: string }) => item.kind === 'end')
  assert.equal(end!.at, '2030-06-01T20:00')
})

test('calendar UIDs do not depend on the host the feed is fetched through', async () => {
  const editor = await userClient(t.app, 'cal-host', 'editor')
  await editor.post('/gigs', { name: 'Host-unabhängig', date: '2030-07-01', startTime: '20:00' })
  const url = json<Ok<'/me/calendar', 'post'>>(await member.post('/me/calendar')).url
  const uidsVia = async (host: string) =>
    parseEvents((await anonymous(t.app).get(feedPath(url), { host })).body).events
      .map((event) => event.uid)
      .sort()
  const lan = await uidsVia('192.168.1.10:3000')
  const domain = await uidsVia('band.example.org')
  assert.ok(lan.length > 0)
  assert.deepEqual(lan, domain, 'one member subscribed twice sees every event once')
  assert.match(lan[0]!, /^(gig|rehearsal)-\d+@[0-9a-f]{16}\.bandstand$/)
  // The id is the installation's: the same after a restart on the same data.
  const restarted = await buildApp({ config: t.config, createFirstAdmin: false, logger: false })
  try {
    const again = parseEvents((await anonymous(restarted).get(feedPath(url))).body).events
    assert.deepEqual(again.map((event) => event.uid).sort(), lan)
  } finally {
    await restarted.close()
  }
})

test(
  'feed in the band\'s configured language (no session): English for en-GB, German for de-DE',
  async (c) => {
    const ctx = await createTestApp()
    c.after(() => ctx.close())
    const admin = await userClient(ctx.app, 'lang-admin', 'admin')
    const editor = await userClient(ctx.app, 'lang-editor', 'editor')
    const reader = await userClient(ctx.app, 'lang-member', 'member')
    const gig = await createGig(editor, {
      name: 'Nord 7',
      date: '2027-01-15',
      status: 'inquiry',
      doorsTime: '19:00',
      endTime: '23:00'
    })
    ctx.app.db.insert(rehearsals).values({
      date: '2027-01-12',
      startTime: '19:00',
      endTime: '21:00',
      createdAt: stamp,
      updatedAt: stamp
    }).run()
    const url = json<Ok<'/me/calendar', 'post'>>(await reader.post('/me/calendar')).url
    const feedIn = async (locale: string, etag?: string) => {
      const saved = await admin.put('/admin/app_config', {
        ...DEFAULT_APP_CONFIG,
        bandName: 'Nordwind',
        locale
      })
      assert.equal(saved.statusCode, 200, saved.body)
      const res = await anonymous(ctx.app).get(feedPath(url), {
        ...(etag ? { 'if-none-match': etag } : {})
      })
      // The ETag of the other language's feed is not current any more.
      assert.equal(res.statusCode, 200)
      const { calendar, events } = parseEvents(res.body)
      const gigEvent = events.find((e) => e.uid.startsWith(`gig-${gig.id}@`))!
      const rehearsal = events.find((e) => e.uid.startsWith('rehearsal-'))!
      const shown = [gigEvent.summary, gigEvent.description, rehearsal.summary,
        rehearsal.description, calendar.getFirstPropertyValue('x-wr-calname')].join('\n')
      return { res, gigEvent, rehearsal, calendar, shown }
    }
    const english = await feedIn('en-GB')
    assert.equal(english.calendar.getFirstPropertyValue('x-wr-calname'), 'Nordwind – Schedule')
    assert.equal(english.gigEvent.summary, 'Nord 7 (Inquiry)')
    assert.equal(english.gigEvent.description,
      'Status: Inquiry\n\nDoors 19:00\nStart 20:00\nEnd 23:00')
    assert.equal(english.rehearsal.summary, 'Rehearsal')
    assert.equal(english.rehearsal.description, 'Rehearsal 19:00–21:00')
    assert.doesNotMatch(english.shown, FEED_GERMAN)

    assert.match(String(english.res.headers.etag), /^(W\/)?"/)
    const german = await feedIn('de-DE', String(english.res.headers.etag))
    assert.equal(german.calendar.getFirstPropertyValue('x-wr-calname'), 'Nordwind – Termine')
    assert.equal(german.gigEvent.summary, 'Nord 7 (Anfrage)')
    assert.equal(german.gigEvent.description,
      'Status: Anfrage\n\nEinlass 19:00\nBeginn 20:00\nEnde 23:00')
    assert.equal(german.rehearsal.summary, 'Probe')
    assert.equal(german.rehearsal.description, 'Probe 19:00–21:00')
    assert.doesNotMatch(german.shown, FEED_ENGLISH)
  }
)

/** The feed's own words in each language (the band's data in the test above is neither). */
const FEED_GERMAN = /Termine|Anfrage|Probe|Einlass|Beginn|\bEnde\b|Bestätigt|Abgesagt/
const FEED_ENGLISH = /Schedule|Inquiry|Rehearsal|Doors|\bStart\b|\bEnd\b|Confirmed|Cancelled/

test('the feed answers 403 while its member must change their password, again after', async () => {
  const held = await userClient(t.app, 'cal-held', 'member')
  const { url } = json<{ url: string }>(await held.post('/me/calendar'))
  assert.equal((await anonymous(t.app).get(feedPath(url))).statusCode, 200)
  t.app.db.update(users).set({ passwordChangeRequired: true })
    .where(eq(users.id, held.user.id)).run()
  const refused = await anonymous(t.app).get(feedPath(url))
  assert.equal(refused.statusCode, 403)
  assert.equal(json<ErrorResponseBody>(refused).code, 'PASSWORD_CHANGE_REQUIRED')
  t.app.db.update(users).set({ passwordChangeRequired: false })
    .where(eq(users.id, held.user.id)).run()
  assert.equal((await anonymous(t.app).get(feedPath(url))).statusCode, 200)
})
