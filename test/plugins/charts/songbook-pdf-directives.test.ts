import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig } from '#test/gig-fixtures.js'
import { pdfText } from '#test/export-fixtures.js'
import { projectPath } from '#src/project-path.js'

test('the songbook PDF prints a file with every directive as the song alone', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const chart = readFileSync(projectPath('test', 'fixtures', 'charts', 'every-directive.cho'),
    'utf8')
  const song = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'The Lighthouse Keeper', chart
  })).id
  const gig = await createGig(editor)
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0, sets: [{ name: 'Set 1', entries: [{ songId: song }] }]
  })
  const res = await editor.get(`/gigs/${gig.id}/songbook.pdf`)
  assert.equal(res.statusCode, 200)
  const text = pdfText(res.rawPayload)
  assert.match(text, /The lamp is lit, the tide is high/)
  assert.match(text, /Spoken: "and now, the last verse"/)
  for (const hidden of ['X: 1', 'K: G', 'relative', 'SVG SOURCE', 'MUSICXML', 'spread',
    'example.org', 'columns', 'Courier', '<b>', 'span']) {
    assert.ok(!text.includes(hidden), `the songbook prints "${hidden}"`)
  }
})
