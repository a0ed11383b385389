import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  anonymous,
  countStatements,
  createTestApp,
  createUser,
  json,
  userClient,
  type Client,
  type Ok,
  type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { songs as songsTable } from '#src/db/schema.js'
import { todayIn } from '#shared/local-time.js'
import { eq } from '#src/db/orm.js'

async function live (editor: Client, gigId: number, entryId: number, body: object) {
  const r = await editor.put(`/gigs_lm/${gigId}/`, { entryId, ...body })
  assert.equal(r.statusCode, 200, r.body)
}

test('statistics: a season, all time, a gig, a song; constant SQL statements', async (t) => {
  // Midday, mid-year: the season and "today" cannot change while the test runs.
  const ctx = await createTestApp({}, {}, { startAt: new Date('2026-06-10T10:00:00Z') })
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  const year = Number(todayIn('Europe/Berlin', ctx.now()).slice(0, 4))
  const last = year - 1
  const s1 = insertSong(ctx.app, 'Alpha')
  const s2 = insertSong(ctx.app, 'Beta')
  const s3 = insertSong(ctx.app, 'Gamma')
  const genre = (id: number, value: string) =>
    ctx.app.db.update(songsTable).set({ genre: value }).where(eq(songsTable.id, id)).run()
  genre(s1, 'Rock')
  genre(s2, 'Pop')

  // P1: Alpha great, Beta skipped, Gamma inserted and good; P2: Alpha untouched, Beta ok
  const p1 = await createGig(editor, { name: 'P1', date: `${last}-05-01`, status: 'confirmed' })
  const sl1 = await putSetlist(editor, p1.id, [[s1, s2], []])
  await live(editor, p1.id, sl1.sets[0].entries[0].id, { status: 'played', rating: 3 })
  await live(editor, p1.id, sl1.sets[0].entries[1].id, { status: 'skipped' })
  const inserted = json<Ok<'/gigs_lm/{id}/insert', 'post', 201>>(
    await editor.post(`/gigs_lm/${p1.id}/insert`, { songId: s3, setId: sl1.sets[1].id })
  )
  await live(editor, p1.id, inserted.id, { status: 'played', rating: 2 })
  const p2 = await createGig(editor, { name: 'P2', date: `${last}-06-01`, status: 'confirmed' })
  const sl2 = await putSetlist(editor, p2.id, [[s1, s2]])
  await live(editor, p2.id, sl2.sets[0].entries[1].id, { status: 'played', rating: 1 })
  // not counted: a cancelled gig, an inquiry, a future gig
  const off = await createGig(editor, { name: 'Off', date: `${last}-07-01`, status: 'cancelled' })
  await putSetlist(editor, off.id, [[s1, s2, s3]])
  const ask = await createGig(editor, { name: 'Ask', date: `${last}-08-01` })
  await putSetlist(editor, ask.id, [[s3]])
  const future = await createGig(editor, {
    name: 'F',
    date: `${year + 1}-01-10`,
    status: 'confirmed'
  })
  await putSetlist(editor, future.id, [[s3]])

  const { result, statements } = await countStatements(ctx.app, () =>
    mia.get(`/stats?season=${last}`)
  )
  assert.equal(result.statusCode, 200)
  const season = json(result)
  assert.deepEqual(season, {
    season: last,
    gigsPlayed: 2,
    gigsUpcoming: 0,
    songsPlanned: 4,
    songsPlayed: 4,
    uniqueSongs: 3,
    skipped: 1,
    inserted: 1,
    rating: { average: 2, count: 3, distribution: { ok: 1, good: 1, great: 1 } },
    genres: [
      { genre: 'Rock', count: 2 },
      { genre: 'Pop', count: 1 },
      { genre: null, count: 1 }
    ],
    topSongs: [
      { songId: s1, title: 'Alpha', artist: 'Test Artist', played: 2, averageRating: 3 },
      { songId: s2, title: 'Beta', artist: 'Test Artist', played: 1, averageRating: 1 },
      { songId: s3, title: 'Gamma', artist: 'Test Artist', played: 1, averageRating: 2 }
    ],
    mostSkipped: [
      {
        songId: s2,
        title: 'Beta',
        artist: 'Test Artist',
        skipped: 1,
        appearances: 2,
        skipRate: 0.5
      }
    ]
  })
  const allTime = json<Ok<'/stats', 'get'>>(await mia.get('/stats'))
  assert.equal(allTime.season, null)
  assert.equal(allTime.gigsPlayed, 2)
  assert.equal(allTime.gigsUpcoming, 1)
  assert.equal(allTime.songsPlayed, 4)
  assert.equal(json<Ok<'/stats', 'get'>>(await mia.get(`/stats?season=${year + 1}`)).songsPlayed, 0)

  // per gig, in total and per set
  const gig = json<Ok<'/gigs/{id}/stats', 'get'>>(await mia.get(`/gigs/${p1.id}/stats`))
  assert.equal(gig.played, true)
  assert.equal(gig.total.songsPlanned, 2)
  assert.equal(gig.total.songsPlayed, 2)
  assert.deepEqual(gig.total.rating, {
    average: 2.5,
    count: 2,
    distribution: { ok: 0, good: 1, great: 1 }
  })
  assert.deepEqual(
    gig.sets.map((s: any) => [s.name, s.songsPlanned, s.songsPlayed, s.skipped, s.inserted]),
    [
      ['Set 1', 2, 1, 1, 0],
      ['Set 2', 0, 1, 0, 1]
    ]
  )
  assert.deepEqual(gig.sets[0]!.genres, [{ genre: 'Rock', count: 1 }])
  assert.deepEqual(gig.total.genres, [
    { genre: 'Rock', count: 1 },
    { genre: null, count: 1 }
  ])
  const upcoming = json<Ok<'/gigs/{id}/stats', 'get'>>(await mia.get(`/gigs/${future.id}/stats`))
  assert.equal(upcoming.played, false)
  assert.equal(upcoming.total.songsPlanned, 1)
  assert.equal(upcoming.total.songsPlayed, 0)

  // per song, with its rehearsals (up to today) and the songs played in the same sets
  await editor.post('/rehearsals', {
    date: `${last}-04-01`,
    startTime: '19:00',
    songs: [{ songId: s2 }, { songId: s1 }]
  })
  for (const date of [`${last}-04-20`, `${year + 1}-02-01`]) {
    await editor.post('/rehearsals', { date, startTime: '19:00', songs: [{ songId: s2 }] })
  }
  const beta = json<Ok<'/songs/{id}/stats', 'get'>>(await mia.get(`/songs/${s2}/stats`))
  assert.deepEqual(
    { ...beta, gigs: undefined },
    {
      songId: s2,
      title: 'Beta',
      played: 1,
      appearances: 2,
      skipped: 1,
      inserted: 0,
      skipRate: 0.5,
      rating: { average: 1, count: 1, distribution: { ok: 1, good: 0, great: 0 } },
      gigs: undefined,
      rehearsals: { count: 2, first: `${last}-04-01`, last: `${last}-04-20` },
      playedWith: [{ songId: s1, title: 'Alpha', artist: 'Test Artist', sets: 1 }]
    }
  )
  assert.deepEqual(
    beta.gigs.map((g: any) => [g.name, g.setName, g.status, g.skipped, g.inserted, g.rating]),
    [
      ['P2', 'Set 1', 'played', false, false, 1],
      ['P1', 'Set 1', 'skipped', true, false, null]
    ]
  )
  const gamma = json<Ok<'/songs/{id}/stats', 'get'>>(await mia.get(`/songs/${s3}/stats`))
  assert.equal(gamma.gigs[0]!.inserted, true)
  assert.equal(gamma.rehearsals.count, 0)

  // more history, the same number of statements
  for (let i = 0; i < 4; i++) {
    const date = `${last}-09-0${i + 1}`
    const g = await createGig(editor, { name: `More ${i}`, date, status: 'confirmed' })
    await putSetlist(editor, g.id, [[s1, s2, s3]])
  }
  const more = await countStatements(ctx.app, () => mia.get(`/stats?season=${last}`))
  assert.equal(json<Ok<'/stats', 'get'>>(more.result).gigsPlayed, 6)
  assert.equal(more.statements, statements)
  const gigCount = await countStatements(ctx.app, () => mia.get(`/gigs/${p1.id}/stats`))
  const songCount = await countStatements(ctx.app, () => mia.get(`/songs/${s2}/stats`))
  assert.ok(gigCount.statements <= 5, `${gigCount.statements} statements`)
  assert.ok(songCount.statements <= 6, `${songCount.statements} statements`)

  // 400, 401, 404
  assert.equal((await mia.get('/stats?season=abc')).statusCode, 400)
  assert.equal((await mia.get('/stats?season=99')).statusCode, 400)
  assert.equal((await anonymous(ctx.app).get('/stats')).statusCode, 401)
  assert.equal((await anonymous(ctx.app).get(`/gigs/${p1.id}/stats`)).statusCode, 401)
  assert.equal((await anonymous(ctx.app).get(`/songs/${s1}/stats`)).statusCode, 401)
  assert.equal(json<ErrorResponseBody>(await mia.get('/gigs/999/stats')).code, 'GIG_NOT_FOUND')
  assert.equal(json<ErrorResponseBody>(await mia.get('/songs/999/stats')).code, 'SONG_NOT_FOUND')
})

