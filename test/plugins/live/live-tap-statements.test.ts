import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { loadLiveState } from '#src/repositories/live.js'
import { countStatements, createTestApp, json, userClient } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'

const count = (list: string[], source: string) => list.filter((s) => s === source).length

/** A real follower (inject cannot stream): resolves with each snapshot frame's data. */
async function follow (base: string, path: string, cookie: string) {
  const controller = new AbortController()
  const res = await fetch(base + path, { headers: { cookie }, signal: controller.signal })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  async function nextSnapshot (): Promise<any> {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = /^data: (.*)$/m.exec(frame)
        if (/^event: snapshot$/m.test(frame) && data) return JSON.parse(data[1]!)
        continue
      }
      const chunk = await reader.read()
      if (chunk.done) throw new Error('the stream ended')
      buffer += decoder.decode(chunk.value, { stream: true })
    }
  }
  return { res, nextSnapshot, close: () => controller.abort() }
}

test('a live tap builds the live view once: its answer and the followers\' frame share it',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')
    const songIds = insertSongs(ctx.app, 6)
    const gig = await createGig(editor)
    const setlist = await putSetlist(editor, gig.id, [songIds.slice(0, 3), songIds.slice(3)])
    const entries = setlist.sets[0].entries

    // The statements of one rendering of the view, read straight from the repository.
    const timing = ctx.app.appSettings.get().timing
    const { sql: build } = await countStatements(ctx.app, async () => {
      assert.ok(loadLiveState(ctx.app.db, gig.id, timing))
    })
    assert.ok(build.length > 0)

    const stream = await follow(base, `/gigs_lm/${gig.id}/events`, member.jar.header())
    t.after(() => stream.close())
    assert.equal(stream.res.status, 200)
    await stream.nextSnapshot()

    const tap = async (send: () => ReturnType<typeof editor.put>, status: number) => {
      let answer: any
      let frame: any
      // The tap's own statements and the fan-out's, until the follower has its frame.
      const { sql: seen } = await countStatements(ctx.app, async () => {
        const res = await send()
        assert.equal(res.statusCode, status, res.body)
        answer = json(res)
        frame = await stream.nextSnapshot()
      })
      return { seen, answer, frame }
    }

    const played = await tap(
      () => editor.put(`/gigs_lm/${gig.id}/`, { entryId: entries[0].id, status: 'played' }),
      200
    )
    const entryIn = (view: any, id: number) =>
      view.sets.flatMap((s: any) => s.entries).find((e: any) => e.id === id)
    assert.equal(played.answer.entry.status, 'played')
    assert.deepEqual(played.answer.entry, entryIn(played.frame, entries[0].id))
    assert.equal(played.answer.version, played.frame.version)
    for (const source of new Set(build)) {
      assert.equal(count(played.seen, source), count(build, source),
        `PUT: the view's statement runs as often as in one build: ${source}`)
    }
    t.diagnostic(`PUT tap + fan-out: ${played.seen.length} statements ` +
      `(one view build: ${build.length})`)

    const inserted = await tap(
      () => editor.post(`/gigs_lm/${gig.id}/insert`, {
        songId: songIds[5],
        setId: setlist.sets[0].id
      }),
      201
    )
    assert.equal(inserted.answer.inserted, true)
    assert.deepEqual(inserted.answer, entryIn(inserted.frame, inserted.answer.id))
    for (const source of new Set(build)) {
      assert.equal(count(inserted.seen, source), count(build, source),
        `insert: the view's statement runs as often as in one build: ${source}`)
    }
    t.diagnostic(`insert tap + fan-out: ${inserted.seen.length} statements`)
  })
