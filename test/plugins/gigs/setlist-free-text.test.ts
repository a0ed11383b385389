import { test } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import {
  anonymous, createTestApp, json, userClient, type ErrorResponseBody, type Ok
} from '#test/helpers.js'
import { createGig, insertSong } from '#test/gig-fixtures.js'
import { pdfText } from '#test/pdf-tools.js'

// Free-text setlist entries: a title, an optional duration and notes, no song.
// They count in the timing, show in live mode and every setlist document, and never in the GEMA
// report.

async function setup (t: { after(fn: () => unknown): void }) {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const a = insertSong(ctx.app, 'Alpha Song', { durationSeconds: 200 })
  const b = insertSong(ctx.app, 'Beta Song', { durationSeconds: 100 })
  const gig = await createGig(editor, { date: '2026-07-04', startTime: '20:00' })
  return { ctx, editor, member, a, b, gig }
}

test('free-text entries: saved, timed, read back beside songs; kept by id', async (t) => {
  const { editor, member, a, b, gig } = await setup(t)
  const res = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 0,
    sets: [
      {
        name: 'Set 1',
        entries: [
          { title: '  Speech of the best man ', durationSeconds: 300, notes: 'mic 2' },
          { songId: a },
          { title: 'Medley intro' },
          { songId: b }
        ]
      }
    ]
  })
  assert.equal(res.statusCode, 200, res.body)
  const [speech, alpha, intro, beta] = json<Ok<'/gigs/{id}/setlist', 'put'>>(res).sets[0]!.entries
  assert.equal(speech!.title, 'Speech of the best man', 'trimmed')
  assert.equal(speech!.songId, null)
  assert.equal(speech!.song, null)
  assert.equal(speech!.notes, 'mic 2')
  assert.equal(speech!.durationSeconds, 300)
  assert.equal(alpha!.title, 'Alpha Song', "a song entry's title is its song's")
  assert.equal(alpha!.song!.title, 'Alpha Song')
  // Timing: 300 + 30 gap, 200 + 30, a free-text entry without duration takes 0 + 30, 100 + 30.
  assert.deepEqual(
    [speech, alpha, intro, beta].map((e) => e!.plannedStart),
    ['20:00', '20:05', '20:09', '20:09']
  )
  assert.equal(intro!.durationSeconds, 0)
  assert.equal(intro!.customDurationSeconds, null)
  assert.equal(
    json<Ok<'/gigs/{id}/setlist', 'put'>>(res).totalSeconds,
    300 + 200 + 0 + 100 + 4 * 30
  )
  assert.deepEqual(json(await member.get(`/gigs/${gig.id}/setlist`)), json(res))

  // Kept by id: a free-text entry can become a song entry and back, its title edited.
  const again = await editor.put(`/gigs/${gig.id}/setlist`, {
    version: 1,
    sets: [
      {
        name: 'Set 1',
        entries: [
          { id: speech!.id, title: 'Toast', durationSeconds: 120 },
          { id: intro!.id, songId: b },
          { id: alpha!.id, title: 'First dance' }
        ]
      }
    ]
  })
  assert.equal(again.statusCode, 200, again.body)
  const entries = json<Ok<'/gigs/{id}/setlist', 'put'>>(again).sets[0]!.entries
  assert.deepEqual(
    entries.map((e) => [e.id, e.title, e.songId]),
    [
      [speech!.id, 'Toast', null],
      [intro!.id, 'Beta Song', b],
      [alpha!.id, 'First dance', null]
    ]
  )
  assert.equal(entries[2]!.song, null)
})

test('free-text entries: 400 for both or neither of songId and title, blank title; 401, 403, 404',
  async (t) => {
    const { ctx, editor, member, a, gig } = await setup(t)
    const put = (entry: Record<string, unknown>, id = gig.id) =>
      editor.put(`/gigs/${id}/setlist`, { version: 0, sets: [{ name: 'S', entries: [entry] }] })
    for (const entry of [{ songId: a, title: 'Both' }, {}, { notes: 'only notes' }]) {
      const res = await put(entry)
      assert.equal(res.statusCode, 400, JSON.stringify(entry))
      assert.equal(json<ErrorResponseBody>(res).code, 'ENTRY_SONG_OR_TITLE')
      assert.match(
        json<ErrorResponseBody>(res).message,
        /sets\.0\.entries\.0: give either songId .* or title/
      )
    }
    for (const title of ['', '   ', 'x'.repeat(201)]) {
      const res = await put({ title })
      assert.equal(res.statusCode, 400, title)
      assert.equal(json<ErrorResponseBody>(res).code, 'VALIDATION_ERROR')
    }
    assert.equal((await put({ title: 'Speech', durationSeconds: 0 })).statusCode, 400)
    // Nothing half-written: the setlist is still empty at version 0.
    assert.deepEqual(
      json<Ok<'/gigs/{id}/setlist', 'get'>>(await editor.get(`/gigs/${gig.id}/setlist`)).sets,
      []
    )
    assert.equal((await put({ title: 'Speech' }, 999999)).statusCode, 404)
    const forbidden = await member.put(`/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'S', entries: [{ title: 'Speech' }] }]
    })
    assert.equal(forbidden.statusCode, 403)
    const anon = await anonymous(ctx.app).put(`/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [{ name: 'S', entries: [{ title: 'Speech' }] }]
    })
    assert.equal(anon.statusCode, 401)
  })

