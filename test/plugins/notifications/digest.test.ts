import { test } from 'node:test'
import assert from 'node:assert/strict'
import { digestJobs } from '#src/db/schema.js'
import { createUser, sessionClient } from '#test/helpers.js'
import { buildApp } from '#src/app.js'
import { utcToZoned } from '#shared/local-time.js'
import { nextDigestAt } from '#plugins/notifications/digest.js'
import { DIGEST_LINES } from '#plugins/notifications/digest-mail.js'
import { loadPrefs } from '#plugins/notifications/prefs.js'
import {
  inDays,
  mailingBand,
  settle,
  textOf,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

const PREFS = { mail: true, newEvents: true, changes: true, reminders: true, surveys: true }
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

test('the weekly digest: opt-in, Monday morning, what is coming and what is owed', async (t) => {
  const { app, ctx, boss, members, sink, parsed } = await mailingBand(t, { members: 3 })
  const [m1, m2] = members.map((m) => sessionClient(app, m))
  const sub = await createUser(app, 'sam', 'member', { email: 'sam@example.org', occasional: true })
  assert.equal((await m1!.get('/me/notifications')).json().digest, false, 'opt-in')
  const on = await m1!.put('/me/notifications', { ...PREFS, digest: true })
  assert.equal(on.statusCode, 200, on.body)
  assert.equal(on.json().digest, true)
  // A form that does not know the digest keeps it.
  assert.equal((await m1!.put('/me/notifications', PREFS)).json().digest, true)
  await m2!.put('/me/notifications', { ...PREFS, mail: false, digest: true })
  await sessionClient(app, sub).put('/me/notifications', { ...PREFS, digest: true })
  assert.equal((await m1!.put('/me/notifications', { ...PREFS, digest: 'yes' })).statusCode, 400)

  const soon = (await boss.post('/gigs', { name: 'Soon', date: inDays(9), startTime: '20:00' }))
    .json()
  const later = (await boss.post('/gigs', { name: 'Later', date: inDays(40) })).json()
  await boss.post('/rehearsals', { date: inDays(8), startTime: '19:00' })
  await boss.post('/surveys', {
    title: 'Shirts?',
    kind: 'poll',
    options: [{ label: 'A' }, { label: 'B' }]
  })
  await m1!.put(`/gigs/${soon.id}/availability`, { status: 'yes' })
  await boss.post(`/gigs/${soon.id}/asked`, { userId: sub.id })
  await settle(app)
  const before = sink.messages.length

  const tz = app.appSettings.get().timezone
  const [job] = app.db.select().from(digestJobs).all()
  assert.ok(job, 'the next digest is planned')
  const local = utcToZoned(new Date(job.dueAt), tz)
  assert.equal(new Date(`${local.slice(0, 10)}T00:00Z`).getUTCDay(), 1, 'on a Monday')
  assert.equal(local.slice(11, 16), '08:00')
  assert.equal(job.dueAt, nextDigestAt(ctx.now(), tz).toISOString())

  ctx.advance(Date.parse(job.dueAt) - ctx.now().getTime() + 60_000)
  app.memberMail.scan()
  await settle(app)
  const digests = (await parsed()).slice(before)
  assert.deepEqual(digests.map((m) => toOf(m)[0]).sort(), ['m1@example.org', 'sam@example.org'],
    'only who asked for it, with mail on')
  const mine = digests.find((m) => toOf(m)[0] === 'm1@example.org')!
  assert.equal(mine.subject, 'Weekly digest: Lanterns')
  const text = textOf(mine)
  assert.match(text, /The next two weeks/)
  assert.match(text, /20:00 · Gig: Soon \(Yes\)/)
  assert.match(text, /19:00 · Rehearsal \(not answered yet\)/)
  assert.doesNotMatch(text.split('Still waiting')[0]!, /Later/, 'beyond two weeks')
  const owed = text.split('Still waiting for your answer')[1]!
  assert.match(owed, new RegExp(`Gig: Later: https://band.example.org/app/gigs/${later.id}`))
  assert.match(owed, /Survey: Shirts\?: https:/)
  assert.doesNotMatch(owed, /Soon/)
  const subText = textOf(digests.find((m) => toOf(m)[0] === 'sam@example.org')!)
  assert.match(subText, /Gig: Soon \(not answered yet\)/)
  assert.doesNotMatch(subText, /Rehearsal|Later|Shirts/, 'a sub: only the gigs asked for')

  // Once a week: a second look sends nothing, and the next Monday is planned.
  app.memberMail.scan()
  await settle(app)
  assert.equal(sink.messages.length, before + 2)
  const jobs = app.db.select().from(digestJobs).all()
  assert.equal(jobs.length, 2)
  assert.equal(Date.parse(jobs[1]!.dueAt) - Date.parse(jobs[0]!.dueAt), 7 * 86_400_000)

  // List-Unsubscribe turns the digest off.
  const raw = sink.messages.slice(before).find((m) => m.includes('To: m1@example.org'))!
  const head = raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ')
  assert.match(head, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
  const path = new URL(/^List-Unsubscribe: +<(https:[^>]+)>$/m.exec(head)![1]!).pathname
  const page = await app.inject({ method: 'GET', url: path })
  assert.match(page.body, /No more mails about the weekly digest\?/)
  const done = await app.inject({
    method: 'POST',
    url: path,
    headers: FORM,
    payload: 'List-Unsubscribe=One-Click'
  })
  assert.equal(done.statusCode, 200)
  assert.equal(loadPrefs(app.db, members[0]!.id).digest, false)

  // The server is off for the whole of the next Monday: that digest is skipped, not sent late.
  await app.close()
  ctx.advance(Date.parse(jobs[1]!.dueAt) - ctx.now().getTime() + 30 * 3600_000)
  const restarted = await buildApp({
    config: ctx.config, createFirstAdmin: false, clock: ctx.now, logger: false
  })
  t.after(() => restarted.close())
  await restarted.ready()
  await restarted.memberMail.worker!.idle()
  assert.equal(sink.messages.length, before + 2)
  const after = restarted.db.select().from(digestJobs).all()
  assert.deepEqual(after.map((j) => j.doneAt !== null), [true, true, false])
  await restarted.close()
})

test('the digest in German; a digest with nothing in it is not sent', async (t) => {
  const { app, ctx, boss, members, sink, parsed } = await mailingBand(t,
    { members: 2, locale: 'de-DE' })
  const [m1, m2] = members.map((m) => sessionClient(app, m))
  await m1!.put('/me/notifications', { ...PREFS, digest: true })
  await m2!.put('/me/notifications', { ...PREFS, digest: true })
  const gig = (await boss.post('/gigs', { name: 'Stadtfest', date: inDays(10) })).json()
  // m2 plays no role: not a musician, and there is no open survey.
  app.sqlite.prepare('UPDATE users SET is_musician = 0 WHERE id = ?').run(members[1]!.id)
  await m1!.put(`/gigs/${gig.id}/availability`, { status: 'maybe' })
  await boss.patch(`/gigs/${gig.id}`, { date: inDays(30) })
  const autumn = (await boss.post('/gigs', { name: 'Herbstfest', date: inDays(20) })).json()
  // Answers closed: owed no more.
  const locked = (await boss.post('/gigs', { name: 'Zu', date: inDays(25) })).json()
  await boss.put(`/gigs/${locked.id}/answer-deadline`, { answerBy: null, locked: true })
  await settle(app)
  const before = sink.messages.length
  const [job] = app.db.select().from(digestJobs).all()
  ctx.advance(Date.parse(job!.dueAt) - ctx.now().getTime() + 60_000)
  app.memberMail.scan()
  await settle(app)
  const digests = (await parsed()).slice(before)
  assert.deepEqual(digests.map((m) => toOf(m)[0]), ['m1@example.org'])
  const text = textOf(digests[0]!)
  assert.equal(digests[0]!.subject, 'Wochenüberblick: Lanterns')
  assert.match(text, /In den nächsten zwei Wochen steht nichts an\./)
  const owed = text.split('Deine Antwort fehlt noch')[1]!
  assert.match(owed, new RegExp(`Auftritt: Herbstfest: https://band.example.org/app/gigs/${autumn.id}`))
  assert.doesNotMatch(owed, /Stadtfest/, 'answered')
  assert.doesNotMatch(owed, /Auftritt: Zu/, 'answers closed')
})

test('a long digest names the first lines and counts the rest', async (t) => {
  const { app, ctx, members, sink, parsed } = await mailingBand(t, { members: 1 })
  await sessionClient(app, members[0]!).put('/me/notifications', { ...PREFS, digest: true })
  const insert = app.sqlite.prepare(`INSERT INTO gigs (name, date, status, created_at, updated_at)
    VALUES (?, ?, 'confirmed', '2026-01-01', '2026-01-01')`)
  for (let i = 0; i < DIGEST_LINES + 2; i++) insert.run(`Gig ${i}`, inDays(9))
  app.memberMail.scan()
  await settle(app)
  const before = sink.messages.length
  const [job] = app.db.select().from(digestJobs).all()
  ctx.advance(Date.parse(job!.dueAt) - ctx.now().getTime() + 60_000)
  app.memberMail.scan()
  await settle(app)
  const text = textOf((await parsed())[before]!)
  assert.match(text, /… and 2 more in Bandstand\n\nStill waiting/)
  assert.match(text, /… and 2 more in Bandstand\n\nOpen in Bandstand/)
})

test('a digest of a rehearsal answered already: what is coming, nothing owed', async (t) => {
  const { app, ctx, boss, members, sink, parsed } = await mailingBand(t, { members: 1 })
  const m1 = sessionClient(app, members[0]!)
  await m1.put('/me/notifications', { ...PREFS, digest: true })
  const rehearsal = (await boss.post('/rehearsals', { date: inDays(9), startTime: '19:00' }))
    .json()
  await m1.put(`/rehearsals/${rehearsal.id}/availability`, { status: 'no' })
  await settle(app)
  const before = sink.messages.length
  const [job] = app.db.select().from(digestJobs).all()
  ctx.advance(Date.parse(job!.dueAt) - ctx.now().getTime() + 60_000)
  app.memberMail.scan()
  await settle(app)
  const text = textOf((await parsed())[before]!)
  assert.match(text, /19:00 · Rehearsal \(No\)/)
  assert.doesNotMatch(text, /Still waiting/)
})
