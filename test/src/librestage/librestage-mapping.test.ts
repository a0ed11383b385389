import { test } from 'node:test'
import assert from 'node:assert/strict'
import { UNUSABLE_PASSWORD_HASH } from '#src/auth/password.js'
import { json, userClient, type Ok } from '#test/helpers.js'
import { changes, importOdd, reasons } from '#test/src/librestage/odd-database.js'

// A libreStage database full of odd values imported table by table: what is kept, changed (with a
// note in the report) and skipped (with its reason and ids).

test('odd values: users, songs and votes', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  for (const t of report.tables) {
    assert.equal(t.imported + t.skipped.reduce((n, s) => n + s.count, 0), t.read, t.table)
  }

  assert.deepEqual(
    report.users.map((u) => [u.sourceUsername, u.username, u.role, u.status]),
    [
      ['admin', 'admin', 'admin', 'active'],
      ['Jürgen Groß', 'Juergen.Gross', 'member', 'active'],
      ['juergen.gross', 'juergen.gross-2', 'editor', 'inactive']
    ]
  )
  assert.ok(changes(report, 'users').includes('user_group "roadie" unknown: imported as member'))
  assert.ok(changes(report, 'users').includes('status "pausiert" unknown: imported as inactive'))
  assert.ok(changes(report, 'users').includes('e-mail address not valid: left empty'))
  const users = q('SELECT username, email, is_musician, password_hash FROM users ORDER BY id')
  assert.equal(users[1]!.email, null)
  assert.equal(users[1]!.is_musician, 1, 'unknown musician flag: a musician')
  assert.ok(
    users.every((u) => u.password_hash === UNUSABLE_PASSWORD_HASH),
    '"x" is no bcrypt hash, cost 16 too dear: nothing kept'
  )
  assert.ok(
    changes(report, 'users').includes(
      'password hash not bcrypt: the member sets a password with a reset link'
    )
  )
  assert.ok(changes(report, 'users').includes('bcrypt cost above 12 (too slow to check at ' +
    'login): the member sets a password with a reset link'))
  assert.deepEqual(
    report.resetLinks.map((l) => l.username),
    ['admin', 'Juergen.Gross'],
    'links for active users whose password was not kept, without --reset-links too'
  )

  const songs = q('SELECT * FROM songs ORDER BY id')
  assert.deepEqual(JSON.parse(songs[0]!.composers), ['Lennon', 'McCartney'])
  assert.deepEqual(JSON.parse(songs[0]!.lyricists), ['John Lennon', 'Paul McCartney'])
  assert.equal(songs[0]!.key, 'F#m')
  assert.equal(songs[0]!.duration_seconds, 225)
  assert.equal(songs[0]!.links, '[]', '"None" is no link')
  assert.equal(songs[0]!.lead_singer, null, 'an empty string is no value')
  assert.equal(songs[0]!.artist, null)
  assert.equal(songs[0]!.genre, 'Beat')
  assert.deepEqual(report.addedToConfig, { genres: ['Beat'], gigKinds: ['Dorffest'] })
  const config = JSON.parse(String(q('SELECT config FROM app_settings')[0]!.config))
  assert.ok(config.genres.includes('Beat') && config.gigKinds.includes('Dorffest'))
  assert.equal(songs[1]!.title, 'Ohne Titel (libreStage #2)')
  assert.equal(songs[1]!.status, 'accepted')
  assert.equal(songs[1]!.key, null)
  // An unreadable key is kept as written, and the report names the song.
  assert.equal(songs[1]!.key_text, 'X7')
  assert.ok(changes(report, 'songs').includes(
    'key "X7" of #2 "Ohne Titel (libreStage #2)" unreadable: kept as written'
  ))
  assert.equal(songs[1]!.duration_seconds, null)
  assert.deepEqual(JSON.parse(songs[1]!.links), ['https://youtu.be/abc', 'https://example.org/x'])
  assert.equal(
    songs[1]!.notes,
    'Tanzstil: Discofox\nBläser: 2\nDauer (libreStage): lang\n' +
      'Links (libreStage): Probeaufnahme'
  )
  assert.ok(changes(report, 'songs').includes('status "verschollen" unknown: imported as accepted'))
  // libreStage's lyrics are the chart (line ends normalized); over 64 KiB they are cut.
  assert.equal(songs[0]!.chart, "Hey Jude, don't make it bad\n[F]Take a sad song")
  assert.equal(songs[1]!.chart, null)
  assert.ok(Buffer.byteLength(songs[2]!.chart) <= 65536)
  assert.ok(songs[2]!.chart.endsWith('ää…'))
  assert.ok(changes(report, 'songs').includes('lyrics over 64 KiB: shortened'))
  assert.equal(songs[2]!.key, 'Bb')
  assert.equal(songs[2]!.duration_seconds, 200)
  assert.equal(songs[2]!.status, 'proposed')

  assert.deepEqual(
    q('SELECT song_id AS s, user_id AS u, vote FROM song_votes ORDER BY song_id, user_id'),
    [
      { s: songs[0]!.id, u: 1, vote: 'no' },
      { s: songs[0]!.id, u: 2, vote: 'abstain' },
      { s: songs[1]!.id, u: 2, vote: 'yes' },
      { s: songs[2]!.id, u: 1, vote: 'no' }
    ]
  )
  assert.deepEqual(reasons(report, 'song_feedback'), {
    'a later vote of the same member counts': [2],
    'vote "super Song!" is neither yes, no nor abstain': [3],
    'the song no longer exists': [4]
  })
  assert.deepEqual(
    report.notImported.tables.map((t) => t.table),
    ['setlist_colors'],
    'an unknown table is listed'
  )
  assert.ok(report.notImported.columns.some((c) => c.table === 'songs' && c.column === 'capo'))
})

