import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import { mailOutbox } from '#src/db/schema.js'
import { appWithLog, userClient } from '#test/helpers.js'
import { enqueueMails } from '#plugins/notifications/outbox.js'
import { OUTBOX_LIMITS, retryDelayMs } from '#plugins/notifications/outbox-loop.js'
import { inDays, mailingBand, settle } from '#test/plugins/notifications/member-mail-fixtures.js'

test('a temporary refusal is retried after the backoff; a permanent one is listed', async (t) => {
  let refusals = 1
  const { app, ctx, boss, sink } = await mailingBand(t, {
    members: 2,
    sink: {
      answer: (raw) => {
        if (/^To: m2@/m.test(raw)) return 550
        return refusals-- > 0 ? 451 : undefined
      }
    }
  })
  await boss.post('/gigs', { name: 'Retry Fest', date: inDays(20) })
  await settle(app)
  assert.equal(sink.messages.length, 0)
  const rows = app.db.select().from(mailOutbox).all()
  const m1 = rows.find((r) => r.toAddress === 'm1@example.org')!
  assert.equal(m1.status, 'queued')
  assert.equal(m1.attempts, 1)
  assert.match(m1.lastError ?? '', /451/)
  const delay = Date.parse(m1.nextAttemptAt) - Date.parse(m1.createdAt)
  assert.ok(delay >= retryDelayMs(1) && delay < retryDelayMs(1) + 10_000, `${delay}`)
  // Not due yet: nothing happens; a minute later it goes out.
  await app.memberMail.worker!.kick()
  assert.equal(sink.messages.length, 0)
  ctx.advance(retryDelayMs(1))
  await app.memberMail.worker!.kick()
  assert.equal(sink.messages.length, 1)

  const failed = await boss.get('/mail/outbox?status=failed')
  assert.equal(failed.statusCode, 200)
  const list = failed.json()
  assert.equal(list.enabled, true)
  assert.equal(list.mails.length, 1)
  assert.equal(list.mails[0].to, 'm2@example.org')
  assert.equal(list.mails[0].kind, 'new')
  assert.match(list.mails[0].lastError, /550/)

  // Sent again by an admin (the server now takes it).
  refusals = 0
  const id = list.mails[0].id
  app.db.update(mailOutbox).set({ toAddress: 'm2b@example.org' }).where(eq(mailOutbox.id, id)).run()
  const again = await boss.post(`/mail/outbox/${id}/retry`)
  assert.equal(again.statusCode, 200, again.body)
  assert.equal(again.json().status, 'queued')
  await settle(app)
  assert.equal(sink.messages.length, 2)
  assert.equal((await boss.post(`/mail/outbox/${id}/retry`)).json().code, 'MAIL_NOT_FAILED')
  assert.equal((await boss.post('/mail/outbox/9999/retry')).json().code, 'MAIL_NOT_FOUND')
  assert.equal((await boss.get('/mail/outbox?status=lost')).statusCode, 400)
  const member = await userClient(app, 'plain', 'member')
  assert.equal((await member.get('/mail/outbox')).statusCode, 403)
  assert.equal((await member.post(`/mail/outbox/${id}/retry`)).statusCode, 403)
  assert.equal((await app.inject({ url: '/mail/outbox' })).statusCode, 401)
})

test('a mail is given up after the last attempt', async (t) => {
  const { app, ctx, boss } = await mailingBand(t, { members: 1, sink: { answer: () => 421 } })
  await boss.post('/gigs', { name: 'Never', date: inDays(20) })
  await settle(app)
  for (let attempt = 1; attempt < OUTBOX_LIMITS.attempts; attempt++) {
    ctx.advance(retryDelayMs(attempt))
    await app.memberMail.worker!.kick()
  }
  const [row] = app.db.select().from(mailOutbox).all()
  assert.equal(row!.status, 'failed')
  assert.equal(row!.attempts, OUTBOX_LIMITS.attempts)
  assert.equal(retryDelayMs(20), OUTBOX_LIMITS.maxDelayMs)
})

test('the same mail queued twice is one row; a mail left sending goes out at the next start',
  async (t) => {
    const { app, ctx, sink } = await mailingBand(t, { members: 1 })
    const mail = {
      idemKey: 'test:1',
      userId: 1,
      toAddress: 'x@example.org',
      kind: 'new' as const,
      subject: 'Hi',
      body: { text: 'hi', html: '<p>hi</p>' }
    }
    assert.equal(enqueueMails(app.db, [mail, { ...mail, subject: 'Again' }], ctx.now()), 1)
    assert.equal(enqueueMails(app.db, [mail], ctx.now()), 0)
    await app.memberMail.worker!.kick()
    assert.equal(sink.messages.length, 1)
    // As a killed process leaves it: marked `sending`, outcome unknown.
    app.db.update(mailOutbox).set({ status: 'sending' }).run()
    await app.close()
    const { app: restarted } = await appWithLog(ctx.config, t)
    await restarted.memberMail.worker!.idle()
    assert.equal(sink.messages.length, 2)
    const ids = sink.messages.map((m) => /^Message-ID: (.*)$/mi.exec(m)![1])
    assert.equal(ids[0], ids[1], 'sent again with the same Message-ID')
    await restarted.close()
  })

test('an event changed while the server was off is mailed at the next start', async (t) => {
  const { app, ctx, boss, sink } = await mailingBand(t, { members: 1 })
  const gig = (await boss.post('/gigs', { name: 'Moved', date: inDays(20) })).json()
  await settle(app)
  await app.close()
  // The CLI or a restore writes while the server is down.
  const { app: offline } = await appWithLog({ ...ctx.config, smtpUrl: undefined }, t)
  offline.sqlite.prepare('UPDATE gigs SET start_time = ?, sequence = sequence + 1 WHERE id = ?')
    .run('21:00', gig.id)
  await offline.close()
  const { app: restarted } = await appWithLog(ctx.config, t)
  await restarted.memberMail.worker!.idle()
  assert.equal(sink.messages.length, 2)
  assert.match(sink.messages[1]!, /Subject: Changed: Moved/)
  await restarted.close()
})
