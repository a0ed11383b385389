import { test } from 'node:test'
import assert from 'node:assert/strict'
import ICAL from 'ical.js'
import { createTestApp, createUser, userClient } from '#test/helpers.js'
import {
  inDays,
  mailingBand,
  settle,
  textOf,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

test('a new gig mails each active musician with an address, with links and the .ics', async (t) => {
  const { app, boss, parsed, members } = await mailingBand(t, { members: 2 })
  await createUser(app, 'noaddress', 'member')
  await createUser(app, 'gone', 'member', { email: 'gone@example.org', status: 'inactive' })
  const date = inDays(30)
  const created = await boss.post('/gigs', {
    name: 'Harbour Fest',
    date,
    startTime: '20:00',
    endTime: '23:00',
    venue: { name: 'Pier 7', city: 'Kiel' },
    notes: 'Bring the <small> amp',
    status: 'confirmed'
  })
  assert.equal(created.statusCode, 201, created.body)
  const gigId = created.json().id as number
  await settle(app)
  const mails = await parsed()
  assert.deepEqual(mails.map(toOf).flat().sort(), ['m1@example.org', 'm2@example.org'])
  const mail = mails.find((m) => toOf(m)[0] === members[0]!.username + '@example.org')!
  assert.match(mail.subject ?? '', /^New: Harbour Fest, \w{3} \d+ \w{3} \d{4}$/)
  const text = textOf(mail)
  assert.match(text, /^Hello M1,/)
  assert.match(text, /Time: 20:00–23:00/)
  assert.match(text, /Place: Pier 7, Kiel/)
  assert.match(text, /Notes: Bring the <small> amp/)
  assert.match(text, new RegExp(`https://band.example.org/app/gigs/${gigId}`))
  const answerLink = /https:\/\/band\.example\.org\/answer\/([\w-]{43})\?a=(yes|maybe|no)/g
  const answers = [...text.matchAll(answerLink)]
  assert.deepEqual(answers.map((a) => a[2]), ['yes', 'maybe', 'no'])
  assert.ok(mail.html, 'an HTML part')
  assert.match(String(mail.html), /Bring the &#60;small&#62; amp/)
  assert.match(String(mail.html), /<html lang="en">/)
  const ics = mail.attachments.find((a) => a.contentType === 'text/calendar')!
  assert.equal(ics.filename, 'event.ics')
  const event = new ICAL.Component(ICAL.parse(ics.content.toString('utf8')))
    .getFirstSubcomponent('vevent')!
  const uid = String(event.getFirstPropertyValue('uid'))
  assert.match(uid, new RegExp(`^gig-${gigId}@[0-9a-f]{16}\\.bandstand$`))
  assert.equal(event.getFirstPropertyValue('summary'), 'Harbour Fest')
  // The same UID as the member's calendar feed.
  const feed = await boss.post('/me/calendar')
  const feedText = (await app.inject({ url: new URL(feed.json().url).pathname })).body
  assert.ok(feedText.includes(`UID:${uid}`))
  assert.match(mail.messageId ?? '', /^<[0-9a-f]{32}@[0-9a-f]{16}\.bandstand>$/)
})

test('a change of time or place, a confirmation and a cancellation mail; notes alone do not',
  async (t) => {
    const { app, boss, parsed, sink } = await mailingBand(t, { members: 1 })
    const gig = (await boss.post('/gigs', { name: 'Barn Dance', date: inDays(40) })).json()
    await settle(app)
    assert.equal(sink.messages.length, 1)
    await boss.patch(`/gigs/${gig.id}`, { notes: 'parking behind the barn' })
    await settle(app)
    assert.equal(sink.messages.length, 1, 'notes are no reason to mail')
    await boss.patch(`/gigs/${gig.id}`, { startTime: '19:30' })
    await settle(app)
    await boss.patch(`/gigs/${gig.id}`, { status: 'confirmed' })
    await settle(app)
    await boss.patch(`/gigs/${gig.id}`, { status: 'cancelled' })
    await settle(app)
    const subjects = (await parsed()).map((m) => m.subject?.split(':')[0])
    assert.deepEqual(subjects, ['New', 'Changed', 'Confirmed', 'Cancelled'])
    const cancelled = (await parsed())[3]!
    assert.doesNotMatch(textOf(cancelled), /\/answer\//, 'no answers for a cancelled gig')
    const ics = cancelled.attachments[0]!.content.toString('utf8')
    assert.match(ics, /STATUS:CANCELLED/)
  })

test('a rehearsal and a survey mail the band in German', async (t) => {
  const { app, boss, parsed } = await mailingBand(t, { members: 1, locale: 'de-DE' })
  const rehearsal = await boss.post('/rehearsals', {
    date: inDays(10), startTime: '19:00', location: 'Proberaum'
  })
  assert.equal(rehearsal.statusCode, 201, rehearsal.body)
  const survey = await boss.post('/surveys', {
    title: 'Sommerfest?', kind: 'poll', options: [{ label: 'Ja' }, { label: 'Nein' }]
  })
  assert.equal(survey.statusCode, 201, survey.body)
  await settle(app)
  const mails = await parsed()
  const byTo = mails.filter((m) => toOf(m)[0] === 'm1@example.org')
  const subjects = byTo.map((m) => m.subject).sort()
  assert.equal(subjects.length, 2)
  assert.match(subjects[0]!, /^Neu: Probe, \w\w, \d\d\.\d\d\.\d{4}$/)
  assert.equal(subjects[1], 'Neue Umfrage: Sommerfest?')
  const text = textOf(byTo.find((m) => m.subject!.startsWith('Neu:'))!)
  assert.match(text, /^Hallo M1,/)
  assert.match(text, /Ort: Proberaum/)
  assert.match(text, /Kannst du\? Ein Klick genügt:\nJa: https:/)
})

test('20 members × 3 events go out over one SMTP connection', async (t) => {
  const { app, boss, sink } = await mailingBand(t, { members: 20 })
  for (const name of ['One', 'Two', 'Three']) {
    await boss.post('/gigs', { name, date: inDays(20) })
  }
  await settle(app)
  assert.equal(sink.messages.length, 60)
  assert.equal(sink.stats.connections, 1)
})

test('events that existed before, old ones and past ones are not mailed as new', async (t) => {
  const { app, boss, sink, ctx } = await mailingBand(t, { members: 1 })
  await boss.post('/gigs', { name: 'Yesterday', date: inDays(-1) })
  await boss.post('/gigs', { name: 'Declined', date: inDays(9), status: 'declined' })
  await settle(app)
  assert.equal(sink.messages.length, 0)
  // Made more than a day ago (an import): known, not new.
  ctx.advance(0)
  assert.equal(app.memberMail.scan(), 0)
})

test('without SMTP_URL nothing is queued and the outbox says mail is off', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const boss = await userClient(ctx.app, 'boss', 'admin')
  await createUser(ctx.app, 'm1', 'member', { email: 'm1@example.org' })
  await boss.post('/gigs', { name: 'Quiet', date: inDays(5) })
  assert.equal(ctx.app.memberMail.scan(), 0)
  const list = await boss.get('/mail/outbox')
  assert.equal(list.statusCode, 200)
  assert.deepEqual(list.json(), { enabled: false, mails: [] })
})

test('a rehearsal link answers the rehearsal; a non-musician gets survey mail only', async (t) => {
  const { app, boss, parsed } = await mailingBand(t, { members: 1 })
  await createUser(app, 'manager', 'member', { email: 'mgr@example.org', isMusician: false })
  const rehearsal = (await boss.post('/rehearsals', { date: inDays(6), startTime: '19:00' })).json()
  await boss.post('/surveys', {
    title: 'Poster?', kind: 'poll', options: [{ label: 'A' }, { label: 'B' }]
  })
  await settle(app)
  const mails = await parsed()
  assert.deepEqual(mails.filter((m) => toOf(m)[0] === 'mgr@example.org').map((m) => m.subject),
    ['New survey: Poster?'])
  const mail = mails.find((m) => toOf(m)[0] === 'm1@example.org' && /Rehearsal/.test(m.subject!))!
  const link = new URL(/https:\/\/band\.example\.org\/answer\/\S+\?a=no/.exec(textOf(mail))![0])
  const page = await app.inject({ url: link.pathname + link.search })
  assert.match(page.body, /href="\/app\/rehearsals\//)
  const post = await app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'answer=no'
  })
  assert.equal(post.statusCode, 200)
  const answers = (await boss.get(`/rehearsals/${rehearsal.id}/availability`)).json().answers
  assert.equal(answers.find((a: { displayName: string }) => a.displayName === 'M1').status, 'no')
  // A rehearsal's planned reminder (3 days before, on the day) goes to those who did not answer.
  const deadline = (await boss.get(`/rehearsals/${rehearsal.id}/answer-deadline`)).json()
  assert.equal(deadline.answerBy, inDays(3))
  assert.deepEqual((await boss.post(`/rehearsals/${rehearsal.id}/reminders`)).json(), { mailed: 0 })
})
