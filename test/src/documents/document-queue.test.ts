import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  CancelledError,
  DocumentQueue,
  type Admission,
  type Refusal
} from '#src/documents/queue.js'
import { gigs } from '#src/db/schema.js'
import type { DocumentJob } from '#src/documents/pool.js'
import { DOCUMENT_QUEUE_WAITING } from '#plugins/app/serve-document.js'
import { DOCUMENTS_PER_USER } from '#schemas/documents.js'
import {
  createTestApp, json, userClient, type Client, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { pdfText } from '#test/pdf-tools.js'
import type { App } from '#src/app.js'

/** Jobs whose runs are recorded and finish when the test says so. */
function controlledJobs () {
  const started: string[] = []
  const finish = new Map<string, { resolve(v: string): void; reject(e: Error): void }>()
  const run = (key: string) => () => {
    started.push(key)
    return new Promise<string>((resolve, reject) => finish.set(key, { resolve, reject }))
  }
  return { started, finish, run }
}

function admitted<T> (outcome: Admission<T> | Refusal): Admission<T> {
  assert.ok(!('refused' in outcome), 'admitted')
  return outcome
}
function refused (outcome: Admission<unknown> | Refusal, reason: Refusal['refused']): Refusal {
  assert.ok('refused' in outcome, 'refused')
  assert.equal(outcome.refused, reason)
  assert.ok(outcome.retryAfterSeconds >= 1)
  return outcome
}
const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    return error
  }
  assert.fail('expected a rejection')
}

test('queue: one job per free slot, the next one loads only when a slot is free', async () => {
  const queue = new DocumentQueue<string>({ running: 1, waiting: 2, perUser: 3 })
  const { started, finish, run } = controlledJobs()
  const a = admitted(queue.submit({ key: 'a', userId: 1, run: run('a') }))
  const b = admitted(queue.submit({ key: 'b', userId: 2, run: run('b') }))
  const c = admitted(queue.submit({ key: 'c', userId: 3, run: run('c') }))
  await sleep(1)
  assert.deepEqual(started, ['a'], 'b and c wait without loading anything')
  assert.deepEqual(queue.stats, { running: 1, waiting: 2, users: 3 })
  // Beyond running + waiting: refused at once, with a Retry-After estimate.
  refused(queue.submit({ key: 'd', userId: 4, run: run('d') }), 'queue')
  finish.get('a')!.resolve('A')
  assert.equal(await a.result, 'A')
  await sleep(1)
  assert.deepEqual(started, ['a', 'b'])
  finish.get('b')!.reject(new Error('render failed'))
  assert.equal(((await rejection(b.result)) as Error).message, 'render failed')
  await sleep(1)
  finish.get('c')!.resolve('C')
  assert.equal(await c.result, 'C')
  assert.deepEqual(queue.stats, { running: 0, waiting: 0, users: 0 })
})

test('queue: one member\'s jobs never hold every thread; another\'s start', async () => {
  const queue = new DocumentQueue<string>({ running: 3, waiting: 8, perUser: 4 })
  const { started, finish, run } = controlledJobs()
  // Four long songbooks of one member: two run, a thread stays for the band.
  const mine = ['s1', 's2', 's3', 's4'].map((key) =>
    admitted(queue.submit({ key, userId: 1, run: run(key) })))
  await sleep(1)
  assert.deepEqual(started, ['s1', 's2'])
  assert.deepEqual(queue.stats, { running: 2, waiting: 2, users: 1 })
  const setlist = admitted(queue.submit({ key: 'setlist', userId: 2, run: run('setlist') }))
  await sleep(1)
  assert.deepEqual(started, ['s1', 's2', 'setlist'], 'started ahead of the member\'s older jobs')
  finish.get('setlist')!.resolve('S')
  assert.equal(await setlist.result, 'S')
  // The freed thread is not the member's third: their next job waits for one of their own.
  await sleep(1)
  assert.deepEqual(started, ['s1', 's2', 'setlist'])
  finish.get('s1')!.resolve('1')
  await sleep(1)
  assert.deepEqual(started, ['s1', 's2', 'setlist', 's3'])
  for (const key of ['s2', 's3']) finish.get(key)!.resolve(key)
  await sleep(1)
  finish.get('s4')!.resolve('s4')
  assert.deepEqual(await Promise.all(mine.map((job) => job.result)), ['1', 's2', 's3', 's4'])
  assert.deepEqual(queue.stats, { running: 0, waiting: 0, users: 0 })
  // With one thread a member's job still runs.
  const single = new DocumentQueue<string>({ running: 1, waiting: 2, perUser: 2 })
  const alone = admitted(single.submit({ key: 'x', userId: 1, run: async () => 'X' }))
  assert.equal(await alone.result, 'X')
})

