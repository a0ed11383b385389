import { test } from 'node:test'
import assert from 'node:assert/strict'
import { eq } from '#src/db/orm.js'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { gigs, setlistEntries } from '#src/db/schema.js'

test(
  'setlist: sets with timing (song duration, default, gap, break, no break ' +
    'after last, after midnight)',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')
    const a = insertSong(ctx.app, 'A', { durationSeconds: 270, key: 'C', leadSinger: 'Mia' })
    const b = insertSong(ctx.app, 'B', { durationSeconds: null })
    const c = insertSong(ctx.app, 'C', { durationSeconds: 180 })
    const g = await createGig(editor, { date: '2026-07-04', startTime: '23:00' })

    const empty = json<Ok<'/gigs/{id}/setlist', 'get'>>(await member.get(`/gigs/${g.id}/setlist`))
    assert.deepEqual(empty, { gigId: g.id, version: 0, sets: [], totalSeconds: 0 })

    const res = await editor.put(`/gigs/${g.id}/setlist`, {
      version: 0,
      sets: [
        {
          name: 'Erstes Set',
          breakAfterSeconds: 900,
          entries: [{ songId: a, notes: 'Intro lang' }, { songId: b }]
        },
        { name: 'Zweites Set', entries: [{ songId: c, durationSeconds: 300 }] }
      ]
    })
    assert.equal(res.statusCode, 200, res.body)
    const s = json<Ok<'/gigs/{id}/setlist', 'put'>>(res)
    assert.equal(s.version, 1)
    const [one, two] = s.sets
    assert.equal(one!.name, 'Erstes Set')
    assert.deepEqual(
      one!.entries.map((e: any) => e.plannedStart),
      ['23:00', '23:05']
    )
    assert.equal(one!.entries[0]!.song!.title, 'A')
    assert.equal(one!.entries[0]!.song!.key, 'C')
    assert.equal(one!.entries[0]!.notes, 'Intro lang')
    assert.equal(one!.entries[1]!.durationSeconds, 240, 'no song duration: the configured default')
    assert.equal(one!.start, '23:00')
    // 270+30 + 240+30 = 570 s → 23:09:30, shown as 23:09
    assert.equal(one!.end, '23:09')
    assert.equal(one!.breakAfterSeconds, 900)
    // second set starts after the 900 s break: 23:24:30
    assert.equal(two!.start, '23:24')
    assert.equal(two!.entries[0]!.durationSeconds, 300)
    assert.equal(two!.entries[0]!.customDurationSeconds, 300)
    assert.equal(two!.end, '23:29')
    assert.equal(two!.breakAfterSeconds, 600, 'default break from the app config')
    assert.equal(s.totalSeconds, 570 + 900 + 330, 'no break after the last set')
    assert.deepEqual(json<Ok<'/gigs/{id}/setlist', 'get'>>(
      await member.get(`/gigs/${g.id}/setlist`)), s)

    // After midnight the wall clock continues at 00:xx.
    const late = await createGig(editor, { date: '2026-07-04', startTime: '23:58' })
    const l = await putSetlist(editor, late.id, [[a, c]])
    assert.deepEqual(
      l.sets[0].entries.map((e: any) => e.plannedStart),
      ['23:58', '00:03']
    )
    // No start time: the configured default start (20:00).
    const nostart = await createGig(editor, { startTime: null })
    assert.equal((await putSetlist(editor, nostart.id, [[a]])).sets[0].start, '20:00')
  }
)

