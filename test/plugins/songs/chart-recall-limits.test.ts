// A chart whose {chorus} recalls would expand past the limits is refused at save; one stored
// before the rule still cannot expand on the server's readers (the songbook).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import {
  anonymous, createTestApp, json, userClient, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { recallBomb } from '#test/chart-bombs.js'
import { pdfText } from '#test/pdf-tools.js'
import { songs } from '#src/db/schema.js'

test('songs: a chart whose recalls expand too far is 400 and stores nothing', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const bomb = recallBomb()
  for (const res of [
    await editor.post('/songs', { title: 'Bomb', chart: bomb }),
    await member.post('/songs', { title: 'Proposed bomb', chart: bomb })
  ]) {
    assert.equal(res.statusCode, 400)
    assert.equal(json<ErrorResponseBody>(res).code, 'CHART_EXPANDS_TOO_FAR')
    assert.match(json<ErrorResponseBody>(res).message, /1000 lines or 4 times its own text/)
  }
  assert.equal(json<Ok<'/songs', 'get'>>(await member.get('/songs')).length, 0)
  // A song's ordinary recalls are fine; changing it into the bomb is refused, the chart kept.
  const ordinary = '{soc}\n[C]La [G]la\n{eoc}\n[Am]Verse\n{chorus}\n[F]Verse\n{chorus}\n'
  const created = await editor.post('/songs', { title: 'Song', chart: ordinary })
  assert.equal(created.statusCode, 201)
  const id = json<Ok<'/songs', 'post'>>(created).id
  const patched = await editor.patch(`/songs/${id}`, { chart: bomb })
  assert.equal(patched.statusCode, 400)
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(await member.get(`/songs/${id}`)).chart, ordinary)
  assert.equal((await anonymous(ctx.app).patch(`/songs/${id}`, { chart: bomb })).statusCode, 401)
})

test('songbook: a recall-bomb chart stored before the rule prints bounded recalls', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const id = insertSong(ctx.app, 'Old bomb')
  // 39 chorus lines recalled ~7,000 times: 270,000 lines without the limits.
  ctx.app.db.update(songs).set({ chart: recallBomb(39) }).where(eq(songs.id, id)).run()
  const gig = await createGig(editor)
  await putSetlist(editor, gig.id, [[id]])
  const res = await member.get(`/gigs/${gig.id}/songbook.pdf`)
  assert.equal(res.statusCode, 200, res.body)
  const lines = pdfText(res.rawPayload).split('\n').filter((line) => /^\s*a\s*$/.test(line))
  // The chorus, then its recalls up to 1,000 lines (each recall's heading counted).
  assert.equal(lines.length, 39 + 39 * 25)
})
