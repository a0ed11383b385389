import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from '#src/db/orm.js'
import {
  anonymous, countStatements, createTestApp, json, userClient, type Ok, type ErrorResponseBody
} from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { gigs } from '#src/db/schema.js'

test(
  'gig CRUD: create 201 with nested venue/organizer, get, patch bumps sequence, delete 204',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const member = await userClient(ctx.app, 'mia', 'member')

    const created = await editor.post('/gigs', {
      name: 'Hochzeit Müller',
      date: '2026-06-13',
      kind: 'Hochzeit',
      status: 'confirmed',
      venue: { name: 'Gut Lindenhof', address: 'Lindenweg 3', city: 'Talheim' },
      organizer: { name: 'Familie Müller', contact: '0170 1234567' },
      getInTime: '16:00',
      soundcheckTime: '17:00',
      doorsTime: '18:00',
      startTime: '20:00',
      endTime: '01:30',
      notes: 'Tanzfläche klein'
    })
    assert.equal(created.statusCode, 201)
    const gig = json<Ok<'/gigs', 'post'>>(created)
    assert.equal(gig.name, 'Hochzeit Müller')
    assert.deepEqual(gig.venue, { name: 'Gut Lindenhof', address: 'Lindenweg 3', city: 'Talheim' })
    assert.deepEqual(gig.organizer, { name: 'Familie Müller', contact: '0170 1234567' })
    assert.equal(gig.endsNextDay, true, 'an end before the start is after midnight')
    assert.equal(gig.status, 'confirmed')

    const got = await member.get(`/gigs/${gig.id}`)
    assert.equal(got.statusCode, 200)
    assert.deepEqual(json<Ok<'/gigs/{id}', 'get'>>(got), gig)

    const before = ctx.app.db.select({ sequence: gigs.sequence }).from(gigs).get()!.sequence
    ctx.advance(60_000)
    const patched = await editor.patch(`/gigs/${gig.id}`, {
      venue: { city: 'Neustadt' },
      endTime: '23:30'
    })
    assert.equal(patched.statusCode, 200)
    const p = json<Ok<'/gigs/{id}', 'patch'>>(patched)
    assert.deepEqual(
      p.venue,
      { name: 'Gut Lindenhof', address: 'Lindenweg 3', city: 'Neustadt' },
      'omitted nested fields stay'
    )
    assert.equal(p.endsNextDay, false)
    assert.notEqual(p.updatedAt, gig.updatedAt)
    const after = ctx.app.db.select({ sequence: gigs.sequence }).from(gigs).get()!.sequence
    assert.equal(after, before + 1)
    const cleared = json<Ok<'/gigs/{id}', 'patch'>>(
      await editor.patch(`/gigs/${gig.id}`, { notes: null, kind: null }))
    assert.equal(cleared.notes, null)
    assert.equal(cleared.kind, null)

    const del = await editor.delete(`/gigs/${gig.id}`)
    assert.equal(del.statusCode, 204)
    assert.equal((await member.get(`/gigs/${gig.id}`)).statusCode, 404)
  }
)

test(
  'gig validation: name and date required, HH:MM times, status set, configured ' +
    'kind, unknown property',
  async (t) => {
    const ctx = await createTestApp()
    t.after(() => ctx.close())
    const editor = await userClient(ctx.app, 'eddie', 'editor')
    const bad = async (body: unknown) => {
      const r = await editor.post('/gigs', body)
      assert.equal(r.statusCode, 400, JSON.stringify(body))
      return json<ErrorResponseBody>(r)
    }
    const missing = await bad({})
    assert.match(missing.message, /name/)
    assert.match(missing.message, /date/)
    await bad({ name: 'x', date: '2026-13-01' })
    await bad({ name: '  ', date: '2026-05-01' })
    await bad({ name: 'x', date: '2026-05-01', startTime: '8:00' })
    await bad({ name: 'x', date: '2026-05-01', startTime: '24:00' })
    await bad({ name: 'x', date: '2026-05-01', status: 'maybe' })
    await bad({ name: 'x', date: '2026-05-01', id: 5 })
    await bad({ name: 'x', date: '2026-05-01', venue: { name: 'x', phone: '1' } })
    const kind = await bad({ name: 'x', date: '2026-05-01', kind: 'Beerdigung' })
    assert.equal(kind.code, 'INVALID_GIG_KIND')
    const g = await createGig(editor)
    assert.equal((await editor.patch(`/gigs/${g.id}`, {})).statusCode, 400)
    assert.equal((await editor.patch(`/gigs/${g.id}`, { kind: 'Nope' })).statusCode, 400)
    assert.equal(
      (await editor.patch(`/gigs/${g.id}`, { createdAt: '2020-01-01T00:00:00Z' })).statusCode,
      400
    )
    assert.equal((await editor.get('/gigs/abc')).statusCode, 400)
    assert.equal((await editor.get('/gigs?from=yesterday')).statusCode, 400)
  }
)

