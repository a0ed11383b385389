import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setImmediate as turn } from 'node:timers/promises'
import { eq } from '#src/db/orm.js'
import {
  anonymous,
  appWithLog,
  createTestApp,
  createUser,
  sessionClient,
  userClient,
  type Client
} from '#test/helpers.js'
import { mailingTestApp } from '#test/smtp-sink.js'
import {
  decryptPush,
  phoneKeys,
  pushService,
  verifyVapid,
  type PushRequest
} from '#test/push-service.js'
import { inDays } from '#test/plugins/notifications/member-mail-fixtures.js'
import { pushOutbox, pushSubscriptions, surveys } from '#src/db/schema.js'
import { buildPushes } from '#plugins/notifications/push-build.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { OUTBOX_LIMITS } from '#plugins/notifications/outbox-loop.js'
import type { App } from '#src/app.js'

const LOCAL = { PUSH_LOCAL_ENDPOINTS: 'true' }

/** Lets the look after a request run and the pushes it queued go out. */
async function delivered (app: App): Promise<void> {
  await turn()
  await turn()
  await app.memberPush.worker.kick()
  await app.memberPush.worker.idle()
}

/** A member's phone subscribed at the local push service. */
async function subscribe (member: Client, origin: string, name: string) {
  const phone = phoneKeys()
  const endpoint = `${origin}/${name}`
  const res = await member.post('/me/push-subscriptions', { endpoint, keys: phone.keys })
  assert.equal(res.statusCode, 201, res.body)
  return { phone, endpoint, path: `/${name}` }
}

const payloadOf = (request: PushRequest, phone: ReturnType<typeof phoneKeys>) =>
  JSON.parse(decryptPush(request.body, phone)) as { title: string; body: string; url: string }

async function band (t: { after (fn: () => unknown): void }, answer?: (r: PushRequest) => number) {
  const service = await pushService(answer)
  const ctx = await createTestApp({}, LOCAL)
  t.after(async () => {
    await ctx.close()
    await service.close()
  })
  const boss = await userClient(ctx.app, 'boss', 'admin')
  await boss.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale: 'en-GB' })
  const anna = sessionClient(ctx.app, await createUser(ctx.app, 'anna'))
  return { ...ctx, service, boss, anna }
}

test('a new gig reaches the phone: the payload decrypts and the VAPID JWT is signed', async (t) => {
  const { app, service, boss, anna } = await band(t)
  const { phone, path } = await subscribe(anna, service.origin, 'anna-phone')
  const made = await boss.post('/gigs', {
    name: 'Harbour Fest', date: inDays(20), startTime: '20:00', venue: { name: 'Pier 3' }
  })
  assert.equal(made.statusCode, 201, made.body)
  const gig = made.json()
  await delivered(app)
  assert.equal(service.requests.length, 1, 'no mail server needed; one push')
  const [request] = service.requests
  assert.equal(request!.path, path)
  assert.equal(request!.headers['content-encoding'], 'aes128gcm')
  assert.ok(Number(request!.headers.ttl) > 0)
  const payload = payloadOf(request!, phone)
  assert.match(payload.title, /^New: Harbour Fest, /)
  assert.match(payload.body, /^A new date needs your answer\.\n20:00, Pier 3$/)
  assert.equal(payload.url, `/app/gigs/${gig.id}`)
  const { header, claims } = verifyVapid(request!.headers.authorization,
    (await anna.get('/push/key')).json().publicKey)
  assert.equal(header.alg, 'ES256')
  assert.equal(claims.aud, service.origin)
  assert.match(claims.sub, /^mailto:/)
  assert.ok(claims.exp * 1000 > Date.now())

  // The same change seen again (a restart's look) is no second push.
  app.memberMail.scan()
  await delivered(app)
  assert.equal(service.requests.length, 1)
  const row = app.db.select().from(pushOutbox).get()!
  assert.equal(row.status, 'sent')
})

