import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SongCreate, SongPatch } from '#schemas/songs.js'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { gigs, setlistEntries, setlistSets, songs } from '#src/db/schema.js'

const full = {
  title: 'The Entertainer',
  artist: 'Scott Joplin',
  genre: 'Jazz',
  durationSeconds: 210,
  key: 'C',
  tempoBpm: 80,
  leadSinger: null,
  backingVocals: null,
  composers: ['Joplin, Scott'],
  lyricists: [],
  arrangers: ['Brenner, Klaus'],
  publisher: 'gemeinfrei',
  gemaWorkNumber: '1234567-001',
  iswc: 'T-034.524.680-1',
  isOriginal: false,
  status: 'ready',
  notes: 'Intro piano only',
  links: ['https://example.org/entertainer']
}

test('songs: editor creates, gets, patches; members read; 401 without session', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const created = await editor.post('/songs', full)
  assert.equal(created.statusCode, 201, created.body)
  const song = json<Ok<'/songs', 'post'>>(created)
  assert.equal(song.title, 'The Entertainer')
  assert.deepEqual(song.composers, ['Joplin, Scott'])
  assert.equal(song.proposedBy, null)
  assert.ok(song.createdAt)

  const got = await member.get(`/songs/${song.id}`)
  assert.equal(got.statusCode, 200)
  assert.deepEqual(json<Ok<'/songs/{id}', 'get'>>(got), song)

  const patched = await editor.patch(`/songs/${song.id}`, { status: 'rehearsing', notes: null })
  assert.equal(patched.statusCode, 200)
  assert.equal(json<Ok<'/songs/{id}', 'patch'>>(patched).status, 'rehearsing')
  assert.equal(json<Ok<'/songs/{id}', 'patch'>>(patched).notes, null)
  assert.equal(json<Ok<'/songs/{id}', 'patch'>>(patched).title, 'The Entertainer')

  const minimal = await editor.post('/songs', { title: 'Minimal' })
  assert.equal(minimal.statusCode, 201)
  assert.equal(json<Ok<'/songs', 'post'>>(minimal).status, 'accepted')

  assert.equal((await anonymous(ctx.app).get('/songs')).statusCode, 401)
  assert.equal((await anonymous(ctx.app).get(`/songs/${song.id}`)).statusCode, 401)
  assert.equal((await anonymous(ctx.app).post('/songs', full)).statusCode, 401)
  const missing = await member.get('/songs/9999')
  assert.equal(missing.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(missing).code, 'SONG_NOT_FOUND')
  assert.equal((await editor.patch('/songs/9999', { title: 'x' })).statusCode, 404)
  assert.equal((await editor.delete('/songs/9999')).statusCode, 404)
  assert.equal((await member.get('/songs/abc')).statusCode, 400)
})

test('songs: members may only propose; PATCH and DELETE are editor-only', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const proposal = await member.post('/songs', { title: 'Wonderwall-ish', artist: 'Somebody' })
  assert.equal(proposal.statusCode, 201)
  assert.equal(json<Ok<'/songs', 'post'>>(proposal).status, 'proposed')
  assert.equal(json<Ok<'/songs', 'post'>>(proposal).proposedBy, member.user.id)
  assert.equal((await member.post('/songs', { title: 'Sneaky', status: 'ready' })).statusCode, 403)
  const id = json<Ok<'/songs', 'post'>>(proposal).id
  assert.equal((await member.patch(`/songs/${id}`, { status: 'accepted' })).statusCode, 403)
  assert.equal((await member.delete(`/songs/${id}`)).statusCode, 403)
  assert.equal((await editor.patch(`/songs/${id}`, { status: 'accepted' })).statusCode, 200)
  // a client can never set ownership or bookkeeping fields
  for (const extra of [
    { proposedBy: editor.user.id },
    { id: 77 },
    { createdAt: '2020-01-01T00:00:00Z' }
  ]) {
    const r = await member.post('/songs', { title: 'X', ...extra })
    assert.equal(r.statusCode, 400)
  }
})

