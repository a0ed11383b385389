import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createTestApp, createUser, json, userClient } from './helpers.js'
import { seedSongs } from '#src/seed/songs.js'
import { seedRehearsals } from '#src/seed/rehearsals.js'
import { seedSurveys } from '#src/seed/surveys.js'
import { DEFAULT_APP_CONFIG } from '#schemas/app-config.js'

test(
  'demo seeders: valid songs with GEMA data, rehearsals past and future, two answered surveys',
  async (t) => {
    const ctx = await createTestApp()
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

    const all = json(await viewer.get('/songs?includeRetired=true'))
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
      const { id, proposedBy, createdAt, updatedAt, ...input } = song
      // the seeded data passes the API's own validation
      const again = await viewer.post('/songs', input)
      assert.equal(again.statusCode, 201, `${song.title}: ${again.body}`)
      assert.ok(DEFAULT_APP_CONFIG.keys.includes(song.key), song.key)
      assert.ok(DEFAULT_APP_CONFIG.genres.includes(song.genre), song.genre)
      assert.ok(song.gemaWorkNumber && song.composers.length > 0 && song.durationSeconds > 0)
    }
    const votes = json(await viewer.get(`/songs/${seeded.proposedSongIds[0]}/votes`))
    assert.ok(votes.votes.length > 0)

    const upcoming = json(await viewer.get('/rehearsals?upcoming=true'))
    assert.equal(upcoming.length, 4)
    assert.ok(upcoming.every((r: { songs: unknown[] }) => r.songs.length >= 3))
    assert.equal(json(await viewer.get('/rehearsals')).length, 8)

    const surveys = json(await viewer.get('/surveys'))
    assert.deepEqual(surveys.map((s: { kind: string }) => s.kind).sort(), ['date', 'poll'])
    for (const s of surveys) {
      assert.equal(s.status, 'open')
      assert.ok(s.responseCount >= 4)
      const detail = json(await viewer.get(`/surveys/${s.id}`))
      if (s.kind === 'poll') {
        const yes = detail.results.reduce((n: number, r: { yes: number }) => n + r.yes, 0)
        assert.equal(yes, s.responseCount, 'single choice: one yes per voter')
      } else {
        assert.ok(detail.options.every((o: { at: string | null }) => o.at !== null))
      }
    }
    // the last user still has things to do
    const last = await userClient(ctx.app, 'late')
    assert.ok(json(await last.get('/me/todos')).total > 0)
  }
)
