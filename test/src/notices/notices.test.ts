import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import {
  createServer,
  type IncomingMessage,
  type ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  anonymous, createTestApp, json, userClient, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { WebhookNotifier } from '#src/notices/webhook-notifier.js'

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void

/** A local incoming-webhook receiver; `handler` decides each answer (default 200 "ok"). */
async function receiver (handler: Handler = (_req, res) => res.end('ok')) {
  const bodies: string[] = []
  const hanging: ServerResponse[] = []
  let current = handler
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString('utf8')))
    req.on('end', () => {
      bodies.push(body)
      current(req, res, body)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/secret-token`,
    bodies,
    texts: () => bodies.map((b) => (JSON.parse(b) as { text: string }).text),
    hanging,
    /** Never answers (a dead chat server that accepted the connection). */
    hang: () => {
      current = (_req, res) => hanging.push(res)
    },
    answer: (h: Handler) => {
      current = h
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

const quick = { backoffMs: () => 5, timeoutMs: 100 }

test('webhook sender: { text } as JSON, in order; retries 5xx and timeouts, not 4xx', async (t) => {
  const hook = await receiver()
  t.after(() => hook.close())
  const warnings: string[] = []
  const log = { warn: (m: string) => warnings.push(m) }
  // A generous timeout where the receiver answers (a slow machine must not cause a retry), a short
  // one where it never does.
  const notifier = new WebhookNotifier({
    url: hook.url,
    ...quick,
    timeoutMs: 60_000,
    maxAttempts: 3,
    log
  })
  t.after(() => notifier.close(0))
  notifier.send('eins')
  notifier.send('zwei')
  await notifier.idle()
  assert.deepEqual(hook.texts(), ['eins', 'zwei'])
  assert.equal(notifier.stats.sent, 2)

  // two server errors, then success: delivered on the third attempt
  let calls = 0
  hook.answer((_req, res) => {
    res.statusCode = ++calls <= 2 ? 503 : 200
    res.end()
  })
  notifier.send('drei')
  await notifier.idle()
  assert.equal(calls, 3)
  assert.equal(notifier.stats.sent, 3)

  // a 4xx is not retried (the hook is gone or the payload refused)
  calls = 0
  hook.answer((_req, res) => {
    calls++
    res.statusCode = 404
    res.end()
  })
  notifier.send('vier')
  await notifier.idle()
  assert.equal(calls, 1)
  assert.equal(notifier.stats.failed, 1)

  // a server that never answers: each attempt ends at the timeout, then it gives up
  hook.hang()
  const impatient = new WebhookNotifier({ url: hook.url, ...quick, maxAttempts: 3, log })
  t.after(() => impatient.close(0))
  const before = hook.bodies.length
  impatient.send('fünf')
  await impatient.idle()
  assert.equal(hook.bodies.length - before, 3, 'three attempts')
  assert.equal(impatient.stats.failed, 1)
  assert.ok(warnings.some((w) => /after 3 attempt\(s\): timeout/.test(w)), warnings.join('\n'))
  assert.ok(!warnings.some((w) => w.includes('secret-token')), 'the URL is never logged')
})

test('webhook sender: a bounded queue; close() never waits for a dead server', async (t) => {
  const hook = await receiver()
  t.after(() => hook.close())
  hook.hang()
  const notifier = new WebhookNotifier({ url: hook.url, maxQueue: 3, timeoutMs: 60_000 })
  const accepted = Array.from({ length: 10 }, (_, i) => notifier.send(`n${i}`))
  assert.deepEqual(accepted, [true, true, true, false, false, false, false, false, false, false])
  assert.equal(notifier.pending, 3)
  assert.equal(notifier.stats.dropped, 7)
  while (hook.hanging.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  await notifier.close(10)
  assert.equal(notifier.send('after close'), false)
  assert.equal(notifier.stats.sent, 0)
})

test('chat notices: proposals, gigs, published setlists, surveys; after the write', async (t) => {
  const hook = await receiver()
  t.after(() => hook.close())
  const ctx = await createTestApp(
    {},
    { NOTIFY_WEBHOOK_URL: hook.url, PUBLIC_URL: 'https://band.example.org' }
  )
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const flush = () => ctx.app.notifier!.idle()

  const idea = json<Ok<'/songs', 'post'>>(
    await mia.post('/songs', { title: 'Atemlos', artist: 'Helene' }))
  await editor.patch(`/songs/${idea.id}`, { notes: 'still proposed' })
  await editor.patch(`/songs/${idea.id}`, { status: 'accepted' })
  await editor.post('/songs', { title: 'Direct', status: 'ready' })
  const gig = await createGig(editor, {
    name: 'Stadtfest',
    date: '2026-07-04',
    startTime: '20:00',
    venue: { name: 'Marktplatz', city: 'Würzburg' }
  })
  await editor.patch(`/gigs/${gig.id}`, { notes: 'no notice for this' })
  await editor.patch(`/gigs/${gig.id}`, { status: 'confirmed' })
  const songs = insertSongs(ctx.app, 3)
  const setlist = await putSetlist(editor, gig.id, [[songs[0]!, songs[1]!], [songs[2]!]])
  await editor.post(`/gigs/${gig.id}/setlist/publish`, { version: setlist.version })
  await editor.post(`/gigs/${gig.id}/setlist/publish`, { version: setlist.version })
  const changed = await putSetlist(editor, gig.id, [[songs[0]!]], setlist.version)
  await editor.post(`/gigs/${gig.id}/setlist/publish`, { version: changed.version })
  await mia.post('/surveys', {
    title: 'Probe verschieben?',
    kind: 'poll',
    options: [{ label: 'ja' }, { label: 'nein' }]
  })
  await editor.patch(`/gigs/${gig.id}`, { status: 'cancelled' })
  await flush()

  assert.deepEqual(hook.texts(), [
    '🎵 Neuer Songvorschlag von Mia: „Atemlos“ (Helene) – bitte abstimmen.\n' +
      `https://band.example.org/app/songs/${idea.id}`,
    `✅ Vorschlag angenommen: „Atemlos“ (Helene)\nhttps://band.example.org/app/songs/${idea.id}`,
    '📅 Neuer Auftritt: „Stadtfest“ · Sa, 04.07.2026 20:00 · Marktplatz, Würzburg\n' +
      `https://band.example.org/app/gigs/${gig.id}`,
    '🎉 Auftritt bestätigt: „Stadtfest“ · Sa, 04.07.2026 20:00 · Marktplatz, Würzburg\n' +
      `https://band.example.org/app/gigs/${gig.id}`,
    '📋 Setlist veröffentlicht: „Stadtfest“ · Sa, 04.07.2026 20:00 · Marktplatz, Würzburg – ' +
      `3 Titel in 2 Sets\nhttps://band.example.org/app/gigs/${gig.id}`,
    '📋 Setlist aktualisiert: „Stadtfest“ · Sa, 04.07.2026 20:00 · Marktplatz, Würzburg – ' +
      `1 Titel in 1 Set\nhttps://band.example.org/app/gigs/${gig.id}`,
    '🗳️ Neue Umfrage von Mia: „Probe verschieben?“\nhttps://band.example.org/app/surveys/1',
    '❌ Auftritt abgesagt: „Stadtfest“ · Sa, 04.07.2026 20:00 · Marktplatz, Würzburg\n' +
      `https://band.example.org/app/gigs/${gig.id}`
  ])
  // Mattermost/Slack incoming-webhook JSON
  assert.deepEqual(Object.keys(JSON.parse(hook.bodies[0]!)), ['text'])

  // a rejected write announces nothing
  const before = hook.bodies.length
  assert.equal((await editor.post('/gigs', { name: '' })).statusCode, 400)
  await flush()
  assert.equal(hook.bodies.length, before)
})

