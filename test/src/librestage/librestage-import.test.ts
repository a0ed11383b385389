import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { runCli } from '#src/cli.js'
import type { LibreStageReport } from '#src/librestage/report.js'
import { mapAnswer, mapRole, mapUserStatus } from '#src/librestage/values.js'
import { anonymous, createTestApp, json, login, type TestUser, type Ok } from '#test/helpers.js'
import { DEMO_PASSWORDS, libreStageDemo } from '#test/librestage-fixture.js'

function io () {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
const NEW_PASSWORD = 'the whole band moved over today'

test(
  'import of the demo database: every table counted against the source, spot checks via the API',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'bandstand-librestage-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    const { file, replica } = libreStageDemo(dir)
    t.diagnostic(
      replica
        ? 'librestage-demo.db is missing: importing the replica built from librestage-schema.sql'
        : 'importing a copy of ../shared/fixtures/librestage-demo.db'
    )
    const bytesBefore = sha256(file)
    const mtimeBefore = statSync(file).mtimeMs
    const ctx = await createTestApp()
    t.after(() => ctx.close())

    const run = io()
    const code = await runCli(
      ['import-librestage', file, '--json', '--reset-links', '--base-url', 'https://band.example'],
      { DATA_DIR: ctx.dir },
      run.io
    )
    assert.equal(code, 0, run.err.join('\n'))
    const report = JSON.parse(run.out.join('\n')) as LibreStageReport
    assert.equal(report.dryRun, false)

    // The source is only read: same bytes, same time, no journal or WAL file left beside it.
    assert.equal(sha256(file), bytesBefore)
    assert.equal(statSync(file).mtimeMs, mtimeBefore)
    assert.deepEqual(readdirSync(dir), ['app.db'])

    const source = new Database(file, { readonly: true })
    t.after(() => source.close())
    const count = (sql: string, ...params: unknown[]) =>
      Number(source.prepare(sql).pluck().get(...params))
    const rows = (table: string) => count(`SELECT count(*) FROM "${table}"`)
    const target = (table: string) =>
      Number(ctx.app.sqlite.prepare(`SELECT count(*) FROM "${table}"`).pluck().get())

    // The sizes the issue states for libreStage's demo data set.
    assert.deepEqual(
      {
        users: rows('users'),
        songs: rows('songs'),
        rehearsals: rows('rehearsal'),
        rehearsalSongs: rows('rehearsal_song'),
        gigs: rows('gigs'),
        sets: rows('sets'),
        setSongs: rows('set_songs'),
        inGigSetlists: count(
          'SELECT count(*) FROM set_songs ss JOIN gig_sets gs ON gs.id_set = ss.id_set'
        ),
        skipped: count(
          'SELECT count(*) FROM set_songs ss JOIN gig_sets gs ON gs.id_set = ss.id_set ' +
            'WHERE ss.uebersprungen = 1'
        ),
        runningOrder: rows('gig_schedule_items'),
        availability: rows('availability'),
        surveys: rows('surveys'),
        repertoireLists: rows('repertoire_setlists')
      },
      {
        users: 5,
        songs: 20,
        rehearsals: 24,
        rehearsalSongs: 72,
        gigs: 3,
        sets: 9,
        setSongs: 33,
        inGigSetlists: 23,
        skipped: 1,
        runningOrder: 12,
        availability: 13,
        surveys: 2,
        repertoireLists: 2
      }
    )
    assert.ok(rows('survey_field') > 0 && rows('survey_feedback') > 0, 'surveys with answers')
    assert.ok(rows('song_feedback') > 0 && rows('todos') > 0, 'votes and to-dos')

    // The report: every row read is imported or skipped with a reason.
    for (const table of report.tables) {
      assert.equal(table.read, rows(table.table), `${table.table}: read`)
      const skipped = table.skipped.reduce((n, s) => n + s.count, 0)
      assert.equal(table.imported + skipped, table.read, `${table.table}: imported + skipped`)
    }

    // Table by table, the counts equal the source's.
    for (const [from, into] of [
      ['users', 'users'],
      ['songs', 'songs'],
      ['song_feedback', 'song_votes'],
      ['rehearsal', 'rehearsals'],
      ['rehearsal_song', 'rehearsal_songs'],
      ['gigs', 'gigs'],
      ['gig_sets', 'setlist_sets'],
      ['repertoire_setlists', 'repertoire_setlists'],
      ['repertoire_setlist_sets', 'repertoire_sets'],
      ['gig_schedule_items', 'gig_schedule_items'],
      ['gig_checklist_items', 'gig_checklist_items'],
      ['surveys', 'surveys'],
      ['survey_field', 'survey_options'],
      ['survey_feedback', 'survey_answers']
    ] as const) {
      assert.equal(target(into), rows(from), `${from} → ${into}`)
    }
    assert.equal(
      target('setlist_entries'),
      count('SELECT count(*) FROM set_songs ss JOIN gig_sets gs ON gs.id_set = ss.id_set')
    )
    assert.equal(
      target('repertoire_entries'),
      count(
        'SELECT count(*) FROM set_songs ss JOIN repertoire_setlist_sets rs ON rs.set_id = ss.id_set'
      )
    )
    assert.equal(
      target('gig_availability') + target('rehearsal_availability'),
      rows('availability')
    )
    const notes = ctx.app.sqlite
      .prepare('SELECT notes FROM rehearsal_songs UNION ALL SELECT notes FROM rehearsals')
      .pluck()
      .all()
      .join('\n')
    for (const todo of source.prepare('SELECT todo FROM todos').pluck().all() as string[]) {
      assert.ok(notes.includes(todo.trim()), `to-do "${todo}" is in the notes`)
    }
    assert.equal(target('data_imports'), 1)

    // Spot checks read through the API, logged in as the imported admin with their reset link.
    const adminName = report.users.find((u) => u.role === 'admin' && u.status === 'active')!
    const link = report.resetLinks.find((l) => l.username === adminName.username)!
    assert.match(link.url, /^https:\/\/band\.example\/app\/reset-password#token=/)
    assert.equal(
      report.resetLinks.length,
      report.users.filter((u) => u.status === 'active').length,
      'with --reset-links one link per active user'
    )
    const guest = anonymous(ctx.app)
    const token = link.url.split('#token=')[1]
    assert.equal(
      (await guest.post('/password-reset', { token, newPassword: NEW_PASSWORD })).statusCode,
      204
    )
    assert.equal(
      (
        await guest.post('/login', {
          username: adminName.username,
          password: DEMO_PASSWORDS.admin
        })
      ).statusCode,
      401,
      'a used reset link replaces the libreStage password'
    )
    const adminUser: TestUser = { id: 0, username: adminName.username, role: 'admin' }
    const admin = await login(ctx.app, adminUser, NEW_PASSWORD)

    // Users: role and status of each (an admin stays admin, an inactive member inactive).
    const users = json<Array<{ username: string; role: string; status: string }>>(
      await admin.get('/users')
    )
    for (const row of source.prepare('SELECT * FROM users').all() as Array<Record<string, any>>) {
      const name = report.users.find((u) => u.sourceId === row.id)!.username
      const user = users.find((u) => u.username === name)!
      assert.equal(user.role, mapRole(row.user_group) ?? 'member', `${name}: role`)
      assert.equal(user.status, mapUserStatus(row.status) ?? 'inactive', `${name}: status`)
    }
    if (replica) {
      assert.deepEqual(
        users
          .filter((u) => ['admin', 'dieter'].includes(u.username))
          .map((u) => [u.username, u.role, u.status]),
        [['admin', 'admin', 'active'], ['dieter', 'member', 'inactive']]
      )
    }

    // A gig's setlist in order, with its skipped entry.
    const gig = source
      .prepare(
        'SELECT g.* FROM gigs g JOIN gig_sets gs ON gs.id_gig = g.id JOIN set_songs ss ' +
          'ON ss.id_set = gs.id_set WHERE ss.uebersprungen = 1'
      )
      .get() as { id: number; name: string }
    const expected = (
      source
        .prepare(
          'SELECT s.name AS setName, so.title, ss.uebersprungen AS skipped FROM gig_sets gs ' +
            'JOIN sets s ON s.id = gs.id_set JOIN set_songs ss ON ss.id_set = gs.id_set ' +
            'JOIN songs so ON so.id = ss.id_song WHERE gs.id_gig = ? ' +
            'ORDER BY gs.position, gs.id, ss.position, ss.id'
        )
        .all(gig.id) as Array<{ setName: string; title: string; skipped: number }>
    ).map((r) => [r.setName, r.title, r.skipped === 1])
    const gigs = json<Array<{ id: number; name: string }>>(await admin.get('/gigs'))
    const imported = gigs.find((g) => g.name === gig.name)!
    const setlist = json<Ok<'/gigs/{id}/setlist', 'get'>>(
      await admin.get(`/gigs/${imported.id}/setlist`))
    const actual = setlist.sets.flatMap((set: any) =>
      set.entries.map((e: any) => [set.name, e.song.title, e.status === 'skipped'])
    )
    assert.deepEqual(actual, expected)
    assert.equal(actual.filter((e: unknown[]) => e[2]).length, 1)

    // A song's composers: one name per person, nothing but separators left over (libreStage's
    // own demo database has no composers; the replica has songs with several).
    const song = source
      .prepare(
        "SELECT title, composer FROM songs WHERE composer LIKE '%/%' OR composer LIKE '%,%' " +
          "OR composer LIKE '%&%' OR composer LIKE '% und %' ORDER BY id"
      )
      .get() as { title: string; composer: string } | undefined
    assert.ok(song || !replica, 'the replica has a song with several composers')
    if (song) {
      const listed = json<Array<{ id: number; title: string }>>(
        await admin.get('/songs?includeRetired=true')
      )
      const found = listed.find((s) => s.title === song.title)!
      const detail = json<Ok<'/songs/{id}', 'get'>>(await admin.get(`/songs/${found.id}`))
      assert.ok(detail.composers.length >= 2, `${song.composer}: several composers`)
      let rest = song.composer
      for (const name of detail.composers as string[]) {
        assert.ok(rest.includes(name), `${name} is one of "${song.composer}"`)
        rest = rest.replace(name, '')
      }
      assert.match(rest, /^[\s,;/&+]*(?:(?:und|and)[\s,;/&+]*)*$/i)
      if (replica) assert.deepEqual(detail.composers, ['Klaus Brenner', 'Maja Lindqvist'])
    }

    // A survey's answers: per option the same yes / maybe / no as in libreStage.
    const survey = source
      .prepare(
        'SELECT s.id, s.rf_survey FROM surveys s JOIN survey_field f ON f.id_survey = s.id ' +
          'JOIN survey_feedback a ON a.id_sv_field = f.id GROUP BY s.id ORDER BY count(*) DESC'
      )
      .get() as { id: number; rf_survey: string }
    const answers = source
      .prepare(
        'SELECT f.id AS field, a.value, u.clear_name AS name FROM survey_field f ' +
          'JOIN survey_feedback a ON a.id_sv_field = f.id JOIN users u ON u.id = a.id_user ' +
          'WHERE f.id_survey = ? ORDER BY f.id'
      )
      .all(survey.id) as Array<{ field: number; value: string; name: string }>
    const fields = [...new Set(answers.map((a) => a.field))]
    const surveys = json<Array<{ id: number; title: string }>>(await admin.get('/surveys'))
    const found = surveys.find((s) => survey.rf_survey.startsWith(s.title))!
    const results = json<Ok<'/surveys/{id}', 'get'>>(
      await admin.get(`/surveys/${found.id}`)).results as Array<{
        yes: number
        maybe: number
        no: number
        answers: Array<{ displayName: string; value: string }>
      }>
    const withAnswers = results.filter((r) => r.answers.length > 0)
    assert.equal(withAnswers.length, fields.length)
    withAnswers.forEach((result, i) => {
      const mine = answers.filter((a) => a.field === fields[i])
      const tally = (value: string) => mine.filter((a) => mapAnswer(a.value) === value).length
      assert.deepEqual(
        { yes: result.yes, maybe: result.maybe, no: result.no },
        { yes: tally('yes'), maybe: tally('maybe'), no: tally('no') }
      )
      assert.deepEqual(
        result.answers.map((a) => `${a.displayName}:${a.value}`).sort(),
        mine.map((a) => `${a.name}:${mapAnswer(a.value)}`).sort()
      )
    })

    // A second import of the same file is refused, even with --force; nothing changes.
    const songsBefore = target('songs')
    for (const args of [[], ['--force']]) {
      const again = io()
      assert.equal(
        await runCli(['import-librestage', file, ...args], { DATA_DIR: ctx.dir }, again.io),
        1
      )
      assert.match(again.err.join('\n'), /imported already/)
    }
    assert.equal(target('songs'), songsBefore)
    assert.ok(!existsSync(`${file}-journal`))
  }
)