test('songs: validation', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const bad: Array<[object, string]> = [
    [{}, 'title'],
    [{ title: '' }, 'title'],
    [{ title: 'x', durationSeconds: 0 }, 'durationSeconds'],
    [{ title: 'x', durationSeconds: 7201 }, 'durationSeconds'],
    [{ title: 'x', tempoBpm: 19 }, 'tempoBpm'],
    [{ title: 'x', tempoBpm: 401 }, 'tempoBpm'],
    [{ title: 'x', key: 'X-Dur' }, 'key'],
    [{ title: 'x', genre: 'Polka-Metal' }, 'genre'],
    [{ title: 'x', links: ['javascript:alert(1)'] }, 'links'],
    [{ title: 'x', links: ['ftp://example.org/a'] }, 'links'],
    [{ title: 'x', links: ['https://a'.repeat(500)] }, 'links'],
    [{ title: 'x', links: Array.from({ length: 11 }, (_, i) => `https://e.org/${i}`) }, 'links'],
    [{ title: 'x', composers: Array.from({ length: 11 }, (_, i) => `Name${i}, A`) }, 'composers'],
    [{ title: 'x', lyricists: ['x'.repeat(121)] }, 'lyricists'],
    [{ title: 'x', status: 'famous' }, 'status'],
    [{ title: 'x', gemaWorkNumber: 'abc' }, 'gemaWorkNumber'],
    [{ title: 'x', unknown: 1 }, 'unknown']
  ]
  for (const [body, field] of bad) {
    const r = await editor.post('/songs', body)
    assert.equal(r.statusCode, 400, JSON.stringify(body))
    assert.match(json<ErrorResponseBody>(r).message, new RegExp(field), JSON.stringify(body))
  }
  const song = json<Ok<'/songs', 'post'>>(
    await editor.post('/songs', {
      title: 'ok',
      durationSeconds: 7200,
      tempoBpm: 400,
      key: 'Am'
    })
  )
  assert.equal(song.durationSeconds, 7200)
  assert.equal((await editor.patch(`/songs/${song.id}`, {})).statusCode, 400)
  assert.equal((await editor.patch(`/songs/${song.id}`, { key: 'H#-Dur' })).statusCode, 400)
  assert.equal((await editor.patch(`/songs/${song.id}`, { title: null })).statusCode, 400)
})

test('songs: list order, filters, retired hidden unless asked', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const add = async (title: string, extra: object = {}) =>
    json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title, ...extra }))
  await add('zebra', { genre: 'Rock' })
  await add('Ärger im Revier', { genre: 'Rock', artist: 'Die Fiktiven' })
  await add('Apfel', { genre: 'Pop' })
  await add('100%_sicher', { genre: 'Pop' })
  await add('Old one', { status: 'retired' })
  await add('Idea', { status: 'proposed' })
  const titles = (r: { body: string }) =>
    (JSON.parse(r.body) as Array<{ title: string }>).map((s) => s.title)
  assert.deepEqual(titles(await editor.get('/songs')), [
    '100%_sicher',
    'Apfel',
    'Ärger im Revier',
    'Idea',
    'zebra'
  ])
  assert.deepEqual(titles(await editor.get('/songs?includeRetired=true')), [
    '100%_sicher',
    'Apfel',
    'Ärger im Revier',
    'Idea',
    'Old one',
    'zebra'
  ])
  assert.deepEqual(titles(await editor.get('/songs?status=retired')), ['Old one'])
  assert.deepEqual(titles(await editor.get('/songs?status=proposed')), ['Idea'])
  assert.deepEqual(titles(await editor.get('/songs?genre=Rock')), ['Ärger im Revier', 'zebra'])
  assert.deepEqual(titles(await editor.get('/songs?q=fiktiv')), ['Ärger im Revier'])
  assert.deepEqual(titles(await editor.get('/songs?q=%25_')), ['100%_sicher'])
  assert.deepEqual(titles(await editor.get('/songs?q=_')), ['100%_sicher'])
  assert.deepEqual(titles(await editor.get('/songs?q=nothing')), [])
  assert.equal((await editor.get('/songs?status=famous')).statusCode, 400)
})

