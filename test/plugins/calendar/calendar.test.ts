import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { connect, type AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import {
  anonymous,
  createTestApp,
  createUser,
  json,
  sessionClient,
  userClient,
  type Client,
  type TestContext,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { calendarTokens, gigs, rehearsals, users } from '#src/db/schema.js'
import { buildApp } from '#src/app.js'
import { loadConfig } from '#src/config.js'
import { redactUrl } from '#src/http/log-redaction.js'
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

test('redactUrl: anything shaped like a token is cut, wherever it stands', () => {
  // 43 characters, as POST /me/calendar gives them.
  const t = 'q7Xb2mKp9LwZr4TfYc8NhV3sJd6GaE1oUi5RlBnMxkS'
  const hex = 'a3f09c1d5e7b28460d9e3c1f7a5b2e8d'
  for (const [url, logged] of [
    [`/cal/ical/${t}?x=1`, '/cal/ical/[redacted]?x=1'],
    [`/cal/./ical/${t}`, '/cal/./ical/[redacted]'],
    [`/cal/ics/${t}`, '/cal/ics/[redacted]'],
    [`/calendar/ical/${t}.ics`, '/calendar/ical/[redacted].ics'],
    [`/cal/ical?t=${t}&u=${hex}`, '/cal/ical?t=[redacted]&u=[redacted]'],
    [`/c%61l/ical/%${t.charCodeAt(0).toString(16)}${t.slice(1)}`, '/cal/ical/[redacted]'],
    [`/%2563al//ical/${encodeURIComponent(t)}`, '/cal//ical/[redacted]'],
    [`/gigs/1?q=${t.slice(0, 21)}`, `/gigs/1?q=${t.slice(0, 21)}`],
    ['/gigs/1?q=%41', '/gigs/1?q=%41'],
    ...['/docs/static/swagger-ui-standalone-preset.js', '/me/calendar'].map((u) => [u, u]),
  ]) {
    assert.equal(redactUrl(url!), logged, url)
  }
  // On the feed route the token is known: gone in any spelling, also where it is short.
  assert.equal(redactUrl('/cal/ical/abc123?x=1', 'abc123'), '/cal/ical/[redacted]?x=1')
  // A spelling that survives the known forms drops the whole query.
  assert.equal(redactUrl('/cal/ical/abc123?x=%61bc123', 'abc123'), '/cal/ical/[redacted][redacted]')
})

test(
  'the feed token never reaches the log: router-decoded spellings, extra ' +
    'slashes, 404s, errors and messages',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
    let log = ''
    const stream = new Writable({
      write (chunk, _enc, done) {
        log += chunk.toString()
        done()
      }
    })
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-42'
    })
    const app = await buildApp({
      config,
      createFirstAdmin: false,
      logger: { level: 'trace', stream }
    })
    try {
      await app.ready()
      const owner = await sessionClient(app, await createUser(app, 'logged'))
      const secret = new URL(json<{ url: string }>(await owner.post('/me/calendar')).url).pathname
        .split('/')
        .pop()!
      assert.ok(secret.length >= 22)
      log = ''
      const spelled = `%${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`
      const cases: Array<[string, number]> = [
        [`/cal/ical/${secret}`, 200],
        [`/%63al/ical/${secret}`, 200],
        [`/cal/%69cal/${secret}`, 200],
        [`/cal/ical/${spelled}`, 200],
        [`/cal/ical/${secret}?copy=${secret}&again=${encodeURIComponent(secret)}`, 200],
        [`/cal/ical/${secret}/`, 200],
        [`//cal/ical/${secret}`, 404],
        [`/cal/ical//${secret}`, 404],
        [`/%2563al/ical/${secret}`, 404],
        [`/CAL/ICAL/${secret}`, 404],
        [`/api/cal/ical/${secret}`, 404],
        [`/cal/ical/${secret}/extra`, 404],
        [`/cal/ical/${secret}%`, 400],
        [`/cal/./ical/${secret}`, 200], // inject resolves the dot segment as a browser would
        [`/cal/ics/${secret}`, 404],
        [`/calendar/ical/${secret}`, 404],
        [`/cal/ical?t=${secret}`, 404],
        [`/me/calendar?t=${secret}`, 401],
        [`/gigs?token=${encodeURIComponent(secret)}`, 401]
      ]
      for (const [url, status] of cases) {
        assert.equal((await app.inject({ method: 'GET', url })).statusCode, status, url)
      }
      assert.equal(
        (await app.inject({ method: 'HEAD', url: `/%63al/ical/${secret}` })).statusCode,
        200
      )
      // Error objects and plain messages quoting the URL (Fastify writes some of each).
      app.log.error(
        { err: new Error(`'/%63al/ical/${secret}' is not a valid url component`) },
        'bad url'
      )
      app.log.info(`Route GET://cal/ical/${secret} not found`)
      const lines = log.trim().split('\n')
      // One line per request (src/http/request-log.ts).
      assert.ok(lines.length >= cases.length, 'every request was logged')
      assert.ok(
        lines.filter((line) => line.includes('[redacted]')).length >= cases.length,
        'each feed request was logged, redacted'
      )
      for (const form of [secret, secret.slice(4), encodeURIComponent(secret)]) {
        assert.ok(
          !log.includes(form),
          `token absent from the log:\n${lines.filter((l) => l.includes(form)).join('\n')}`
        )
      }
      // The error keeps its shape: only the secret went.
      const errorLine = JSON.parse(lines.find((line) => line.includes('"bad url"'))!)
      assert.equal(errorLine.err.type, 'Error')
      assert.equal(errorLine.err.message, "'/cal/ical/[redacted]' is not a valid url component")
      assert.match(errorLine.err.stack, /calendar\.test\.ts/)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
)

test(
  'a malformed request to the feed (client error with the raw packet) keeps ' +
    'the token out of the log',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
    let log = ''
    const stream = new Writable({
      write (chunk, _enc, done) {
        log += chunk.toString()
        done()
      }
    })
    const config = loadConfig({
      DATA_DIR: dir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-42'
    })
    const app = await buildApp({
      config,
      createFirstAdmin: false,
      logger: { level: 'trace', stream }
    })
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      const secret = 'RawPacketSecretToken0123456789abcdefghijkl'
      const answer = await new Promise<string>((resolve, reject) => {
        let text = ''
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            `GET /%63al/ical/${secret} HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n`
          )
        )
        socket.on('data', (chunk) => (text += chunk.toString()))
        socket.on('end', () => resolve(text))
        socket.on('error', reject)
      })
      assert.match(answer, /^HTTP\/1\.1 400/)
      assert.match(log, /client error/)
      assert.ok(!log.includes(secret), 'token absent from the log')
      assert.match(log, /cal\/ical\/\[redacted\]/)
    } finally {
      await app.close()
      rmSync(dir, { recursive: true, force: true })
    }
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
