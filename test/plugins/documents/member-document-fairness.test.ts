// The review's M1, replayed: one member keeps four songbooks in flight (long charts took 6–55 s a
// render) and another member's setlist PDF waited for all of them. Renders here wait until the
// test lets each one go, so what is asserted is the order of admission and completion, no clock.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { inArray } from '#src/db/orm.js'
import { createTestApp, json, userClient, type ErrorResponseBody } from '#test/helpers.js'
import { createGig, insertSongs } from '#test/gig-fixtures.js'
import { songs } from '#src/db/schema.js'
import type { App } from '#src/app.js'
import type { DocumentJob } from '#src/documents/pool.js'
import { DOCUMENTS_PER_USER } from '#schemas/documents.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { MAX_SONGBOOK_CHART_BYTES } from '#schemas/charts.js'
import { pdfText } from '#test/pdf-tools.js'

interface HeldRender {
  job: DocumentJob
  release(): void
}

/**
 * Each render waits until the test releases it (`started`, in the order they started) until
 * `letAll` releases them all and every later one; `rendered`: every render asked for.
 */
function holdEachRender (app: App) {
  const started: HeldRender[] = []
  let holding = true
  const rendered: DocumentJob[] = []
  const render = app.documentWorkers.render.bind(app.documentWorkers)
  app.documentWorkers.render = async (job) => {
    rendered.push(job)
    if (holding) await new Promise<void>((resolve) => started.push({ job, release: resolve }))
    return render(job)
  }
  const letAll = () => {
    holding = false
    for (const held of started) held.release()
  }
  return { started, rendered, letAll }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))
/** Turns of the event loop until `condition` holds (the test's timeout ends a wait that hangs). */
async function until (condition: () => boolean): Promise<void> {
  while (!condition()) await turn()
}

test('documents: a member with four songbooks in flight does not hold up another member\'s ' +
  'setlist; a songbook over its chart bound is 413 before the queue', { timeout: 120_000 },
async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const { started, rendered, letAll } = holdEachRender(ctx.app)
  const threads = ctx.app.documentWorkers.threads
  // With a single thread a member's job runs alone: the order is then first come, first served.
  if (threads < 2) return t.skip('one document thread on this machine')
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const sam = await userClient(ctx.app, 'sam')
  const mia = await userClient(ctx.app, 'mia')
  const ids = insertSongs(ctx.app, 3)
  for (const id of ids) {
    ctx.app.db.update(songs).set({ chart: `{title: Song ${id}}\n[C]Long [G]chart ${id}` })
      .where(inArray(songs.id, [id])).run()
  }
  const gigWith = async (name: string, songIds: number[]) => {
    const gig = await createGig(editor, { name })
    const saved = await editor.put(`/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'Set 1', entries: songIds.map((songId) => ({ songId })) }]
    })
    assert.equal(saved.statusCode, 200, saved.body)
    return gig.id as number
  }
  const samGigs = []
  for (let i = 0; i < DOCUMENTS_PER_USER; i++) samGigs.push(await gigWith(`Book ${i}`, ids))
  const miaGig = await gigWith('Tonight', ids)

  const finished: string[] = []
  const samBooks = samGigs.map((id, i) => sam.get(`/gigs/${id}/songbook.pdf`).then((r) => {
    finished.push(`sam${i}`)
    return r
  }))
  // Sam's songbooks take every thread but one.
  const share = threads - 1
  await until(() => started.length >= share)
  for (let i = 0; i < 100; i++) await turn()
  assert.equal(started.length, share, 'a thread stays free for the band')
  assert.ok(started.every(({ job }) => job.kind === 'songbook'))
  // A fifth document of Sam's is refused: at most DOCUMENTS_PER_USER in flight.
  const fifth = await sam.get(`/gigs/${miaGig}/setlist.pdf`)
  assert.equal(fifth.statusCode, 429)
  assert.equal(json<ErrorResponseBody>(fifth).code, 'RATE_LIMITED')

  const setlist = mia.get(`/gigs/${miaGig}/setlist.pdf`).then((r) => {
    finished.push('mia')
    return r
  })
  // Mia's setlist starts at once on the thread Sam's songbooks leave free.
  await until(() => started.length > share)
  assert.equal(started[share]!.job.kind, 'setlist', 'ahead of Sam\'s waiting songbooks')
  started[share]!.release()
  const answer = await setlist
  assert.equal(answer.statusCode, 200)
  assert.match(pdfText(answer.rawPayload), /Tonight/)
  assert.deepEqual(finished, ['mia'], 'answered while all of Sam\'s songbooks were in flight')

  letAll()
  for (const book of await Promise.all(samBooks)) assert.equal(book.statusCode, 200)
  assert.equal(finished.length, DOCUMENTS_PER_USER + 1)

  // A songbook over its chart bound: 413 at once, nothing queued or rendered.
  const [long] = insertSongs(ctx.app, 1)
  ctx.app.db.update(songs).set({ chart: 'x'.repeat(MAX_CHART_BYTES) })
    .where(inArray(songs.id, [long!])).run()
  const entries = MAX_SONGBOOK_CHART_BYTES / MAX_CHART_BYTES + 1
  const tooLong = await gigWith('Too long', Array<number>(entries).fill(long!))
  const refused = await sam.get(`/gigs/${tooLong}/songbook.pdf`)
  assert.equal(refused.statusCode, 413)
  assert.equal(json<ErrorResponseBody>(refused).code, 'CHARTS_TOO_LARGE')
  assert.match(json<ErrorResponseBody>(refused).message, /songbook.*at most 1 MiB/)
  assert.equal(rendered.length, DOCUMENTS_PER_USER + 1, 'never rendered')
  const spec = ctx.app.swagger() as {
    paths: Record<string, { get: { responses: Record<string, unknown> } }>
  }
  assert.ok('413' in spec.paths['/gigs/{id}/songbook.pdf']!.get.responses)
})