test('songs: delete removes an unused song, retires one used by a setlist', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const unused = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Unused' }))
  const used = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Used' }))
  const stamp = new Date().toISOString()
  const gig = ctx.app.db
    .insert(gigs)
    .values({ name: 'Fest', date: '2026-12-01', createdAt: stamp, updatedAt: stamp })
    .returning()
    .get()
  const set = ctx.app.db
    .insert(setlistSets)
    .values({ gigId: gig.id, position: 0, name: 'Set 1' })
    .returning()
    .get()
  ctx.app.db
    .insert(setlistEntries)
    .values({ gigId: gig.id, setId: set.id, position: 0, songId: used.id })
    .run()

  const r1 = await editor.delete(`/songs/${unused.id}`)
  assert.equal(r1.statusCode, 200)
  assert.deepEqual(json<Ok<'/songs/{id}', 'delete'>>(r1), { deleted: true, retired: false })
  assert.equal((await editor.get(`/songs/${unused.id}`)).statusCode, 404)

  const r2 = await editor.delete(`/songs/${used.id}`)
  assert.equal(r2.statusCode, 200)
  assert.equal(json<Ok<'/songs/{id}', 'delete'>>(r2).deleted, false)
  assert.equal(json<Ok<'/songs/{id}', 'delete'>>(r2).retired, true)
  assert.equal(json<Ok<'/songs/{id}', 'delete'>>(r2).song!.status, 'retired')
  assert.equal(ctx.app.db.select().from(songs).all().length, 1)
})

test('votes: own vote only, upsert, counts, 409 on non-proposed songs', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const anna = await userClient(ctx.app, 'anna')
  const ben = await userClient(ctx.app, 'ben')
  const proposal = json<Ok<'/songs', 'post'>>(await anna.post('/songs', { title: 'Proposal' }))
  const accepted = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Accepted' }))

  const v1 = await anna.put(`/songs/${proposal.id}/vote`, { vote: 'yes' })
  assert.equal(v1.statusCode, 200)
  assert.deepEqual(json<Ok<'/songs/{id}/vote', 'put'>>(v1).counts, { yes: 1, no: 0, abstain: 0 })
  await ben.put(`/songs/${proposal.id}/vote`, { vote: 'no' })
  await anna.put(`/songs/${proposal.id}/vote`, { vote: 'abstain' })
  const votes = json<Ok<'/songs/{id}/votes', 'get'>>(
    await editor.get(`/songs/${proposal.id}/votes`))
  assert.deepEqual(votes.counts, { yes: 0, no: 1, abstain: 1 })
  assert.deepEqual(
    votes.votes.map((v: { displayName: string; vote: string }) => [v.displayName, v.vote]),
    [
      ['Anna', 'abstain'],
      ['Ben', 'no']
    ]
  )

  // API1/API5: no body field or path lets Anna touch Ben's vote
  assert.equal(
    (await anna.put(`/songs/${proposal.id}/vote`, { vote: 'yes', userId: ben.user.id })).statusCode,
    400
  )
  assert.equal(
    (await anna.put(`/songs/${proposal.id}/vote?userId=${ben.user.id}`, { vote: 'yes' }))
      .statusCode,
    200
  )
  assert.equal(
    (await anna.delete(`/songs/${proposal.id}/vote?userId=${ben.user.id}`)).statusCode,
    204
  )
  const after = json<Ok<'/songs/{id}/votes', 'get'>>(
    await editor.get(`/songs/${proposal.id}/votes`))
  assert.deepEqual(
    after.votes.map((v: { userId: number; vote: string }) => [v.userId, v.vote]),
    [[ben.user.id, 'no']]
  )

  const notProposed = await anna.put(`/songs/${accepted.id}/vote`, { vote: 'yes' })
  assert.equal(notProposed.statusCode, 409)
  assert.equal(json<ErrorResponseBody>(notProposed).code, 'SONG_NOT_PROPOSED')
  assert.equal((await anna.delete(`/songs/${accepted.id}/vote`)).statusCode, 409)
  assert.equal((await anna.put(`/songs/${proposal.id}/vote`, { vote: 'maybe' })).statusCode, 400)
  assert.equal((await anna.put('/songs/9999/vote', { vote: 'yes' })).statusCode, 404)
  assert.equal((await anna.get('/songs/9999/votes')).statusCode, 404)
  assert.equal(
    (await anonymous(ctx.app).put(`/songs/${proposal.id}/vote`, { vote: 'yes' })).statusCode,
    401
  )
  assert.equal((await anonymous(ctx.app).get(`/songs/${proposal.id}/votes`)).statusCode, 401)
})

