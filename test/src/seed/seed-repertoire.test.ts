import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  createTestApp, createUser, json, sessionClient, userClient, type Ok
} from '#test/helpers.js'
import { seedSongs } from '#src/seed/songs.js'
import { seedRehearsals } from '#src/seed/rehearsals.js'
import { seedSurveys } from '#src/seed/surveys.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'
import { KEYS } from '#shared/keys.js'
import { todayIn } from '#shared/local-time.js'

// A Thursday evening in Berlin, rehearsal night: the seeder used to put a "past" rehearsal on
// today, which /rehearsals?upcoming=true counts as upcoming.
const THURSDAY_EVENING = new Date('2026-11-26T19:00:00Z')

test(
  'demo seeders: valid songs with GEMA data, rehearsals past and future, two answered surveys',
  async (t) => {
    const ctx = await createTestApp({}, {}, { startAt: THURSDAY_EVENING })
    t.after(() => ctx.close())
    const viewer = await userClient(ctx.app, 'viewer', 'editor')
    const userIds = [viewer.user.id]
    for (const name of ['lena', 'max', 'jonas', 'sophie', 'tim']) {
      userIds.push((await createUser(ctx.app, name)).id)
    }
    const now = ctx.now()
    const seeded = seedSongs(ctx.app.db, { now, userIds })
    assert.ok(seeded.songIds.length >= 38)
    assert.ok(seeded.readySongIds.length >= 20)
    assert.ok(seeded.proposedSongIds.length >= 3)
    const { rehearsalIds } = seedRehearsals(ctx.app.db, { now, userIds })
    const { surveyIds } = seedSurveys(ctx.app.db, { now, userIds })
    assert.equal(rehearsalIds.length, 8)
    assert.equal(surveyIds.length, 2)

    const all = json<Ok<'/songs', 'get'>>(await viewer.get('/songs?includeRetired=true'))
    assert.equal(all.length, seeded.songIds.length)
    const statuses = new Set(all.map((s: { status: string }) => s.status))
    assert.deepEqual([...statuses].sort(), [
      'accepted',
      'proposed',
      'ready',
      'rehearsing',
      'retired'
    ])
    for (const song of all) {
      const { id, proposedBy, createdAt, updatedAt, hasChart, keyText, ...input } = song
      // the seeded data passes the API's own validation
      const again = await viewer.post('/songs', input)
      assert.equal(again.statusCode, 201, `${song.title}: ${again.body}`)
      assert.ok(KEYS.includes(song.key!), String(song.key))
      assert.ok(DEFAULT_APP_CONFIG.genres.includes(song.genre!), String(song.genre))
      assert.ok(song.gemaWorkNumber && song.composers.length > 0 && song.durationSeconds! > 0)
    }
    const votes = json<Ok<'/songs/{id}/votes', 'get'>>(
      await viewer.get(`/songs/${seeded.proposedSongIds[0]}/votes`))
    assert.ok(votes.votes.length > 0)

    const upcoming = json<Ok<'/rehearsals', 'get'>>(await viewer.get('/rehearsals?upcoming=true'))
    assert.equal(upcoming.length, 4)
    assert.ok(upcoming.every((r: { songs: unknown[] }) => r.songs.length >= 3))
    assert.equal(json<Ok<'/rehearsals', 'get'>>(await viewer.get('/rehearsals')).length, 8)

    const surveys = json<Ok<'/surveys', 'get'>>(await viewer.get('/surveys'))
    assert.deepEqual(surveys.map((s: { kind: string }) => s.kind).sort(), ['date', 'poll'])
    for (const s of surveys) {
      assert.equal(s.status, 'open')
      assert.ok(s.responseCount >= 4)
      const detail = json<Ok<'/surveys/{id}', 'get'>>(await viewer.get(`/surveys/${s.id}`))
      if (s.kind === 'poll') {
        const yes = detail.results.reduce((n: number, r: { yes: number }) => n + r.yes, 0)
        assert.equal(yes, s.responseCount, 'single choice: one yes per voter')
      } else {
        assert.ok(detail.options.every((o: { at: string | null }) => o.at !== null))
      }
    }
    // the last user still has things to do
    const last = await userClient(ctx.app, 'late')
    assert.ok(json<Ok<'/me/todos', 'get'>>(await last.get('/me/todos')).total > 0)
  }
)

test('seeded rehearsals: four past and four upcoming Thursdays, none today, on every weekday ' +
  'morning and evening', async (t) => {
  // Monday 23 November 2026, 07:00 in Berlin; then every 12 hours for a week.
  const ctx = await createTestApp({}, {}, { startAt: new Date('2026-11-23T06:00:00Z') })
  t.after(() => ctx.close())
  const user = await createUser(ctx.app, 'viewer', 'editor')
  for (let step = 0; step < 14; step++) {
    const viewer = sessionClient(ctx.app, user) // an access token lasts minutes, a step 12 hours
    const now = ctx.now()
    const today = todayIn('Europe/Berlin', now)
    const { rehearsalIds } = seedRehearsals(ctx.app.db, { now, userIds: [user.id] })
    const seeded = (json<Ok<'/rehearsals', 'get'>>(
      await viewer.get('/rehearsals')) as Array<{ id: number; date: string }>)
      .filter((r) => rehearsalIds.includes(r.id))
    const upcoming = (json<Ok<'/rehearsals', 'get'>>(
      await viewer.get('/rehearsals?upcoming=true')) as Array<{ id: number }>)
      .filter((r) => rehearsalIds.includes(r.id))
    const context = `${now.toISOString()} (today ${today})`
    assert.equal(seeded.length, 8, context)
    assert.ok(seeded.every((r) => new Date(`${r.date}T12:00:00Z`).getUTCDay() === 4), context)
    assert.ok(seeded.every((r) => r.date !== today), context)
    assert.equal(seeded.filter((r) => r.date < today).length, 4, context)
    assert.equal(upcoming.length, 4, context)
    ctx.advance(12 * 3600_000)
  }
})
