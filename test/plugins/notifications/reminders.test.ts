import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mailJobs } from '#src/db/schema.js'
import { createTestApp, userClient } from '#test/helpers.js'
import { buildApp } from '#src/app.js'
import { zonedToUtc } from '#shared/local-time.js'
import {
  inDays,
  mailingBand,
  settle,
  toOf
} from '#test/plugins/notifications/member-mail-fixtures.js'

test('remind now mails only who has not answered, once a day', async (t) => {
  const { app, boss, sink, members } = await mailingBand(t, { members: 3 })
  const gig = (await boss.post('/gigs', { name: 'Fair', date: inDays(30) })).json()
  await settle(app)
  const sent = sink.messages.length
  // m1 has answered.
  app.sqlite.prepare(
    "INSERT INTO gig_availability (gig_id, user_id, status, updated_at) VALUES (?, ?, 'yes', ?)"
  ).run(gig.id, members[0]!.id, new Date().toISOString())
  const reminded = await boss.post(`/gigs/${gig.id}/reminders`)
  assert.equal(reminded.statusCode, 200, reminded.body)
  assert.deepEqual(reminded.json(), { mailed: 2 })
  await settle(app)
  const reminders = (await Promise.all(sink.messages.slice(sent).map(async (raw) =>
    (await import('mailparser')).simpleParser(raw))))
  assert.deepEqual(reminders.map((m) => toOf(m)[0]).sort(), ['m2@example.org', 'm3@example.org'])
  assert.match(reminders[0]!.subject ?? '', /^Please answer: Fair, /)
  assert.match(reminders[0]!.text ?? '', /Answer by: /)
  // Again the same day: nobody is mailed twice.
  assert.deepEqual((await boss.post(`/gigs/${gig.id}/reminders`)).json(), { mailed: 0 })
  assert.equal((await boss.post('/gigs/999/reminders')).statusCode, 404)
  const member = await userClient(app, 'plain', 'member')
  assert.equal((await member.post(`/gigs/${gig.id}/reminders`)).statusCode, 403)
  assert.equal((await app.inject({ method: 'POST', url: `/gigs/${gig.id}/reminders` })).statusCode,
    401)
})

test('rehearsal and survey reminders; mail off answers 409', async (t) => {
  const { app, boss } = await mailingBand(t, { members: 2 })
  const rehearsal = (await boss.post('/rehearsals', { date: inDays(9), startTime: '19:00' })).json()
  const survey = (await boss.post('/surveys', {
    title: 'Set list?', kind: 'poll', options: [{ label: 'A' }, { label: 'B' }]
  })).json()
  await settle(app)
  assert.deepEqual((await boss.post(`/rehearsals/${rehearsal.id}/reminders`)).json(), { mailed: 2 })
  // Every active member with an address (the admin has none).
  assert.deepEqual((await boss.post(`/surveys/${survey.id}/reminders`)).json(), { mailed: 2 })
  assert.equal((await boss.post('/surveys/999/reminders')).statusCode, 404)
  await boss.post(`/surveys/${survey.id}/close`)
  assert.equal((await boss.post(`/surveys/${survey.id}/reminders`)).json().code, 'SURVEY_CLOSED')

  const quiet = await createTestApp()
  t.after(() => quiet.close())
  const editor = await userClient(quiet.app, 'ed', 'editor')
  const g = (await editor.post('/gigs', { name: 'Quiet', date: inDays(9) })).json()
  const off = await editor.post(`/gigs/${g.id}/reminders`)
  assert.equal(off.statusCode, 409)
  assert.equal(off.json().code, 'MAIL_NOT_CONFIGURED')
})