test('gig auth: 401 without session, 403 for members writing, 404 unknown id', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia', 'member')
  const g = await createGig(editor)
  const anon = anonymous(ctx.app)
  for (const r of [
    await anon.get('/gigs'),
    await anon.post('/gigs', { name: 'x', date: '2026-01-01' }),
    await anon.get(`/gigs/${g.id}`),
    await anon.patch(`/gigs/${g.id}`, { name: 'y' }),
    await anon.delete(`/gigs/${g.id}`)
  ]) {
    assert.equal(r.statusCode, 401)
  }
  assert.equal((await member.post('/gigs', { name: 'x', date: '2026-01-01' })).statusCode, 403)
  assert.equal((await member.patch(`/gigs/${g.id}`, { name: 'y' })).statusCode, 403)
  assert.equal((await member.delete(`/gigs/${g.id}`)).statusCode, 403)
  const nf = await editor.get('/gigs/9999')
  assert.equal(nf.statusCode, 404)
  assert.equal(json<ErrorResponseBody>(nf).code, 'GIG_NOT_FOUND')
  assert.equal((await editor.patch('/gigs/9999', { name: 'y' })).statusCode, 404)
  assert.equal((await editor.delete('/gigs/9999')).statusCode, 404)
  const admin = await userClient(ctx.app, 'ada', 'admin')
  assert.equal((await admin.patch(`/gigs/${g.id}`, { name: 'by admin' })).statusCode, 200)
})

test('GET /gigs: date order and from/to/status/upcoming filters; empty is []', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  assert.deepEqual(json<Ok<'/gigs', 'get'>>(await editor.get('/gigs')), [])
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(ctx.now())
  await createGig(editor, { name: 'C late', date: '2030-05-02', startTime: '21:00' })
  await createGig(editor, {
    name: 'B early',
    date: '2030-05-02',
    startTime: '18:00',
    status: 'confirmed'
  })
  await createGig(editor, { name: 'A', date: '2030-01-01', status: 'confirmed' })
  await createGig(editor, { name: 'Past', date: '2020-01-01' })
  await createGig(editor, { name: 'Today', date: today })
  const names = (r: any) => json<Ok<'/gigs', 'get'>>(r).map((g) => g.name)
  assert.deepEqual(names(await editor.get('/gigs')), ['Past', 'Today', 'A', 'B early', 'C late'])
  assert.deepEqual(names(await editor.get('/gigs?upcoming=true')), [
    'Today',
    'A',
    'B early',
    'C late'
  ])
  assert.deepEqual(names(await editor.get('/gigs?status=confirmed')), ['A', 'B early'])
  assert.deepEqual(names(await editor.get('/gigs?from=2030-01-01&to=2030-05-01')), ['A'])
  assert.deepEqual(
    names(await editor.get('/gigs/?to=2020-12-31')),
    ['Past'],
    'trailing slash works'
  )
  assert.equal((await editor.get('/gigs?status=nope')).statusCode, 400)
})

test('DELETE /gigs/{id} removes setlist, schedule and availability with it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const songIds = insertSongs(ctx.app, 3)
  const g = await createGig(editor)
  const other = await createGig(editor, { name: 'Other' })
  await putSetlist(editor, g.id, [songIds])
  await putSetlist(editor, other.id, [songIds])
  assert.equal(
    (
      await editor.put(`/gigs/${g.id}/schedule`, {
        items: [{ at: '2026-07-04T12:00', title: 'Abfahrt' }]
      })
    ).statusCode,
    200
  )
  assert.equal((await editor.put(`/gigs/${g.id}/availability`, { status: 'yes' })).statusCode, 200)
  const count = (table: string, gigId: number) =>
    (
      ctx.app.db.get(sql.raw(`SELECT count(*) AS n FROM ${table} WHERE gig_id = ${gigId}`)) as {
        n: number
      }
    ).n
  for (const table of [
    'setlist_sets',
    'setlist_entries',
    'gig_schedule_items',
    'gig_availability'
  ]) {
    assert.ok(count(table, g.id) > 0, table)
  }
  // One statement: the foreign keys cascade (no child table deleted by hand).
  const deleted = await countStatements(ctx.app, () => editor.delete(`/gigs/${g.id}`))
  assert.equal(deleted.result.statusCode, 204)
  const deletes = deleted.sql.filter((statement) => /^\s*delete/i.test(statement))
  assert.equal(deletes.length, 1, deletes.join('\n'))
  assert.match(deletes[0]!, /^delete from "gigs" where/)
  for (const table of [
    'setlist_sets',
    'setlist_entries',
    'gig_schedule_items',
    'gig_availability'
  ]) {
    assert.equal(count(table, g.id), 0, table)
  }
  assert.equal(count('setlist_entries', other.id), 3, 'other gigs untouched')
})

test('GET /gigs with 300 gigs uses a constant number of statements', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const stamp = ctx.now().toISOString()
  const insert = (n: number, offset: number) =>
    ctx.app.db
      .insert(gigs)
      .values(
        Array.from({ length: n }, (_, i) => ({
          name: `Gig ${offset + i}`,
          date: `2027-01-${String((i % 28) + 1).padStart(2, '0')}`,
          createdAt: stamp,
          updatedAt: stamp
        }))
      )
      .run()
  insert(3, 0)
  const small = await countStatements(ctx.app, () => editor.get('/gigs'))
  insert(297, 3)
  const large = await countStatements(ctx.app, () => editor.get('/gigs'))
  assert.equal(json<Ok<'/gigs', 'get'>>(large.result).length, 300)
  assert.equal(large.statements, small.statements)
  assert.ok(large.statements <= 3, large.sql.join('\n'))
})