test('queue: identical requests share one job, also one that is already running', async () => {
  const queue = new DocumentQueue<string>({ running: 1, waiting: 1, perUser: 3 })
  const { started, finish, run } = controlledJobs()
  const submit = (key: string, userId: number, name: string) =>
    admitted(queue.submit({ key, userId, run: run(name) })).result
  const first = submit('setlist:7@r1', 1, 'first')
  await sleep(1)
  const second = submit('setlist:7@r1', 2, 'second')
  // A waiting job is shared too, and sharing takes no place in the queue.
  const other = submit('gema:7@r1', 3, 'other')
  const otherShared = submit('gema:7@r1', 4, 'never')
  assert.deepEqual(queue.stats, { running: 1, waiting: 1, users: 4 })
  finish.get('first')!.resolve('pdf')
  assert.deepEqual(await Promise.all([first, second]), ['pdf', 'pdf'])
  await sleep(1)
  finish.get('other')!.resolve('xlsx')
  assert.deepEqual(await Promise.all([other, otherShared]), ['xlsx', 'xlsx'])
  assert.deepEqual(started, ['first', 'other'])
  // Once done, the same key renders again (a later request gets a fresh document).
  const later = submit('setlist:7@r1', 1, 'later')
  await sleep(1)
  finish.get('later')!.resolve('pdf 2')
  assert.equal(await later, 'pdf 2')
})

test('queue: a user has at most perUser requests in flight, shared ones included', async () => {
  const queue = new DocumentQueue<string>({ running: 1, waiting: 5, perUser: 2 })
  const { finish, run } = controlledJobs()
  const one = admitted(queue.submit({ key: 'a', userId: 1, run: run('a') }))
  const two = admitted(queue.submit({ key: 'a', userId: 1, run: run('a') }))
  refused(queue.submit({ key: 'b', userId: 1, run: run('b') }), 'user')
  // Another member is not affected.
  const other = admitted(queue.submit({ key: 'b', userId: 2, run: run('b') }))
  await sleep(1)
  finish.get('a')!.resolve('A')
  await Promise.all([one.result, two.result])
  const again = admitted(queue.submit({ key: 'c', userId: 1, run: run('c') }))
  await sleep(1)
  finish.get('b')!.resolve('B')
  await other.result
  await sleep(1)
  finish.get('c')!.resolve('C')
  assert.equal(await again.result, 'C')
})

test('queue: a client that goes away frees its place; a job nobody awaits is dropped', async () => {
  const queue = new DocumentQueue<string>({ running: 1, waiting: 1, perUser: 1 })
  const { started, finish, run } = controlledJobs()
  const running = admitted(queue.submit({ key: 'a', userId: 1, run: run('a') }))
  const waiting = admitted(queue.submit({ key: 'b', userId: 2, run: run('b') }))
  const sharing = admitted(queue.submit({ key: 'a', userId: 3, run: run('x') }))
  refused(queue.submit({ key: 'c', userId: 4, run: run('c') }), 'queue')
  waiting.cancel()
  assert.ok((await rejection(waiting.result)) instanceof CancelledError)
  waiting.cancel() // twice: nothing more happens
  assert.deepEqual(queue.stats, { running: 1, waiting: 0, users: 2 })
  // The freed place is taken by the next request; user 2 may ask again.
  const next = admitted(queue.submit({ key: 'c', userId: 2, run: run('c') }))
  finish.get('a')!.resolve('A')
  assert.deepEqual(await Promise.all([running.result, sharing.result]), ['A', 'A'])
  // Cancelling after the answer changes nothing.
  sharing.cancel()
  await sleep(1)
  finish.get('c')!.resolve('C')
  assert.equal(await next.result, 'C')
  assert.deepEqual(started, ['a', 'c'], 'the abandoned job never loaded its data')
  assert.deepEqual(queue.stats, { running: 0, waiting: 0, users: 0 })
})

