import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, createUser, json, userClient, type Ok } from '#test/helpers.js'
import { insertSong } from '#test/gig-fixtures.js'
import { seedGigs } from '#src/seed/gigs.js'

test(
  'seedGigs: past gigs with a live record, upcoming gigs with setlists, running ' +
    'orders and availability',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const lena = await userClient(ctx.app, 'lena', 'editor')
    const others = await Promise.all(
      ['max', 'jonas', 'sophie', 'tim'].map((n) => createUser(ctx.app, n))
    )
    const songIds = Array.from({ length: 40 }, (_, i) =>
      insertSong(ctx.app, `Demo ${i}`, { durationSeconds: 180 + i * 5 })
    )
    const seeded = seedGigs(ctx.app.db, {
      now: ctx.now(),
      userIds: [lena.user.id, ...others.map((u) => u.id)],
      songIds,
      timezone: 'Europe/Berlin'
    })
    assert.equal(seeded.pastGigIds.length, 3)
    assert.ok(seeded.upcomingGigIds.length >= 3)

    const all = json<Ok<'/gigs', 'get'>>(await lena.get('/gigs'))
    assert.equal(all.length, seeded.gigIds.length)
    assert.equal(json<Ok<'/gigs', 'get'>>(
      await lena.get('/gigs?upcoming=true')).length, seeded.upcomingGigIds.length)

    for (const id of seeded.pastGigIds) {
      const live = json<Ok<'/gigs_lm/{id}', 'get'>>(await lena.get(`/gigs_lm/${id}`))
      const entries = live.sets.flatMap((s: any) => s.entries)
      assert.ok(
        entries.some((e: any) => e.status === 'skipped'),
        'some skipped'
      )
      assert.equal(entries.filter((e: any) => e.inserted).length, 1, 'one inserted')
      assert.ok(entries.every((e: any) => e.status !== 'planned'))
      assert.ok(entries.some((e: any) => e.rating === 3))
      assert.ok(
        entries.filter((e: any) => e.status === 'skipped').every((e: any) => e.rating === null)
      )
      assert.equal(live.current, null)
    }
    for (const id of seeded.upcomingGigIds) {
      const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(await lena.get(`/gigs/${id}/setlist`))
      assert.ok(setlist.sets.length >= 2, 'multiple sets')
      assert.ok(setlist.totalSeconds > 0)
      const schedule = json<Ok<'/gigs/{id}/schedule', 'get'>>(
        await lena.get(`/gigs/${id}/schedule`))
      assert.ok(schedule.items.some((i: any) => i.source === 'set'))
      // A seeded setlist can be edited with its version.
      assert.equal(
        (await lena.put(`/gigs/${id}/setlist`, { version: setlist.version, sets: [] })).statusCode,
        200
      )
    }
    const withItems = json<Ok<'/gigs/{id}/schedule', 'get'>>(
      await lena.get(`/gigs/${seeded.upcomingGigIds[0]}/schedule`))
    assert.ok(withItems.items.some((i: any) => i.source === 'item'))
    const availability = json<Ok<'/gigs/{id}/availability', 'get'>>(
      await lena.get(`/gigs/${seeded.upcomingGigIds[0]}/availability`))
    assert.equal(availability.answers.length, 5)
    assert.ok(availability.summary.yes > 0)
  }
)