test('a dead webhook never slows or fails a request', async (t) => {
  const hook = await receiver()
  t.after(() => hook.close())
  hook.hang()
  const ctx = await createTestApp({}, { NOTIFY_WEBHOOK_URL: hook.url })
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const first = await editor.post('/gigs', { name: 'Eins', date: '2026-07-04' })
  assert.equal(first.statusCode, 201)
  // The chat server has the notice and does not answer; requests go on regardless.
  while (hook.hanging.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  for (let i = 0; i < 5; i++) {
    const r = await editor.post('/gigs', { name: `G${i}`, date: '2026-07-04' })
    assert.equal(r.statusCode, 201)
  }
  // (a slow machine may have timed the first attempt out and tried again: still in the queue)
  assert.ok(hook.hanging.length >= 1, 'the chat server holds the first notice')
  assert.ok(ctx.app.notifier!.pending >= 5, 'the notices wait in the queue')

  // a refused connection is no failure of the request either
  const refused = await createTestApp({}, { NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/hook' })
  t.after(() => refused.close())
  const ed = await userClient(refused.app, 'eddie', 'editor')
  assert.equal((await ed.post('/gigs', { name: 'Drei', date: '2026-07-04' })).statusCode, 201)
})

test('publishing a setlist: rules and answers', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const gig = await createGig(editor)
  const url = `/gigs/${gig.id}/setlist/publish`
  const none = json<Ok<'/gigs/{id}/setlist/publication', 'get'>>(
    await mia.get(`/gigs/${gig.id}/setlist/publication`))
  assert.deepEqual(none, {
    gigId: gig.id,
    published: false,
    version: null,
    publishedAt: null,
    publishedBy: null,
    publishedByName: null,
    changedSince: false
  })
  const empty = await editor.post(url, { version: 0 })
  assert.equal(empty.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(empty).code, 'SETLIST_EMPTY')
  const songs = insertSongs(ctx.app, 2)
  const v1 = await putSetlist(editor, gig.id, [[songs[0]!]])
  const stale = await editor.post(url, { version: 0 })
  assert.equal(json<ErrorResponseBody>(stale).code, 'SETLIST_VERSION_CONFLICT')
  const published = json<Ok<'/gigs/{id}/setlist/publish', 'post'>>(
    await editor.post(url, { version: v1.version }))
  assert.equal(published.published, true)
  assert.equal(published.version, v1.version)
  assert.equal(published.publishedByName, 'Eddie')
  assert.equal(published.changedSince, false)
  await putSetlist(editor, gig.id, [[songs[1]!]], v1.version)
  assert.equal(json<Ok<'/gigs/{id}/setlist/publication', 'get'>>(
    await mia.get(`/gigs/${gig.id}/setlist/publication`)).changedSince, true)

  assert.equal((await mia.post(url, { version: 1 })).statusCode, 403)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${gig.id}/setlist/publication`)).statusCode,
    401)
  assert.equal((await editor.post(url, {})).statusCode, 400)
  assert.equal(json<ErrorResponseBody>(
    await editor.post('/gigs/999/setlist/publish', { version: 0 })).code,
  'GIG_NOT_FOUND')
  assert.equal((await mia.get('/gigs/999/setlist/publication')).statusCode, 404)
})