test('songs: the list takes the same number of statements for 10 and 500 songs', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const member = await userClient(ctx.app, 'mia')
  const stamp = new Date().toISOString()
  const insert = (from: number, to: number) =>
    ctx.app.db.transaction((tx) => {
      for (let i = from; i < to; i++) {
        tx.insert(songs)
          .values({
            title: `Song ${i}`,
            composers: ['A, B'],
            status: 'accepted',
            createdAt: stamp,
            updatedAt: stamp
          })
          .run()
      }
    })
  insert(0, 10)
  const small = await countStatements(ctx.app, () => member.get('/songs'))
  assert.equal(json<Ok<'/songs', 'get'>>(small.result).length, 10)
  insert(10, 500)
  const large = await countStatements(ctx.app, () => member.get('/songs'))
  assert.equal(json<Ok<'/songs', 'get'>>(large.result).length, 500)
  assert.equal(large.statements, small.statements)
  assert.ok(large.statements <= 3, `${large.statements} statements`)
})

test(
  'SongPatch is SongCreate with every field optional, at least one, nothing unknown',
  async (t) => {
    assert.deepEqual(Object.keys(SongPatch.properties), Object.keys(SongCreate.properties))
    assert.deepEqual(SongCreate.required, ['title'])
    assert.equal(SongPatch.required, undefined)
    assert.equal(SongPatch.minProperties, 1)
    assert.equal(SongCreate.additionalProperties, false)
    assert.equal(SongPatch.additionalProperties, false)
    for (const key of Object.keys(SongCreate.properties) as Array<
      keyof typeof SongCreate.properties
    >) {
      if (key === 'status') continue
      assert.deepEqual(
        JSON.parse(JSON.stringify(SongPatch.properties[key])),
        JSON.parse(JSON.stringify(SongCreate.properties[key])),
        key
      )
    }
    assert.match(SongCreate.properties.status.description!, /members may only propose/)
    assert.match(SongPatch.properties.status.description!, /proposed → accepted/)

    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const song = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: 'Patch me' }))
    assert.equal(
      (await editor.patch(`/songs/${song.id}`, { title: 'Patched', color: 'red' })).statusCode,
      400
    )
    assert.equal((await editor.patch(`/songs/${song.id}`, { tempoBpm: 19 })).statusCode, 400)
    const patched = await editor.patch(`/songs/${song.id}`, { tempoBpm: 120 })
    assert.equal(patched.statusCode, 200, patched.body)
    assert.equal(json<Ok<'/songs/{id}', 'patch'>>(patched).title, 'Patch me')
    assert.equal(json<Ok<'/songs/{id}', 'patch'>>(patched).tempoBpm, 120)
  }
)

test('songs: a title of white space only is refused on create and on change', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  for (const title of ['   ', '\t', ' \n ']) {
    const created = await editor.post('/songs', { title })
    assert.equal(created.statusCode, 400, JSON.stringify(title))
    assert.match(json<ErrorResponseBody>(created).message, /title/)
  }
  const song = json<Ok<'/songs', 'post'>>(await editor.post('/songs', { title: ' Hey Jude ' }))
  const patched = await editor.patch(`/songs/${song.id}`, { title: '  ' })
  assert.equal(patched.statusCode, 400)
  assert.equal(json<Ok<'/songs/{id}', 'get'>>(
    await editor.get(`/songs/${song.id}`)).title, ' Hey Jude ')
  assert.equal(json<Ok<'/songs', 'get'>>(await editor.get('/songs')).length, 1)
})
