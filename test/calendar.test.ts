import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { anonymous, createTestApp, json, userClient, type Client, type TestContext } from './helpers.js'
import { calendarTokens, gigs, rehearsals, users } from '../src/db/schema.js'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { redactUrl } from '../src/log-redaction.js'
import { parseEvents } from './ical-parse.js'

const stamp = '2026-05-01T10:00:00.000Z'
let t: TestContext
let member: Client
before(async () => {
  t = await createTestApp()
  member = await userClient(t.app, 'cal', 'member')
})
after(() => t.close())

const feedPath = (url: string) => new URL(url).pathname

test('POST /me/calendar creates (201) then replaces (200) the token; the old URL stops working', async () => {
  assert.deepEqual(json(await member.get('/me/calendar')), { enabled: false, createdAt: null })
  const created = await member.post('/me/calendar')
  assert.equal(created.statusCode, 201)
  const { url } = json<{ url: string }>(created)
  assert.match(url, /^http:\/\/localhost(:\d+)?\/cal\/ical\/[A-Za-z0-9_-]{43}$/)
  const token = url.split('/').pop()!
  // Stored only as a hash.
  const row = t.app.db.select().from(calendarTokens).where(eq(calendarTokens.userId, member.user.id)).get()!
  assert.notEqual(row.tokenHash, token)
  const status = json(await member.get('/me/calendar'))
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
  assert.equal((await anonymous(t.app).get(feedPath(json(replaced).url))).statusCode, 200)
})

test('DELETE /me/calendar revokes; unknown token and an inactive user give 404 JSON; 401 without session', async () => {
  const other = await userClient(t.app, 'leaver', 'member')
  const { url } = json(await other.post('/me/calendar'))
  t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, other.user.id)).run()
  const inactive = await anonymous(t.app).get(feedPath(url))
  assert.equal(inactive.statusCode, 404)
  assert.equal(json(inactive).code, 'CALENDAR_NOT_FOUND')
  assert.equal((await anonymous(t.app).get('/cal/ical/not-a-token')).statusCode, 404)

  const third = await userClient(t.app, 'revoker', 'member')
  const link = json(await third.post('/me/calendar')).url
  assert.equal((await third.delete('/me/calendar')).statusCode, 204)
  assert.equal((await third.delete('/me/calendar')).statusCode, 204)
  assert.equal((await anonymous(t.app).get(feedPath(link))).statusCode, 404)
  assert.deepEqual(json(await third.get('/me/calendar')), { enabled: false, createdAt: null })
  for (const method of ['GET', 'POST', 'DELETE']) assert.equal((await anonymous(t.app).request(method, '/me/calendar')).statusCode, 401)
})

test('feed: gigs and rehearsals, declined left out, cancelled marked; SEQUENCE and LAST-MODIFIED follow changes', async () => {
  const today = t.now().toISOString().slice(0, 10)
  const next = new Date(Date.parse(today) + 30 * 86_400_000).toISOString().slice(0, 10)
  const insert = (values: Partial<typeof gigs.$inferInsert>) =>
    t.app.db.insert(gigs).values({ name: 'G', date: next, status: 'confirmed', startTime: '20:00', createdAt: stamp, updatedAt: stamp, ...values }).returning().get()
  const confirmed = insert({ name: 'Feed-Konzert', venueName: 'Halle 7', venueCity: 'Köln', notes: 'Backline vor Ort' })
  const cancelled = insert({ name: 'Feed-Abgesagt', status: 'cancelled' })
  const declined = insert({ name: 'Feed-Abgelehnt', status: 'declined' })
  insert({ name: 'Feed-Alt', date: '2020-01-01' })
  const rehearsal = t.app.db.insert(rehearsals).values({ date: next, startTime: '19:00', endTime: '22:00', location: 'Proberaum', createdAt: stamp, updatedAt: stamp }).returning().get()
  const url = json((await member.post('/me/calendar'))).url
  const read = async () => parseEvents((await anonymous(t.app).get(feedPath(url))).body).events
  const events = await read()
  const uids = events.map((e) => e.uid.split('@')[0])
  assert.ok(uids.includes(`gig-${confirmed.id}`))
  assert.ok(uids.includes(`gig-${cancelled.id}`))
  assert.ok(!uids.includes(`gig-${declined.id}`))
  assert.ok(uids.includes(`rehearsal-${rehearsal.id}`))
  assert.ok(!events.some((e) => e.summary === 'Feed-Alt'), 'more than a year old')
  const event = events.find((e) => e.uid === `gig-${confirmed.id}@localhost`)!
  assert.equal(event.location, 'Halle 7, Köln')
  assert.match(event.description, /Beginn 20:00[\s\S]*Backline vor Ort/)
  assert.equal(events.find((e) => e.summary === 'Feed-Abgesagt')!.status, 'CANCELLED')

  // A change bumps the sequence and the modification time (as the gig routes do).
  t.app.db.update(gigs).set({ startTime: '21:00', sequence: 1, updatedAt: '2026-05-03T12:00:00.000Z' }).where(eq(gigs.id, confirmed.id)).run()
  const changed = (await read()).find((e) => e.uid === event.uid)!
  assert.equal(changed.sequence, event.sequence + 1)
  assert.notEqual(changed.lastModified, event.lastModified)
  assert.notEqual(changed.start, event.start)
})

test('the feed token never reaches the request log', async () => {
  assert.equal(redactUrl('/cal/ical/abc123?x=1'), '/cal/ical/[redacted]?x=1')
  assert.equal(redactUrl('/gigs/1'), '/gigs/1')
  const dir = mkdtempSync(join(tmpdir(), 'bandstand-log-'))
  let log = ''
  const stream = new Writable({ write(chunk, _enc, done) { log += chunk.toString(); done() } })
  const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'test-secret-test-secret-test-secret-42' })
  const app = await buildApp({ config, createFirstAdmin: false, logger: { level: 'trace', stream } })
  try {
    await app.ready()
    const secret = 'SeCrEtToKeN0123456789abcdefghijklmnopqrstuv'
    assert.equal((await app.inject({ method: 'GET', url: `/cal/ical/${secret}` })).statusCode, 404)
    assert.equal((await app.inject({ method: 'GET', url: `/cal/ical/${secret}/` })).statusCode, 404)
    assert.match(log, /\/cal\/ical\/\[redacted\]/)
    assert.ok(!log.includes(secret), 'token absent from the log')
  } finally {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
