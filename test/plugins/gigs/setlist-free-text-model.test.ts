import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { projectPath } from '#src/project-path.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { pdfText } from '#test/pdf-tools.js'

// The web app's setlist model with free-text entries against the API: what the
// editor sends is what the server stores, and the timing it shows is the server's. Also the
// keyboard-move logic split out of SetlistEditor.svelte.
type Model = typeof import('../../../web/src/lib/setlist/model.js')
type Keys = typeof import('../../../web/src/lib/setlist/keyboard-move.js')
const { addOperation, apply, fromServer, newEntry, newTextEntry, timingOf, titleOf, toBody } =
  (await import(
    pathToFileURL(projectPath('web', 'src', 'lib', 'setlist', 'model.ts')).href
  )) as Model
const { stepTarget, stepOfKey } = (await import(
  pathToFileURL(projectPath('web', 'src', 'lib', 'setlist', 'keyboard-move.ts')).href
)) as Keys

test('setlist model: free-text entries saved as the editor sends them, timed as the server',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const a = insertSong(ctx.app, 'Alpha', { durationSeconds: 210 })
    const config = json<Ok<'/public/app_config', 'get'>>(await editor.get('/public/app_config'))
    const gig = await createGig(editor, { date: '2026-07-04', startTime: '19:30' })
    const start = json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`))
    const alpha = json<Ok<'/songs', 'get'>>(await editor.get('/songs')).find((s) => s.id === a)

    const sets = fromServer(start.sets)
    const set = { key: 's', id: null, name: 'Dinner', breakAfterSeconds: null, entries: [] }
    apply(sets, { type: 'addSet', set, after: null })
    const speech = newTextEntry('Speech')
    apply(sets, addOperation(sets, speech, 's'))
    apply(sets, addOperation(sets, newEntry({ ...alpha!, hasChart: false }), 's'))
    apply(sets, addOperation(sets, newTextEntry('Cake'), 's'))
    apply(sets, { type: 'updateEntry', entry: speech.key, changes: { durationSeconds: 95 } })
    apply(sets, { type: 'updateEntry', entry: speech.key, changes: { title: 'Toast' } })
    const body = toBody(start.version, sets)
    assert.deepEqual(
      body.sets[0]!.entries.map((e) => [e.title, e.songId]),
      [
        ['Toast', undefined],
        [undefined, a],
        ['Cake', undefined]
      ]
    )
    const res = await editor.put(`/gigs/${gig.id}/setlist`, body)
    assert.equal(res.statusCode, 200, res.body)
    const server = json<Ok<'/gigs/{id}/setlist', 'put'>>(res)
    const draft = fromServer(server.sets)
    assert.deepEqual(draft[0]!.entries.map(titleOf), ['Toast', 'Alpha', 'Cake'])
    assert.deepEqual(draft[0]!.entries.map((e) => e.song?.title ?? null), [null, 'Alpha', null])
    const mine = timingOf(draft, gig, config.timing)
    assert.equal(mine.totalSeconds, server.totalSeconds)
    assert.deepEqual(
      mine.sets[0]!.entries.map((e) => [e.plannedStart, e.durationSeconds]),
      server.sets[0]!.entries.map((e) => [e.plannedStart, e.durationSeconds])
    )
    assert.deepEqual(
      server.sets[0]!.entries.map((e) => e.durationSeconds),
      [95, 210, 0]
    )
    // The songbook (charts) has no free-text entry: it is a PDF of the songs only.
    const songbook = await editor.get(`/gigs/${gig.id}/songbook.pdf`)
    assert.equal(songbook.statusCode, 200)
    const text = pdfText(songbook.rawPayload)
    assert.match(text, /Alpha/)
    assert.doesNotMatch(text, /Toast|Cake/)
  })

test('keyboard move: a step within a set, across sets, and at either end', () => {
  const entry = (key: string) => ({ key }) as never
  const sets = [
    { key: 'a', entries: [entry('1'), entry('2')] },
    { key: 'b', entries: [entry('3')] }
  ] as never
  assert.deepEqual(stepTarget(sets, '2', -1), { kind: 'move', setKey: 'a', index: 0 })
  assert.deepEqual(stepTarget(sets, '2', 1), { kind: 'move', setKey: 'b', index: 0 })
  assert.deepEqual(stepTarget(sets, '3', -1), { kind: 'move', setKey: 'a', index: 2 })
  assert.deepEqual(stepTarget(sets, '1', -1), { kind: 'atStart' })
  assert.deepEqual(stepTarget(sets, '3', 1), { kind: 'atEnd' })
  assert.equal(stepTarget(sets, 'nope', 1), null)
  const key = (init: KeyboardEventInit) => init as KeyboardEvent
  assert.equal(stepOfKey(key({ key: 'ArrowUp' })), -1)
  assert.equal(stepOfKey(key({ key: 'ArrowDown' })), 1)
  assert.equal(stepOfKey(key({ key: 'ArrowDown', shiftKey: true })), null)
  assert.equal(stepOfKey(key({ key: 'Enter' })), null)
})