test('answer deadline: default, own, lock; members are refused after it, editors not',
  async (t) => {
    const { app, boss } = await mailingBand(t, { members: 1 })
    const date = inDays(30)
    const gig = (await boss.post('/gigs', { name: 'Deadline', date })).json()
    const member = await userClient(app, 'mem', 'member')
    const first = (await member.get(`/gigs/${gig.id}/answer-deadline`)).json()
    assert.equal(first.own, null)
    assert.equal(first.closed, false)
    assert.equal(first.answerBy, inDays(16))
    const answerBy = inDays(2)
    const set = await boss.put(`/gigs/${gig.id}/answer-deadline`, { answerBy })
    assert.equal(set.statusCode, 200, set.body)
    assert.deepEqual(set.json(), { answerBy, own: answerBy, locked: false, closed: false })
    assert.equal((await member.put(`/gigs/${gig.id}/availability`, { status: 'yes' })).statusCode,
      200)
    // The deadline's day is over.
    const over = await boss.put(`/gigs/${gig.id}/answer-deadline`, { answerBy: inDays(-1) })
    assert.equal(over.json().closed, true)
    const refused = await member.put(`/gigs/${gig.id}/availability`, { status: 'no' })
    assert.equal(refused.statusCode, 409)
    assert.equal(refused.json().code, 'ANSWERS_CLOSED')
    assert.equal((await boss.put(`/gigs/${gig.id}/availability`, { status: 'no' })).statusCode,
      200)
    // Lock without a date; unlock.
    const lock = { answerBy: null, locked: true }
    const locked = await boss.put(`/gigs/${gig.id}/answer-deadline`, lock)
    assert.equal(locked.json().closed, true)
    assert.equal((await member.put(`/gigs/${gig.id}/availability`, { status: 'no' })).statusCode,
      409)
    await boss.put(`/gigs/${gig.id}/answer-deadline`, { answerBy: null, locked: false })
    assert.equal((await member.put(`/gigs/${gig.id}/availability`, { status: 'no' })).statusCode,
      200)
    assert.equal((await member.put(`/gigs/${gig.id}/answer-deadline`, { answerBy })).statusCode,
      403)
    assert.equal((await boss.put('/gigs/999/answer-deadline', { answerBy })).statusCode, 404)
    assert.equal((await boss.get('/rehearsals/999/answer-deadline')).statusCode, 404)
    assert.equal((await boss.put(`/gigs/${gig.id}/answer-deadline`, { answerBy: 'soon' }))
      .statusCode, 400)
  })

test('planned reminders: N days before and on the day, late after a restart, skipped after',
  async (t) => {
    const { app, ctx, boss, sink } = await mailingBand(t, { members: 1 })
    const saved = await boss.put('/admin/app_config', {
      ...app.appSettings.get(), answers: { gigDays: 10, rehearsalDays: 3, reminderDays: 3 }
    })
    assert.equal(saved.statusCode, 200, saved.body)
    // A form that does not know the setting keeps it.
    const { answers: _, ...withoutAnswers } = app.appSettings.get()
    await boss.put('/admin/app_config', withoutAnswers)
    assert.deepEqual(app.appSettings.get().answers,
      { gigDays: 10, rehearsalDays: 3, reminderDays: 3 })
    const date = inDays(20)
    const gig = (await boss.post('/gigs', { name: 'Planned', date })).json()
    await settle(app)
    assert.equal(sink.messages.length, 1)
    const jobs = app.db.select().from(mailJobs).all()
    const tz = app.appSettings.get().timezone
    assert.deepEqual(jobs.map((j) => j.dueAt), [
      zonedToUtc(`${inDays(7)}T09:00`, tz).toISOString(),
      zonedToUtc(`${inDays(10)}T09:00`, tz).toISOString()
    ])
    // The first is due: found by the timer's look.
    ctx.advance(Date.parse(jobs[0]!.dueAt) - ctx.now().getTime() + 60_000)
    app.memberMail.scan()
    await settle(app)
    assert.equal(sink.messages.length, 2)
    assert.match(sink.messages[1]!, /Subject: Please answer: Planned/)
    // The server is off on the deadline's morning and starts again in the afternoon: sent late.
    await app.close()
    ctx.advance(Date.parse(jobs[1]!.dueAt) - ctx.now().getTime() + 6 * 3600_000)
    const restarted = await buildApp({
      config: ctx.config, createFirstAdmin: false, clock: ctx.now, logger: false
    })
    t.after(() => restarted.close())
    await restarted.ready()
    await restarted.memberMail.worker!.idle()
    assert.equal(sink.messages.length, 3)
    const done = () => restarted.db.select().from(mailJobs).all().map((j) => !!j.doneAt)
    assert.deepEqual(done(), [true, true])
    // A job found only after the deadline's day is skipped: done, nobody mailed.
    const dueAt = new Date(Date.parse(jobs[1]!.dueAt) + 60_000).toISOString()
    restarted.db.insert(mailJobs).values({ kind: 'gig', eventId: gig.id, dueAt }).run()
    ctx.advance(86_400_000)
    restarted.memberMail.scan()
    await restarted.memberMail.worker!.idle()
    assert.equal(sink.messages.length, 3)
    assert.deepEqual(done(), [true, true, true])
    await restarted.close()
  })