test('the band language, surveys to everyone, events to musicians, choices per kind',
  async (t) => {
    const { app, service, boss, anna } = await band(t)
    await boss.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale: 'de-DE' })
    const annaPhone = await subscribe(anna, service.origin, 'anna')
    const roadie = sessionClient(app, await createUser(app, 'roadie', 'member',
      { isMusician: false }))
    const roadiePhone = await subscribe(roadie, service.origin, 'roadie')
    const rehearsal = (await boss.post('/rehearsals', {
      date: inDays(9), startTime: '19:00', location: 'Proberaum'
    })).json()
    const survey = (await boss.post('/surveys', {
      title: 'Sommerfest?', kind: 'poll', options: [{ label: 'Ja' }, { label: 'Nein' }]
    })).json()
    await delivered(app)
    const to = (path: string) => service.requests.filter((r) => r.path === path)
    const annas = to(annaPhone.path).map((r) => payloadOf(r, annaPhone.phone))
    assert.deepEqual(annas.map((p) => p.url).sort(),
      [`/app/rehearsals/${rehearsal.id}`, `/app/surveys/${survey.id}`])
    assert.ok(annas.some((p) => /^Neu: Probe, /.test(p.title)))
    assert.ok(annas.some((p) => p.title === 'Neue Umfrage: Sommerfest?'))
    assert.deepEqual(to(roadiePhone.path).map((r) => payloadOf(r, roadiePhone.phone).url),
      [`/app/surveys/${survey.id}`], 'a non-musician hears of surveys only')

    // Mail off is about mail only; changes off silences the change's push.
    await anna.put('/me/notifications',
      { mail: false, newEvents: true, changes: false, reminders: true, surveys: true })
    await boss.patch(`/rehearsals/${rehearsal.id}`, { startTime: '18:00' })
    await delivered(app)
    assert.equal(to(annaPhone.path).length, 2)
    await anna.put('/me/notifications',
      { mail: false, newEvents: true, changes: true, reminders: true, surveys: true })
    await boss.patch(`/rehearsals/${rehearsal.id}`, { startTime: '18:30' })
    await delivered(app)
    const last = payloadOf(to(annaPhone.path).at(-1)!, annaPhone.phone)
    assert.match(last.title, /^Geändert: Probe, /)
    assert.match(last.body, /^Datum, Zeit oder Ort .*\n18:30–20:30, Proberaum$/)
  })