test('free-text entries: live mode steps through them; documents show them; GEMA never does',
  async (t) => {
    const { editor, member, a, b, gig } = await setup(t)
    const saved = await editor.put(`/gigs/${gig.id}/setlist`, {
      version: 0,
      sets: [
        {
          name: 'Dinner',
          entries: [{ title: 'Welcome speech', durationSeconds: 240 }, { songId: a }]
        },
        { name: 'Party', entries: [{ title: 'First dance intro' }, { songId: b }] }
      ]
    })
    assert.equal(saved.statusCode, 200, saved.body)
    const [speech, alpha, dance] =
      json<Ok<'/gigs/{id}/setlist', 'put'>>(saved).sets.flatMap((s) => s.entries)

    // Live: the free-text entry is the current entry, without a chart, and is stepped past.
    const live = json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`))
    assert.equal(live.current!.id, speech!.id)
    assert.equal(live.current!.title, 'Welcome speech')
    assert.equal(live.current!.song, null)
    const tap = await editor.put(`/gigs_lm/${gig.id}/`, { entryId: speech!.id, status: 'played' })
    assert.equal(tap.statusCode, 200, tap.body)
    assert.equal(
      json<Ok<'/gigs_lm/{id}', 'get'>>(await member.get(`/gigs_lm/${gig.id}`)).current!.id,
      alpha!.id
    )
    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: alpha!.id, status: 'played' })
    await editor.put(`/gigs_lm/${gig.id}/`, { entryId: dance!.id, status: 'played' })

    // Charts skip it (it has none).
    const charts = json<Ok<'/gigs/{id}/charts', 'get'>>(await member.get(`/gigs/${gig.id}/charts`))
    assert.deepEqual(
      charts.charts.map((c) => c.song.title),
      ['Alpha Song', 'Beta Song']
    )

    // Setlist PDFs (office and stage), text and CSV show it with its own length (none without).
    const office = pdfText((await member.get(`/gigs/${gig.id}/setlist.pdf`)).rawPayload)
    assert.match(office, /Welcome speech\s+4:00/)
    assert.match(office, /First dance intro/)
    const stage = pdfText((await member.get(`/gigs/${gig.id}/setlist.pdf?style=stage`)).rawPayload)
    assert.match(stage, /Welcome speech/)
    assert.match(stage, /First dance intro/)
    const text = (await member.get(`/gigs/${gig.id}/setlist.txt`)).body
    assert.match(text, /Welcome speech {2}4:00/)
    assert.match(text, /First dance intro\n/)
    assert.doesNotMatch(text, /First dance intro {2}0:00/)
    const csv = (await member.get(`/gigs/${gig.id}/setlist.csv`)).body
    assert.match(csv, /Welcome speech/)

    // The running order counts songs only.
    const schedule = json<Ok<'/gigs/{id}/schedule', 'get'>>(
      await member.get(`/gigs/${gig.id}/schedule`)
    )
    const setRows = schedule.items.filter((item) => item.kind === 'set')
    assert.deepEqual(
      setRows.map((item) => item.songCount),
      [1, 1]
    )

    // GEMA: the works not skipped (Beta is still planned, so it counts), never a free-text entry,
    // though two were "played".
    const gema = await member.get(`/gigs/${gig.id}/gema`)
    assert.equal(gema.statusCode, 200)
    const rows = XLSX.utils.sheet_to_json<Array<string | number>>(
      XLSX.read(gema.rawPayload, { type: 'buffer' }).Sheets['Titelliste']!,
      { header: 1, defval: '' }
    )
    const heading = rows.findIndex((r) => r[0] === 'Werknummer')
    assert.deepEqual(
      rows.slice(heading + 1).map((r) => r[1]),
      ['Alpha Song', 'Beta Song']
    )
    assert.ok(!JSON.stringify(rows).includes('Welcome speech'))
    assert.ok(!JSON.stringify(rows).includes('First dance'))
  })

test('free-text entries in a repertoire setlist, copied into a gig', async (t) => {
  const { editor, a, gig } = await setup(t)
  const list = json<Ok<'/repertoire', 'post'>>(
    await editor.post('/repertoire', { name: 'Wedding' })
  )
  const res = await editor.put(`/repertoire/${list.id}/setlist`, {
    version: list.version,
    sets: [{ name: 'Ceremony', entries: [{ title: 'Vows', durationSeconds: 600 }, { songId: a }] }]
  })
  assert.equal(res.statusCode, 200, res.body)
  const saved = json<Ok<'/repertoire/{id}/setlist', 'put'>>(res)
  assert.deepEqual(
    saved.sets[0]!.entries.map((e) => [e.title, e.songId, e.durationSeconds]),
    [
      ['Vows', null, 600],
      ['Alpha Song', a, 200]
    ]
  )
  const summary = json<Ok<'/repertoire', 'get'>>(await editor.get('/repertoire'))
    .find((l) => l.id === list.id)
  assert.equal(summary!.songCount, 1, 'a free-text entry is no song')
  const pdf = pdfText((await editor.get(`/repertoire/${list.id}/setlist.pdf`)).rawPayload)
  assert.match(pdf, /Vows/)
  // Copied into a gig (the "use this programme" way), the free-text entry goes along.
  const copy = await editor.post(`/gigs/${gig.id}/setlist/copy`, {
    repertoireId: list.id,
    version: 0
  })
  assert.equal(copy.statusCode, 200, copy.body)
  assert.deepEqual(
    json<Ok<'/gigs/{id}/setlist/copy', 'post'>>(copy)
      .sets[0]!.entries.map((e) => [e.title, e.songId]),
    [
      ['Vows', null],
      ['Alpha Song', a]
    ]
  )
})