test('singers for pickers; a song’s rehearsal history; gig notes for members', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const mia = await userClient(ctx.app, 'mia')
  await createUser(ctx.app, 'lena', 'member', { displayName: 'Lena Berger', isSinger: true })
  await createUser(ctx.app, 'sophie', 'member', { displayName: 'Sophie', isSinger: true })
  await createUser(ctx.app, 'gone', 'member', {
    displayName: 'Gone',
    isSinger: true,
    status: 'inactive'
  })
  insertSong(ctx.app, 'A', { leadSinger: 'lena berger' })
  insertSong(ctx.app, 'B', { leadSinger: 'Lena Berger' })
  insertSong(ctx.app, 'C', { leadSinger: ' Ärni (Gast) ' })
  insertSong(ctx.app, 'D', { leadSinger: 'Retired Voice', status: 'retired' })
  const singers = json<Ok<'/singers', 'get'>>(await mia.get('/singers'))
  assert.deepEqual(
    singers.map((s: any) => [s.name, s.userId !== null, s.songCount]),
    [
      ['Ärni (Gast)', false, 1],
      ['Lena Berger', true, 2],
      ['Sophie', true, 0]
    ]
  )
  assert.equal((await anonymous(ctx.app).get('/singers')).statusCode, 401)

  const song = insertSong(ctx.app, 'Probe-Song')
  for (const date of ['2026-01-10', '2026-03-05', '2026-02-01']) {
    await editor.post('/rehearsals', {
      date,
      startTime: '19:00',
      location: 'Proberaum',
      songs: [{ songId: song, notes: `Notiz ${date}`, done: date === '2026-01-10' }]
    })
  }
  await editor.post('/rehearsals', { date: '2026-04-01', startTime: '19:00' })
  const history = json<Ok<'/songs/{id}/rehearsals', 'get'>>(
    await mia.get(`/songs/${song}/rehearsals`))
  assert.deepEqual(
    history.map((h: any) => [h.date, h.notes, h.done, h.location]),
    [
      ['2026-03-05', 'Notiz 2026-03-05', false, 'Proberaum'],
      ['2026-02-01', 'Notiz 2026-02-01', false, 'Proberaum'],
      ['2026-01-10', 'Notiz 2026-01-10', true, 'Proberaum']
    ]
  )
  assert.equal(json<Ok<'/songs/{id}/rehearsals', 'get'>>(
    await mia.get(`/songs/${song}/rehearsals?limit=1`)).length, 1)
  assert.equal((await mia.get(`/songs/${song}/rehearsals?limit=501`)).statusCode, 400)
  assert.equal(json<ErrorResponseBody>(
    await mia.get('/songs/999/rehearsals')).code, 'SONG_NOT_FOUND')
  assert.equal((await anonymous(ctx.app).get(`/songs/${song}/rehearsals`)).statusCode, 401)

  // gig notes existed already: every member reads them, in the gig and in live mode
  const gig = await createGig(editor, { notes: 'Parken hinter der Halle' })
  assert.equal(json<Ok<'/gigs/{id}', 'get'>>(
    await mia.get(`/gigs/${gig.id}`)).notes, 'Parken hinter der Halle')
  assert.equal(json<Ok<'/gigs', 'get'>>(
    await mia.get('/gigs'))[0]!.notes, 'Parken hinter der Halle')
  assert.equal(json<Ok<'/gigs_lm/{id}', 'get'>>(
    await mia.get(`/gigs_lm/${gig.id}`)).gig.notes, 'Parken hinter der Halle')
})