test('410 Gone removes the subscription; 5xx and 429 are retried; 400 is given up', async (t) => {
  const answers = new Map<string, number[]>([
    ['/gone', [410]],
    ['/busy', [503, 429, 201]],
    ['/broken', [400]]
  ])
  const { app, service, boss, anna, advance } = await band(t, (r) =>
    answers.get(r.path)!.shift() ?? 201)
  const bert = sessionClient(app, await createUser(app, 'bert'))
  const carl = sessionClient(app, await createUser(app, 'carl'))
  await subscribe(anna, service.origin, 'gone')
  const busy = await subscribe(bert, service.origin, 'busy')
  await subscribe(carl, service.origin, 'broken')
  await boss.post('/gigs', { name: 'Retry', date: inDays(15) })
  await delivered(app)
  assert.equal(service.requests.length, 3)
  const endpoints = app.db.select({ e: pushSubscriptions.endpoint }).from(pushSubscriptions).all()
    .map((s) => s.e).sort()
  assert.deepEqual(endpoints, [`${service.origin}/broken`, `${service.origin}/busy`],
    'the gone phone is forgotten')
  assert.deepEqual((await anna.get('/me/push-subscriptions')).json().subscriptions, [])
  const rows = app.db.select().from(pushOutbox).all()
  assert.deepEqual(rows.map((r) => r.status).sort(), ['failed', 'queued'])
  assert.match(rows.find((r) => r.status === 'failed')!.lastError!, /^400/)
  // The admins see what was given up, and why.
  const failed = await boss.get('/push/outbox?status=failed')
  assert.equal(failed.statusCode, 200)
  assert.deepEqual(failed.json().pushes.map((p: Record<string, unknown>) =>
    [p.userId, p.kind, p.status, p.attempts, String(p.lastError).slice(0, 3)]),
  [[carl.user.id, 'new', 'failed', 1, '400']])
  assert.match(failed.json().pushes[0].title, /^New: Retry/)
  assert.equal((await boss.get('/push/outbox')).json().pushes.length, 2)
  assert.equal((await anna.get('/push/outbox')).statusCode, 403)
  assert.equal((await anonymous(app).get('/push/outbox')).statusCode, 401)
  assert.equal((await boss.get('/push/outbox?status=lost')).statusCode, 400)
  assert.equal((await boss.get('/push/outbox?limit=201')).statusCode, 400)

  // The retry waits: a kick now sends nothing.
  await app.memberPush.worker.kick()
  assert.equal(service.requests.length, 3)
  for (const expected of [4, 5]) {
    advance(OUTBOX_LIMITS.maxDelayMs)
    await app.memberPush.worker.kick()
    assert.equal(service.requests.length, expected)
  }
  const done = app.db.select().from(pushOutbox).where(eq(pushOutbox.status, 'sent')).all()
  assert.equal(done.length, 1)
  assert.equal(done[0]!.attempts, 3)
  assert.equal(payloadOf(service.requests.at(-1)!, busy.phone).title.startsWith('New: Retry'),
    true)
  assert.equal(app.memberPush.worker.stats.removed, 1)

  // A week on, the sent and given-up pushes are forgotten.
  advance(8 * 86_400_000)
  app.memberMail.tidy()
  assert.equal(app.db.select().from(pushOutbox).all().length, 0)
})

test('no answer at all is retried; a push interrupted by a stop goes out at the next start',
  async (t) => {
    const { app, config, boss, anna, advance } = await band(t)
    // A port nobody listens on.
    const dead = await pushService()
    await dead.close()
    await subscribe(anna, dead.origin, 'off')
    await boss.post('/gigs', { name: 'Nobody', date: inDays(15) })
    await delivered(app)
    const row = app.db.select().from(pushOutbox).get()!
    assert.equal(row.status, 'queued')
    assert.equal(row.attempts, 1)
    assert.ok(row.lastError)

    // The phone moved to a live service; the server stops while the push service answers.
    let stopping = true
    const live = await pushService(() => {
      if (stopping) app.memberPush.worker.close()
      stopping = false
      return 201
    })
    t.after(() => live.close())
    app.db.update(pushSubscriptions).set({ endpoint: `${live.origin}/off` }).run()
    advance(OUTBOX_LIMITS.maxDelayMs)
    await app.memberPush.worker.kick()
    assert.equal(live.requests.length, 1)
    assert.equal(app.db.select().from(pushOutbox).get()!.status, 'sending',
      'whether the phone got it is unknown')
    // The restarted app's clock is the real one, before the retry's time on the moved clock.
    app.db.update(pushOutbox).set({ nextAttemptAt: row.createdAt }).run()
    await app.close()
    const restarted = await appWithLog(config, t)
    await restarted.app.memberPush.worker.idle()
    assert.equal(live.requests.length, 2, 'sent again at the next start')
    assert.equal(restarted.app.db.select().from(pushOutbox).get()!.status, 'sent')
  })