test(
  'setlist PUT: ids keep live state, reorder and move between sets, removed entries deleted',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const [a, b, c, d] = insertSongs(ctx.app, 4)
    const g = await createGig(editor)
    const s1 = await putSetlist(editor, g.id, [[a!, b!], [c!]])
    const [ea, eb] = s1.sets[0].entries
    const ec = s1.sets[1].entries[0]
    assert.equal(
      (await editor.put(`/gigs_lm/${g.id}/`, { entryId: ea.id, status: 'played', rating: 3 }))
        .statusCode,
      200
    )
    assert.equal(
      (await editor.put(`/gigs_lm/${g.id}`, { entryId: eb.id, status: 'skipped' })).statusCode,
      200
    )

    const res = await editor.put(`/gigs/${g.id}/setlist`, {
      version: s1.version,
      sets: [
        {
          id: s1.sets[1].id,
          name: 'Now first',
          entries: [
            { id: eb.id, songId: b },
            { id: ea.id, songId: a, notes: 'moved' }
          ]
        },
        { name: 'New set', entries: [{ songId: d }] }
      ]
    })
    assert.equal(res.statusCode, 200, res.body)
    const s2 = json<Ok<'/gigs/{id}/setlist', 'put'>>(res)
    assert.equal(s2.version, s1.version + 1)
    assert.equal(s2.sets[0]!.id, s1.sets[1].id)
    assert.equal(s2.sets[0]!.name, 'Now first')
    const [nb, na] = s2.sets[0]!.entries
    assert.equal(nb!.id, eb.id)
    assert.equal(nb!.status, 'skipped')
    assert.equal(na!.id, ea.id)
    assert.equal(na!.status, 'played')
    assert.equal(na!.rating, 3)
    assert.equal(na!.notes, 'moved')
    assert.equal(s2.sets[1]!.entries[0]!.status, 'planned')
    assert.equal(s2.sets[1]!.entries[0]!.inserted, false)
    // entry c and the first set are gone
    assert.equal(
      ctx.app.db.select().from(setlistEntries).where(eq(setlistEntries.id, ec.id)).get(),
      undefined
    )
    assert.equal(s2.sets.length, 2)
    // skipped entry takes no time: the played one starts at 20:00 too
    assert.equal(na!.plannedStart, '20:00')
    // an empty setlist clears everything
    const cleared = json<Ok<'/gigs/{id}/setlist', 'put'>>(
      await editor.put(`/gigs/${g.id}/setlist`, { version: s2.version, sets: [] })
    )
    assert.deepEqual(cleared.sets, [])
  }
)

test(
  'setlist PUT: unknown song, foreign entry/set ids, retired songs → 400 with nothing changed',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const [a, b] = insertSongs(ctx.app, 2)
    const retired = insertSong(ctx.app, 'Old', { status: 'retired' })
    const g = await createGig(editor)
    const other = await createGig(editor, { name: 'Other' })
    const o = await putSetlist(editor, other.id, [[a!]])
    const s1 = await putSetlist(editor, g.id, [[a!, b!]])
    const snapshot = async () => json<Ok<'/gigs/{id}/setlist', 'get'>>(
      await editor.get(`/gigs/${g.id}/setlist`))
    const before = await snapshot()

    const attempt = async (sets: unknown, code: string) => {
      const r = await editor.put(`/gigs/${g.id}/setlist`, { version: s1.version, sets })
      assert.equal(r.statusCode, 400, r.body)
      assert.equal(json<ErrorResponseBody>(r).code, code)
      assert.deepEqual(await snapshot(), before, 'nothing changed (version included)')
    }
    await attempt([{ name: 'X', entries: [{ songId: a }, { songId: 99999 }] }], 'UNKNOWN_SONG')
    await attempt(
      [{ name: 'X', entries: [{ id: o.sets[0].entries[0].id, songId: a }] }],
      'ENTRY_NOT_IN_GIG'
    )
    await attempt([{ id: o.sets[0].id, name: 'X', entries: [] }], 'SET_NOT_IN_GIG')
    await attempt(
      [
        {
          name: 'X',
          entries: [
            { id: s1.sets[0].entries[0].id, songId: a },
            { id: s1.sets[0].entries[0].id, songId: a }
          ]
        }
      ],
      'DUPLICATE_ID'
    )
    await attempt([{ name: 'X', entries: [{ songId: retired }] }], 'SONG_RETIRED')
    const invalid = await editor.put(`/gigs/${g.id}/setlist`, {
      version: s1.version,
      sets: [{ name: '', entries: [{ songId: 'x', extra: 1 }] }]
    })
    assert.equal(invalid.statusCode, 400)
    assert.equal((await editor.put(`/gigs/${g.id}/setlist`, { sets: [] })).statusCode, 400)

    // A song already in the setlist may stay after it was retired.
    const c = insertSong(ctx.app, 'Soon retired')
    const s2 = await putSetlist(editor, g.id, [[a!, c]], s1.version)
    ctx.app.sqlite.prepare('UPDATE songs SET status = ? WHERE id = ?').run('retired', c)
    const kept = await editor.put(`/gigs/${g.id}/setlist`, {
      version: s2.version,
      sets: [{ name: 'Set 1', entries: [{ id: s2.sets[0].entries[1].id, songId: c }] }]
    })
    assert.equal(kept.statusCode, 200, kept.body)
    assert.equal(json<Ok<'/gigs/{id}/setlist', 'put'>>(
      kept).sets[0]!.entries[0]!.song!.status, 'retired')
  }
)