// Through HTTP: the documents plugin in front of renders the test holds back.

interface Held {
  jobs: DocumentJob[]
  release(): void
}

/** Renders wait until released, so the queue fills up; each render is recorded. */
function holdRenders (app: App): Held {
  const jobs: DocumentJob[] = []
  let open: () => void
  let gate = new Promise<void>((resolve) => (open = resolve))
  const render = app.documentWorkers.render.bind(app.documentWorkers)
  app.documentWorkers.render = async (job) => {
    jobs.push(job)
    await gate
    return render(job)
  }
  return {
    jobs,
    release: () => {
      open()
      gate = Promise.resolve()
    }
  }
}

function insertGigs (app: App, count: number): number[] {
  const stamp = '2026-05-01T10:00:00.000Z'
  return Array.from({ length: count }, (_, i) =>
    app.db
      .insert(gigs)
      .values({ name: `Gig ${i}`, date: '2026-07-04', createdAt: stamp, updatedAt: stamp })
      .returning()
      .get().id
  )
}

test(
  'documents: identical requests of many members share one render; a full queue is 503 with ' +
    'Retry-After; a fifth document of one member is 429',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const held = holdRenders(ctx.app)
    const threads = ctx.app.documentWorkers.threads
    const members: Client[] = []
    for (let i = 0; i < 12; i++) members.push(await userClient(ctx.app, `m${i}`, 'member'))
    const [gig] = insertGigs(ctx.app, 1)

    // Ten members ask for the same setlist at once: one render, ten identical PDFs.
    const same = members.slice(0, 10).map((m) => m.get(`/gigs/${gig}/setlist.pdf`))
    await sleep(50)
    assert.equal(held.jobs.length, 1)
    held.release()
    const answers = await Promise.all(same)
    assert.deepEqual(new Set(answers.map((r) => r.statusCode)), new Set([200]))
    assert.equal(new Set(answers.map((r) => r.rawPayload.toString('base64'))).size, 1)
    assert.match(pdfText(answers[0]!.rawPayload), /Gig 0/)
    assert.equal(held.jobs.length, 1)

    const editor = await userClient(ctx.app, 'ed', 'editor')
    const programme = json<Ok<'/repertoire', 'post'>>(
      await editor.post('/repertoire', { name: 'Standard' })) as { id: number }
    // Distinct documents fill the threads and the queue; the next one is refused at once.
    const stuck = holdRenders(ctx.app)
    const ids = insertGigs(ctx.app, threads + DOCUMENT_QUEUE_WAITING)
    const filling = ids.map((id, i) => members[i % 10]!.get(`/gigs/${id}/gema`))
    await sleep(100)
    assert.equal(stuck.jobs.length, threads, 'only as many gigs loaded as threads are free')
    const refused = await members[10]!.get(`/gigs/${gig}/schedule.pdf`)
    assert.equal(refused.statusCode, 503)
    assert.equal(json<ErrorResponseBody>(refused).code, 'DOCUMENTS_BUSY')
    assert.match(String(refused.headers['retry-after']), /^[1-9]\d*$/)
    // Repertoire setlists render through the same queue.
    const repertoire = await members[10]!.get(`/repertoire/${programme.id}/setlist.pdf`)
    assert.equal(repertoire.statusCode, 503)
    assert.equal(json<ErrorResponseBody>(repertoire).code, 'DOCUMENTS_BUSY')
    // A request for a document already queued still shares it.
    const shared = members[11]!.get(`/gigs/${ids.at(-1)}/gema`)
    // A member with four documents in flight gets 429 for a fifth.
    const busy = members[0]!
    assert.equal(DOCUMENTS_PER_USER, 4)
    const fifth = await busy.get(`/gigs/${gig}/setlist.pdf?style=stage`)
    assert.equal(fifth.statusCode, 429)
    assert.equal(json<ErrorResponseBody>(fifth).code, 'RATE_LIMITED')
    assert.ok(Number(fifth.headers['retry-after']) >= 1)
    stuck.release()
    const done = await Promise.all([...filling, shared])
    assert.deepEqual(new Set(done.map((r) => r.statusCode)), new Set([200]))
    assert.equal(stuck.jobs.length, ids.length)
    // Both refusals are in the OpenAPI document of every document route.
    const spec = ctx.app.swagger() as { paths: Record<string, { get: { responses: object } }> }
    for (const path of ['gigs/{id}/setlist.pdf', 'gigs/{id}/schedule.pdf', 'gigs/{id}/gema',
      'repertoire/{id}/setlist.pdf']) {
      const responses = spec.paths[`/${path}`]!.get.responses
      assert.ok('429' in responses && '503' in responses, path)
    }
    // A gig deleted while its request waited: 404 (from the job, when it loads).
    assert.equal((await members[0]!.get('/gigs/999999/gema')).statusCode, 404)
  }
)

