import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, json, userClient, type Ok, type ErrorResponseBody } from '#test/helpers.js'
import { projectPath } from '#src/project-path.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { pathToFileURL } from 'node:url'
// The web app's module, imported by URL (its folder is the web app's, not the server's).
type Model = typeof import('../../web/src/lib/setlist/model.js')
type DraftSet = import('../../web/src/lib/setlist/model.js').DraftSet
type Operation = import('../../web/src/lib/setlist/model.js').Operation
type Changes = typeof import('../../web/src/lib/setlist/changes.js')
const {
  addOperation,
  apply,
  ELAPSED,
  fromServer,
  moveOperation,
  newEntry,
  record,
  replay,
  sameSetlist,
  timingOf,
  toBody
} = (await import(
  pathToFileURL(projectPath('web', 'src', 'lib', 'setlist', 'model.ts')).href
)) as Model
const { describeChanges } = (await import(
  pathToFileURL(projectPath('web', 'src', 'lib', 'setlist', 'changes.ts')).href
)) as Changes

// The web app's setlist editor model (web/src/lib/setlist/model.ts) against the API's answers:
// the timing it shows while editing is the server's, its body saves what it shows, and the edits
// of a user replay on top of another user's newer version.

const titles = (sets: DraftSet[]) => sets.map((set) => set.entries.map((e) => e.title))

test('setlist model: the editor’s timing equals the server’s on the same setlists', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const a = insertSong(ctx.app, 'A', { durationSeconds: 271 })
  const b = insertSong(ctx.app, 'B', { durationSeconds: null })
  const c = insertSong(ctx.app, 'C', { durationSeconds: 185 })
  const config = json<Ok<'/public/app_config', 'get'>>(await editor.get('/public/app_config'))
  const gigs = [
    await createGig(editor, { date: '2026-07-04', startTime: '23:10' }), // past midnight
    await createGig(editor, { date: '2026-03-29', startTime: '01:40' }), // the DST night
    await createGig(editor, { date: '2026-08-01', startTime: null }) // the default start
  ]
  const setlists = [
    [
      {
        name: 'One',
        breakAfterSeconds: 1234,
        entries: [{ songId: a }, { songId: b, durationSeconds: 61 }, { songId: c }]
      },
      { name: 'Two', entries: [{ songId: b }, { songId: a, durationSeconds: 7200 }] },
      { name: 'Three', breakAfterSeconds: 0, entries: [] },
      { name: 'Four', entries: [{ songId: c }] }
    ],
    [{ name: 'Only', breakAfterSeconds: 0, entries: [{ songId: c }, { songId: c }] }]
  ]
  for (const gig of gigs) {
    for (const sets of setlists) {
      const current = json<Ok<'/gigs/{id}/setlist', 'get'>>(
        await editor.get(`/gigs/${gig.id}/setlist`))
      const res = await editor.put(`/gigs/${gig.id}/setlist`, { version: current.version, sets })
      assert.equal(res.statusCode, 200, res.body)
      const server = json<Ok<'/gigs/{id}/setlist', 'put'>>(res)
      const draft = fromServer(server.sets)
      const mine = timingOf(draft, gig, config.timing)
      assert.equal(mine.totalSeconds, server.totalSeconds)
      assert.deepEqual(
        mine.sets.map((set) => ({
          start: set.start,
          end: set.end,
          durationSeconds: set.durationSeconds,
          breakAfterSeconds: set.breakAfterSeconds,
          entries: set.entries.map((e) => [e.plannedStart, e.durationSeconds])
        })),
        server.sets.map((set: any) => ({
          start: set.start,
          end: set.end,
          durationSeconds: set.durationSeconds,
          breakAfterSeconds: set.breakAfterSeconds,
          entries: set.entries.map((e: any) => [e.plannedStart, e.durationSeconds])
        })),
        `gig ${gig.date} ${gig.startTime}`
      )
    }
  }

  // Skipped entries (live mode) take no time, on both sides.
  const gig = gigs[0]
  const before = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
  const skip = await editor.put(`/gigs_lm/${gig.id}/`, {
    entryId: before.sets[0]!.entries[0]!.id,
    status: 'skipped'
  })
  assert.equal(skip.statusCode, 200, skip.body)
  const after = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
  const mine = timingOf(fromServer(after.sets), gig, config.timing)
  assert.deepEqual(
    mine.sets[0]!.entries.map((e) => e.plannedStart),
    after.sets[0]!.entries.map((e: any) => e.plannedStart)
  )
  assert.notEqual(mine.totalSeconds, before.totalSeconds)
  assert.equal(mine.totalSeconds, after.totalSeconds)

  // A programme (repertoire setlist) counts from 00:00, as the server does.
  const programme = await editor.post('/repertoire', { name: 'Standard', sets: setlists[0] })
  assert.equal(programme.statusCode, 201, programme.body)
  const p = json<Ok<'/repertoire', 'post'>>(programme)
  const pt = timingOf(fromServer(p.sets), ELAPSED, config.timing)
  assert.equal(pt.totalSeconds, p.totalSeconds)
  assert.deepEqual(
    pt.sets.flatMap((set) => set.entries.map((e) => e.plannedStart)),
    p.sets.flatMap((set: any) => set.entries.map((e: any) => e.plannedStart))
  )
})