test('routes given an id that is no id: 400 naming the field', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const admin = await userClient(ctx.app, 'boss', 'admin')
  for (const [method, url] of [
    ['GET', '/gigs/abc/checklist'],
    ['POST', '/gigs/0/checklist'],
    ['PATCH', '/gigs/1/checklist/abc'],
    ['DELETE', '/gigs/1/checklist/-1'],
    ['GET', '/gigs/abc/stats'],
    ['GET', '/songs/1.5/stats'],
    ['GET', '/songs/abc/rehearsals'],
    ['GET', '/gigs/abc/setlist/publication'],
    ['POST', '/gigs/abc/setlist/publish'],
    ['POST', '/gigs/abc/setlist/copy'],
    ['GET', '/repertoire/abc'],
    ['PATCH', '/repertoire/abc'],
    ['PUT', '/repertoire/abc/setlist'],
    ['DELETE', '/repertoire/abc'],
    ['GET', '/repertoire/abc/setlist.pdf'],
    ['GET', '/repertoire/abc/setlist.csv'],
    ['POST', '/users/abc/reset-link']
  ] as const) {
    const takesBody = ['POST', 'PUT', 'PATCH'].includes(method) && !url.endsWith('reset-link')
    const body = takesBody ? { title: 'x' } : undefined
    const r = await admin.request(method, url, body)
    assert.equal(r.statusCode, 400, `${method} ${url}`)
    assert.equal(json<ErrorResponseBody>(r).code, 'VALIDATION_ERROR', `${method} ${url}`)
    assert.match(json<ErrorResponseBody>(r).message, /params\./, `${method} ${url}`)
  }
})
