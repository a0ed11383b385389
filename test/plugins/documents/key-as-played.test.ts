import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, json, userClient, type Ok } from '#test/helpers.js'
import { createGig } from '#test/gig-fixtures.js'
import { pdfText } from '#test/export-fixtures.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

// Swing Low in D, moved +2 for the gig with a capo on 2; a B minor chart moved +2. An English band:
// the floor list, the stage list, the text list, the charts and the songbook all say the same key.
const SWING_LOW = '{key: D}\n[D]Swing low, sweet [G]chari[D]ot, [A7]coming for to [D]carry me home'
const MINOR = '{key: Bm}\n[Bm]Dark [G]night, [A]long [F#]way [F#m]home'

test('every setlist and the songbook show the key as played, the chords agreeing', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  const { chordNotation, ...withoutNotation } = { ...DEFAULT_APP_CONFIG, locale: 'en-GB' }
  void chordNotation
  await admin.put('/admin/app_config', { ...withoutNotation, chordNotation: 'english' })
  // A later save without the field (an older client) keeps the English notation.
  await admin.put('/admin/app_config', withoutNotation)
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const swing = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Swing Low', key: 'D', chart: SWING_LOW
  })).id
  const minor = json<Ok<'/songs', 'post'>>(await editor.post('/songs', {
    title: 'Dark Night', key: 'Bm', chart: MINOR
  })).id
  const gig = await createGig(editor, { name: 'Key Night' })
  await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [{
      name: 'Set 1',
      entries: [{ songId: swing, transpose: 2, capo: 2 }, { songId: minor, transpose: 2 }]
    }]
  })

  const charts = json<Ok<'/gigs/{id}/charts', 'get'>>(await editor.get(`/gigs/${gig.id}/charts`))
  assert.equal(charts.notation, 'english')
  assert.deepEqual(charts.charts.map((c) => c.song.keyTransposed), ['E', 'C#m'])

  for (const style of ['print', 'stage']) {
    const text = pdfText((await editor.get(`/gigs/${gig.id}/setlist.pdf?style=${style}`))
      .rawPayload)
    const swingRow = text.split('\n').find((line) => line.includes('Swing Low'))
    assert.match(swingRow ?? '', /\bE\b/, `${style}: Swing Low in E:\n${text}`)
    assert.doesNotMatch(swingRow ?? '', /\bD\b/, style)
    assert.match(text.split('\n').find((line) => line.includes('Dark Night')) ?? '', /C#m/)
  }
  const list = (await editor.get(`/gigs/${gig.id}/setlist.txt`)).body
  assert.match(list, /Swing Low\s+\[E\]/)
  assert.match(list, /Dark Night\s+\[C♯m\]/)

  const book = pdfText((await editor.get(`/gigs/${gig.id}/songbook.pdf`)).rawPayload)
  const [swingPage, minorPage] = book.split('\f') as [string, string]
  assert.match(swingPage, /Sounds in E · Capo 2 · D shapes/)
  // E major: B7, never the German H7.
  assert.match(swingPage, /^\s*E\s+A\s+E\s+B7\s+E\s*$/m)
  assert.doesNotMatch(book, /\bH7?\b/)
  assert.match(minorPage, /Key C# minor/)
  assert.match(minorPage, /^\s*C#m\s+A\s+B\s+G#\s+G#m\s*$/m)
})