test('documents: a request after a write renders again, with the new data', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const held = holdRenders(ctx.app)
  const editor = await userClient(ctx.app, 'ed', 'editor')
  const member = await userClient(ctx.app, 'mo', 'member')
  const [gig] = insertGigs(ctx.app, 1)
  const before = editor.get(`/gigs/${gig}/setlist.pdf`)
  await sleep(50)
  const renamed = await editor.patch(`/gigs/${gig}`, { name: 'Umbenannt' })
  assert.equal(renamed.statusCode, 200)
  // Same document, but a later revision: not shared with the render of the old data.
  const after = member.get(`/gigs/${gig}/setlist.pdf`)
  await sleep(50)
  held.release()
  const [old, fresh] = await Promise.all([before, after])
  assert.equal(held.jobs.length, 2)
  assert.match(pdfText(old.rawPayload), /Gig 0/)
  assert.match(pdfText(fresh.rawPayload), /Umbenannt/)
})

test('documents: a client that disconnects while waiting frees its place', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const held = holdRenders(ctx.app)
  const threads = ctx.app.documentWorkers.threads
  const members: Client[] = []
  for (let i = 0; i < 10; i++) members.push(await userClient(ctx.app, `m${i}`, 'member'))
  const ids = insertGigs(ctx.app, threads + DOCUMENT_QUEUE_WAITING + 1)
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  // All but one place taken through inject; the last one by a real socket that then closes.
  const filling = ids
    .slice(0, -2)
    .map((id, i) => members[i % 9]!.get(`/gigs/${id}/setlist.pdf`))
  const socketGone = new Promise<void>((resolve) => {
    const req = httpRequest(`${base}/gigs/${ids.at(-2)}/setlist.pdf`, {
      headers: { cookie: members[9]!.jar.header() }
    })
    req.on('error', () => resolve())
    req.end()
    setTimeout(() => {
      req.destroy()
      resolve()
    }, 150)
  })
  await socketGone
  await sleep(100)
  // The place of the closed socket is free again.
  const last = members[9]!.get(`/gigs/${ids.at(-1)}/setlist.pdf`)
  const over = await members[9]!.get(`/gigs/${ids[0]}/schedule.pdf`)
  assert.equal(over.statusCode, 503, 'now the queue is full again')
  held.release()
  assert.equal((await last).statusCode, 200)
  await Promise.all(filling)
  assert.ok(
    !held.jobs.some((job) => 'doc' in job && job.doc.gig.id === ids.at(-2)),
    'the abandoned document was never loaded or rendered'
  )
})