test('setlist: 401, 403, 404 and stale version 409 with the current setlist', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const [a, b] = insertSongs(ctx.app, 2)
  const g = await createGig(editor)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${g.id}/setlist`)).statusCode, 401)
  assert.equal(
    (await anonymous(ctx.app).put(`/gigs/${g.id}/setlist`, { version: 0, sets: [] })).statusCode,
    401
  )
  assert.equal(
    (await member.put(`/gigs/${g.id}/setlist`, { version: 0, sets: [] })).statusCode,
    403
  )
  assert.equal((await member.get('/gigs/999/setlist')).statusCode, 404)
  const nf = await editor.put('/gigs/999/setlist', { version: 0, sets: [] })
  assert.equal(nf.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(nf).code, 'GIG_NOT_FOUND')

  const s1 = await putSetlist(editor, g.id, [[a!]])
  const stale = await editor.put(`/gigs/${g.id}/setlist`, {
    version: 0,
    sets: [{ name: 'Mine', entries: [{ songId: b }] }]
  })
  assert.equal(stale.statusCode, 409)
  const body = json<ErrorResponseBody & { current: unknown }>(stale)
  assert.equal(body.code, 'SETLIST_VERSION_CONFLICT')
  assert.deepEqual(body.current, s1)
  assert.deepEqual(
    json<Ok<'/gigs/{id}/setlist', 'get'>>(await member.get(`/gigs/${g.id}/setlist`)),
    s1,
    'the stale save changed nothing'
  )
})

test('two setlist saves racing on the same version: exactly one 409', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const one = await userClient(ctx.app, 'eddie', 'editor')
  const two = await userClient(ctx.app, 'erna', 'editor')
  const [a, b] = insertSongs(ctx.app, 2)
  const g = await createGig(one)
  const base = await putSetlist(one, g.id, [[a!]])
  const results = await Promise.all([
    one.put(`/gigs/${g.id}/setlist`, {
      version: base.version,
      sets: [{ name: 'One', entries: [{ songId: a }] }]
    }),
    two.put(`/gigs/${g.id}/setlist`, {
      version: base.version,
      sets: [{ name: 'Two', entries: [{ songId: b }] }]
    })
  ])
  const codes = results.map((r) => r.statusCode).sort()
  assert.deepEqual(codes, [200, 409])
  const winner = json<Ok<'/gigs/{id}/setlist', 'put'>>(results.find((r) => r.statusCode === 200)!)
  const loser = json<ErrorResponseBody & { current: unknown }>(
    results.find((r) => r.statusCode === 409)!)
  assert.deepEqual(loser.current, winner)
  assert.equal(
    ctx.app.db.select({ v: gigs.setlistVersion }).from(gigs).where(eq(gigs.id, g.id)).get()!.v,
    base.version + 1
  )
})

test(
  'setlist PUT: the same number of statements for a small and a 60-entry four-set setlist',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const songIds = insertSongs(ctx.app, 70)
    const chunk = (ids: number[], size: number) =>
      Array.from({ length: Math.ceil(ids.length / size) }, (_, i) =>
        ids.slice(i * size, i * size + size)
      )
    const small = await putSetlist(editor, (await createGig(editor)).id, [
      songIds.slice(0, 2),
      songIds.slice(2, 4)
    ])
    const large = await putSetlist(
      editor,
      (await createGig(editor)).id,
      chunk(songIds.slice(0, 60), 15)
    )
    assert.equal(large.sets.length, 4)
    const liveEntry = large.sets[2].entries[7]
    assert.equal(
      (
        await editor.put(`/gigs_lm/${large.gigId}`, {
          entryId: liveEntry.id,
          status: 'played',
          rating: 2
        })
      ).statusCode,
      200
    )
    const version = json<Ok<'/gigs/{id}/setlist', 'get'>>(
      await editor.get(`/gigs/${large.gigId}/setlist`)).version

    // Every kind of write in both: sets and entries kept (reversed, so all of them move), one set
    // and one entry new, one set and one entry removed.
    const resave = (setlist: any, currentVersion: number) =>
      editor.put(`/gigs/${setlist.gigId}/setlist`, {
        version: currentVersion,
        sets: [
          ...setlist.sets
            .slice(1)
            .reverse()
            .map((set: any, i: number) => ({
              id: set.id,
              name: `Kept ${i}`,
              breakAfterSeconds: 300 + i,
              entries: set.entries
                .slice(1)
                .reverse()
                .map((e: any, j: number) => ({
                  id: e.id,
                  songId: e.songId,
                  notes: `n${j}`,
                  durationSeconds: 100 + j
                }))
            })),
          { name: 'New', entries: [{ songId: songIds[65] }, { songId: songIds[66] }] }
        ]
      })
    const a = await countStatements(ctx.app, () => resave(small, small.version))
    const b = await countStatements(ctx.app, () => resave(large, version))
    assert.equal(a.result.statusCode, 200, a.result.body)
    assert.equal(b.result.statusCode, 200, b.result.body)
    assert.equal(
      b.statements,
      a.statements,
      `small: ${a.statements}, large: ${b.statements}\n${b.sql.join('\n')}`
    )
    assert.equal(b.sql.filter((q) => /^UPDATE "setlist_entries"/i.test(q)).length, 1)

    const saved = json<Ok<'/gigs/{id}/setlist', 'put'>>(b.result)
    assert.deepEqual(
      saved.sets.map((s: any) => s.name),
      ['Kept 0', 'Kept 1', 'Kept 2', 'New']
    )
    assert.deepEqual(saved.sets.map((s: any) => s.id).slice(0, 3), [
      large.sets[3].id,
      large.sets[2].id,
      large.sets[1].id
    ])
    assert.deepEqual(
      saved.sets.map((s: any) => s.customBreakAfterSeconds),
      [300, 301, 302, null]
    )
    const moved = saved.sets[1]!.entries
    assert.deepEqual(
      moved.map((e: any) => e.id),
      large.sets[2].entries
        .slice(1)
        .reverse()
        .map((e: any) => e.id)
    )
    assert.deepEqual(
      moved.map((e: any) => e.notes),
      Array.from({ length: 14 }, (_, j) => `n${j}`)
    )
    assert.deepEqual(
      moved.map((e: any) => e.customDurationSeconds),
      Array.from({ length: 14 }, (_, j) => 100 + j)
    )
    const live = moved.find((e: any) => e.id === liveEntry.id)
    assert.equal(live!.status, 'played', 'live state kept')
    assert.equal(live!.rating, 2)
    assert.deepEqual(
      saved.sets[3]!.entries.map((e: any) => [e.songId, e.status]),
      [
        [songIds[65], 'planned'],
        [songIds[66], 'planned']
      ]
    )
    assert.equal(
      ctx.app.db.select().from(setlistEntries).where(eq(setlistEntries.gigId, large.gigId)).all()
        .length,
      3 * 14 + 2
    )
  }
)