test('setlist model: the body saves what is shown; edits replay on a newer version', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const ids = ['A', 'B', 'C', 'D', 'E'].map((title) => insertSong(ctx.app, title))
  const [a, b, c, d, e] = ids as [number, number, number, number, number]
  const gig = await createGig(editor)
  const first = json<Ok<'/gigs/{id}/setlist', 'put'>>(
    await editor.put(`/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [
        { name: 'One', entries: [{ songId: a, notes: 'Intro' }, { songId: b }, { songId: c }] },
        { name: 'Two', breakAfterSeconds: 60, entries: [{ songId: d }] }
      ]
    })
  )
  const base = fromServer(first.sets)

  // Saving the unchanged draft changes nothing (every field round-trips).
  const same = json<Ok<'/gigs/{id}/setlist', 'put'>>(
    await editor.put(`/gigs/${gig.id}/setlist`, toBody(first.version, base))
  )
  assert.ok(sameSetlist(fromServer(same.sets), base))
  assert.deepEqual(fromServer(same.sets), base, 'ids kept, nothing lost')

  // My edits: C to the top of One, A to Two, E added to Two, notes on B.
  const mine = fromServer(same.sets)
  const log: Operation[] = []
  const run = (op: Operation | null) => {
    assert.ok(op)
    assert.ok(apply(mine, op))
    record(log, op)
  }
  const key = (title: string) =>
    mine.flatMap((set) => set.entries).find((entry) => entry.title === title)!.key
  run(moveOperation(mine, key('C'), mine[0]!.key, 1))
  run(moveOperation(mine, key('C'), mine[0]!.key, 0)) // folded into one move
  run(moveOperation(mine, key('A'), mine[1]!.key, 1))
  const song = { ...same.sets[0]!.entries[0]!.song!, id: e, title: 'E' }
  run(addOperation(mine, newEntry(song), mine[1]!.key))
  run({ type: 'updateEntry', entry: key('B'), changes: { notes: 'Slow' } })
  run({ type: 'updateEntry', entry: key('B'), changes: { notes: 'Slower' } })
  assert.equal(log.length, 4, 'step-by-step moves and typing are one operation each')
  assert.deepEqual(titles(mine), [['C', 'B'], ['D', 'A', 'E']])
  assert.equal(moveOperation(mine, key('C'), mine[0]!.key, 0), null, 'already there')

  // Meanwhile someone else: removes D, renames One, adds a third set (version + 1).
  const theirs = json<Ok<'/gigs/{id}/setlist', 'put'>>(
    await editor.put(`/gigs/${gig.id}/setlist`, {
      version: same.version,
      sets: [
        {
          id: same.sets[0]!.id,
          name: 'Opener',
          entries: same.sets[0]!.entries.map((x: any) => ({
            id: x.id,
            songId: x.songId,
            notes: x.notes
          }))
        },
        { id: same.sets[1]!.id, name: 'Two', breakAfterSeconds: 60, entries: [] },
        { name: 'Encore', entries: [{ songId: d }] }
      ]
    })
  )
  const stale = await editor.put(`/gigs/${gig.id}/setlist`, toBody(same.version, mine))
  assert.equal(stale.statusCode, 409)
  const current = json<ErrorResponseBody & { current: Ok<'/gigs/{id}/setlist', 'get'> }>(
    stale).current
  assert.equal(current.version, theirs.version)

  const changes = describeChanges(base, fromServer(current.sets))
  assert.deepEqual(changes, [
    { kind: 'setRenamed', set: 'Opener', from: 'One' },
    { kind: 'setAdded', set: 'Encore' },
    { kind: 'added', title: 'D', set: 'Encore' },
    { kind: 'removed', title: 'D', set: 'Two' }
  ])

  const rebased = replay(fromServer(current.sets), log)
  assert.equal(rebased.skipped, 0)
  assert.deepEqual(titles(rebased.sets), [['C', 'B'], ['A', 'E'], ['D']])
  assert.deepEqual(
    rebased.sets.map((set) => set.name),
    ['Opener', 'Two', 'Encore'],
    'their rename stays'
  )
  const saved = json<Ok<'/gigs/{id}/setlist', 'put'>>(
    await editor.put(`/gigs/${gig.id}/setlist`, toBody(current.version, rebased.sets))
  )
  assert.deepEqual(titles(fromServer(saved.sets)), [['C', 'B'], ['A', 'E'], ['D']])
  assert.equal(saved.sets[0]!.entries[1]!.notes, 'Slower')
  assert.equal(saved.sets[0]!.entries[1]!.id, first.sets[0]!.entries[1]!.id, 'B kept its entry id')

  // An edit whose target is gone is skipped, the rest applies.
  const gone = replay(fromServer(current.sets), [
    { type: 'updateEntry', entry: 'e999999', changes: { notes: 'x' } },
    ...log
  ])
  assert.equal(gone.skipped, 1)
})