test('odd values: gigs, sets, setlists, repertoire, running order, checklist', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  const admin = await userClient(ctx.app, 'boss', 'admin')

  const gigs = q('SELECT * FROM gigs ORDER BY id')
  assert.equal(gigs.length, 2)
  assert.deepEqual(reasons(report, 'gigs'), { 'no date': [3] })
  const [fest, noSets] = gigs
  assert.equal(fest!.status, 'inquiry')
  assert.equal(fest!.start_time, null, 'NULL times stay empty')
  assert.equal(fest!.doors_time, null)
  assert.equal(fest!.venue_name, null)
  assert.equal(fest!.organizer_name, null, '"None" is no organizer')
  assert.equal(fest!.kind, 'Dorffest')
  assert.ok(changes(report, 'gigs').includes('status "vielleicht" unknown: imported as inquiry'))
  assert.equal(noSets!.status, 'declined')
  assert.equal(noSets!.start_time, '20:00')
  assert.equal(noSets!.end_time, null)
  assert.equal(noSets!.notes, 'Ende (libreStage): 25:00:00')

  // A gig without sets has an empty setlist.
  const empty = json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await admin.get(`/gigs/${noSets!.id}/setlist`))
  assert.deepEqual(empty.sets, [])
  // Sets in libreStage's order; the deleted song is left out and reported; the skipped song keeps
  // no rating, the out-of-range rating is dropped, the inserted song counts as played.
  const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(
    await admin.get(`/gigs/${fest!.id}/setlist`))
  assert.deepEqual(
    setlist.sets.map((set: any) => [
      set.name,
      set.customBreakAfterSeconds,
      set.entries.map((e: any) => [e.song.title, e.status, e.inserted, e.rating])
    ]),
    [
      [
        'Hauptset',
        1200,
        [
          ['Hey Jude', 'planned', false, null],
          ['Bb-Test', 'skipped', false, null]
        ]
      ],
      ['Set 2', null, [['Ohne Titel (libreStage #2)', 'played', true, null]]]
    ]
  )
  assert.deepEqual(reasons(report, 'set_songs'), {
    'the song no longer exists': [2],
    'its set was not imported': [5]
  })
  assert.deepEqual(reasons(report, 'gig_sets'), {
    'the gig was not imported': [3],
    'the set no longer exists': [4]
  })
  assert.deepEqual(reasons(report, 'sets'), { 'in no gig and no repertoire list': [3] })
  assert.ok(changes(report, 'sets').includes('used by several gigs or lists: copied into each'))
  assert.ok(changes(report, 'set_songs').includes('rating outside 1–3: left out'))
  assert.ok(changes(report, 'set_songs').includes('rating of a skipped song left out'))

  // The set shared with a repertoire list is copied there, without a live record.
  const lists = json<Ok<'/repertoire', 'get'>>(await admin.get('/repertoire'))
  assert.deepEqual(lists.map((l: any) => [l.name, l.setCount, l.songCount]), [['Standard', 1, 2]])
  const list = json<Ok<'/repertoire/{id}', 'get'>>(await admin.get(`/repertoire/${lists[0]!.id}`))
  assert.deepEqual(
    list.sets[0]!.entries.map((e: any) => [e.song.title, e.status]),
    [['Hey Jude', 'planned'], ['Bb-Test', 'planned']]
  )

  const schedule = q('SELECT * FROM gig_schedule_items')
  assert.deepEqual(
    schedule.map((s) => [s.at, s.title, s.who, s.where]),
    [['2026-07-04T00:00', 'Programmpunkt', 'Alle', null]]
  )
  assert.deepEqual(reasons(report, 'gig_schedule_items'), { 'the gig was not imported': [2] })

  const checklist = json<Ok<'/gigs/{id}/checklist', 'get'>>(
    await admin.get(`/gigs/${fest!.id}/checklist`))
  assert.deepEqual(
    checklist.map((i: any) => [i.position, i.title, i.assigneeName, i.dueAt, i.done, i.notes]),
    [
      [0, 'Aufgabe', null, null, true, 'Zuständig: Onkel Heinz\nFällig (libreStage): bald'],
      [1, 'Kabel', 'Jürgen Groß', '2026-07-01T18:00', false, null]
    ]
  )
  assert.deepEqual(reasons(report, 'gig_checklist_items'), { 'the gig was not imported': [3] })
})