test('a reminder to some members reaches only their phones', async (t) => {
  const { app, service, boss, anna } = await band(t)
  const bert = sessionClient(app, await createUser(app, 'bert'))
  await subscribe(anna, service.origin, 'anna')
  await subscribe(bert, service.origin, 'bert')
  const survey = (await boss.post('/surveys', {
    title: 'Van?', kind: 'poll', options: [{ label: 'A' }, { label: 'B' }]
  })).json()
  const row = app.db.select().from(surveys).where(eq(surveys.id, survey.id)).get()!
  const reminder = { kind: 'survey' as const, seen: 'today', survey: row, reminder: true }
  const pushes = buildPushes(app.db, [reminder],
    { settings: app.appSettings.get(), only: new Set([bert.user.id]) })
  assert.deepEqual(pushes.map((p) => p.payload.title), ['Please answer: Van?'])
  assert.equal(buildPushes(app.db, [], { settings: app.appSettings.get() }).length, 0)
})

test('reminders go to the phones of those who have not answered', async (t) => {
  const service = await pushService()
  const { ctx } = await mailingTestApp(t, LOCAL)
  t.after(() => service.close())
  const { app } = ctx
  const boss = await userClient(app, 'boss', 'admin')
  await boss.put('/admin/app_config', { ...DEFAULT_APP_CONFIG, locale: 'en-GB' })
  const anna = sessionClient(app, await createUser(app, 'anna', 'member',
    { email: 'anna@example.org' }))
  const bert = sessionClient(app, await createUser(app, 'bert'))
  const annaPhone = await subscribe(anna, service.origin, 'anna')
  const bertPhone = await subscribe(bert, service.origin, 'bert')
  const gig = (await boss.post('/gigs', { name: 'Remind', date: inDays(30) })).json()
  const survey = (await boss.post('/surveys', {
    title: 'Poster?', kind: 'poll', options: [{ label: 'A' }, { label: 'B' }]
  })).json()
  await delivered(app)
  const before = service.requests.length
  assert.equal(before, 4)
  assert.equal((await anna.put(`/gigs/${gig.id}/availability`, { status: 'yes' })).statusCode,
    200)
  const option = survey.options[0].id
  app.sqlite.prepare('INSERT INTO survey_answers (survey_id, option_id, user_id, value, ' +
    "answered_at) VALUES (?, ?, ?, 'yes', ?)")
    .run(survey.id, option, bert.user.id, new Date().toISOString())
  assert.equal((await boss.post(`/gigs/${gig.id}/reminders`)).statusCode, 200)
  assert.equal((await boss.post(`/surveys/${survey.id}/reminders`)).statusCode, 200)
  await delivered(app)
  const reminders = service.requests.slice(before)
  assert.deepEqual(reminders.map((r) => r.path).sort(), ['/anna', '/bert'])
  const toBert = payloadOf(reminders.find((r) => r.path === '/bert')!, bertPhone.phone)
  assert.match(toBert.title, /^Please answer: Remind, /)
  const toAnna = payloadOf(reminders.find((r) => r.path === '/anna')!, annaPhone.phone)
  assert.equal(toAnna.title, 'Please answer: Poster?')
})

test('a sub\'s phone hears only of the gigs the sub was asked for', async (t) => {
  const { app, service, boss } = await band(t)
  const sub = await createUser(app, 'sam', 'member', { occasional: true })
  const phone = await subscribe(sessionClient(app, sub), service.origin, 'sam')
  const other = (await boss.post('/gigs', { name: 'Other', date: inDays(15) })).json()
  const asked = (await boss.post('/gigs', { name: 'Asked', date: inDays(16) })).json()
  await boss.post('/rehearsals', { date: inDays(9), startTime: '19:00' })
  await delivered(app)
  assert.equal(service.requests.length, 0, 'no push of an unasked gig or a rehearsal')
  assert.equal((await boss.post(`/gigs/${asked.id}/asked`, { userId: sub.id })).statusCode, 200)
  await boss.patch(`/gigs/${other.id}`, { startTime: '21:00' })
  await boss.patch(`/gigs/${asked.id}`, { startTime: '21:00' })
  await delivered(app)
  assert.deepEqual(service.requests.map((r) => payloadOf(r, phone.phone).url),
    [`/app/gigs/${asked.id}`])
})