test('odd values: rehearsals, to-dos, availability, surveys', async (t) => {
  const { ctx, report } = await importOdd(t)
  const q = (sql: string) => ctx.app.sqlite.prepare(sql).all() as Array<Record<string, any>>
  const admin = await userClient(ctx.app, 'boss', 'admin')

  const rehearsals = json<Ok<'/rehearsals', 'get'>>(await admin.get('/rehearsals'))
  assert.deepEqual(
    rehearsals.map((r: any) => [r.date, r.startTime, r.endTime, r.notes]),
    [
      ['2026-03-05', '19:00', '21:00', null],
      [
        '2026-03-12',
        '20:00',
        '23:59',
        'Lange Probe\nTo-do Chefin: Text lernen (zu „Bb-Test“)'
      ]
    ]
  )
  assert.deepEqual(rehearsals[0]!.songs.map((s: any) => [s.title, s.done, s.notes]), [
    ['Hey Jude', true, 'To-do: Bridge\nTo-do Jürgen Groß: Solo üben (bis 04.03.2026) – erledigt']
  ])
  assert.deepEqual(reasons(report, 'rehearsal'), { 'no start date': [3] })
  assert.ok(changes(report, 'rehearsal').includes('no end: start + 2 h'))
  assert.deepEqual(reasons(report, 'rehearsal_song'), {
    'the rehearsal was not imported': [2],
    'the song no longer exists': [3]
  })
  assert.deepEqual(reasons(report, 'todos'), { 'the rehearsal was not imported': [3] })

  assert.deepEqual(q('SELECT user_id AS u, status, note FROM gig_availability'), [
    { u: 2, status: 'yes', note: null }
  ])
  assert.deepEqual(q('SELECT user_id AS u, status, note FROM rehearsal_availability'), [
    { u: 1, status: 'maybe', note: 'Spät\nErsatz: Tom' }
  ])
  assert.deepEqual(reasons(report, 'availability'), {
    'status "hmm" unknown': [2],
    'event type "konzert" unknown': [4],
    'the gig was not imported': [5]
  })

  const surveys = q('SELECT * FROM surveys ORDER BY id')
  assert.deepEqual(
    surveys.map((s) => [s.title, s.description, s.kind, s.status, s.created_by]),
    [
      ['Probewochenende', null, 'date', 'closed', 1],
      ['Wann grillen wir?', 'Bitte bis Freitag.', 'poll', 'open', 2]
    ]
  )
  const surveyChanges = changes(report, 'surveys')
  assert.ok(surveyChanges.includes('creator gone: owned by an admin'))
  assert.ok(surveyChanges.includes('not released in libreStage (a draft): imported closed'))
  assert.ok(
    surveyChanges.includes('date survey with options that are no dates: imported as a poll')
  )
  assert.deepEqual(
    q('SELECT label, at FROM survey_options ORDER BY id').map((o) => [o.label, o.at]),
    [
      ['05.06.2026 19:00', '2026-06-05T19:00'],
      ['Fr, 12.06.2026', '2026-06-12T00:00'],
      ['irgendwann', null],
      ['nie', null]
    ]
  )
  assert.deepEqual(
    q('SELECT option_id AS o, user_id AS u, value, comment FROM survey_answers ORDER BY 1, 2'),
    [
      { o: 1, u: 1, value: 'yes', comment: null },
      { o: 1, u: 2, value: 'maybe', comment: 'x'.repeat(199) + '…' },
      { o: 2, u: 2, value: 'no', comment: null },
      { o: 3, u: 2, value: 'yes', comment: 'gern' },
      { o: 4, u: 2, value: 'yes', comment: null }
    ]
  )
  assert.ok(changes(report, 'survey_feedback').includes('comment shortened to 200 characters'))
  assert.deepEqual(reasons(report, 'survey_feedback'), {
    'value "weiß nicht" is not yes, maybe or no': [2],
    'the option was not imported': [4]
  })
  assert.ok(!report.notImported.columns.some((c) => c.column === 'comment'), 'comments imported')
})
