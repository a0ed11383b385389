import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import XLSX from 'xlsx'
import {
  anonymous,
  countStatements,
  createTestApp,
  json,
  userClient,
  type Client,
  type TestContext,
  type ErrorResponseBody
} from '#test/helpers.js'
import {
  gigAvailability,
  gigs,
  gigScheduleItems,
  setlistEntries,
  setlistSets,
  songs
} from '#src/db/schema.js'
import { encodePng } from '#test/image-fixtures.js'
import { pdfImages, pdfText } from '#test/pdf-tools.js'
import type { App } from '#src/app.js'

const stamp = '2026-05-01T10:00:00.000Z'

function insertGig (app: App, values: Partial<typeof gigs.$inferInsert> = {}) {
  return app.db
    .insert(gigs)
    .values({
      name: 'Sommerfest Würzburg',
      date: '2026-07-04',
      status: 'confirmed',
      createdAt: stamp,
      updatedAt: stamp,
      ...values
    })
    .returning()
    .get()
}

/** A gig with two sets of `perSet` songs; returns the entry ids in order. */
function insertSetlist (app: App, gigId: number, perSet = 3) {
  const entryIds: number[] = []
  app.db.transaction((tx) => {
    for (let s = 0; s < 2; s++) {
      const set = tx
        .insert(setlistSets)
        .values({ gigId, position: s, name: `Set ${s + 1}`, breakAfterSeconds: 900 })
        .returning()
        .get()
      for (let e = 0; e < perSet; e++) {
        const song = tx
          .insert(songs)
          .values({
            title: `Lied ${s + 1}.${e + 1} – Grüße`,
            durationSeconds: 200,
            composers: ['Müller, Jörg'],
            lyricists: ['Weiß, Anna'],
            createdAt: stamp,
            updatedAt: stamp
          })
          .returning()
          .get()
        entryIds.push(
          tx
            .insert(setlistEntries)
            .values({ gigId, setId: set.id, position: e, songId: song.id })
            .returning()
            .get().id
        )
      }
    }
  })
  return entryIds
}

let t: TestContext
let member: Client
before(async () => {
  t = await createTestApp()
  member = await userClient(t.app, 'mia', 'member')
})
after(() => t.close())

test('setlist PDF: member reads it; titles in order; stage style; headers', async () => {
  const gig = insertGig(t.app, { startTime: '19:30', venueName: 'Residenzplatz' })
  insertSetlist(t.app, gig.id)
  const res = await member.get(`/gigs/${gig.id}/setlist.pdf`)
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/pdf')
  assert.equal(
    res.headers['content-disposition'],
    'inline; filename="Setlist-2026-07-04-Sommerfest-Wuerzburg.pdf";' +
      " filename*=UTF-8''Setlist-2026-07-04-Sommerfest-W%C3%BCrzburg.pdf"
  )
  const text = pdfText(res.rawPayload)
  const order = [
    'Lied 1.1',
    'Lied 1.2',
    'Lied 1.3',
    'Pause 15 min',
    'Lied 2.1',
    'Lied 2.2',
    'Lied 2.3'
  ].map((s) => text.indexOf(s))
  assert.ok(
    order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)),
    `order ${order}`
  )
  assert.match(text, /Beginn 19:30/)
  const stage = await member.get(`/gigs/${gig.id}/setlist.pdf?style=stage`)
  assert.equal(stage.statusCode, 200)
  assert.match(String(stage.headers['content-disposition']), /Setlist-Buehne-2026-07-04/)
  assert.equal((await member.get(`/gigs/${gig.id}/setlist.pdf?style=neon`)).statusCode, 400)
})

test('setlist PDF after the show: skipped struck and marked, inserted marked', async () => {
  const gig = insertGig(t.app)
  const [first, second, third] = insertSetlist(t.app, gig.id)
  const { eq } = await import('drizzle-orm')
  t.app.db
    .update(setlistEntries)
    .set({ status: 'played', rating: 2 })
    .where(eq(setlistEntries.id, first!))
    .run()
  t.app.db
    .update(setlistEntries)
    .set({ status: 'skipped' })
    .where(eq(setlistEntries.id, second!))
    .run()
  t.app.db
    .update(setlistEntries)
    .set({ status: 'played', inserted: true })
    .where(eq(setlistEntries.id, third!))
    .run()
  const text = pdfText((await member.get(`/gigs/${gig.id}/setlist.pdf`)).rawPayload)
  assert.match(text, /Lied 1\.2 – Grüße \(ausgelassen\)/)
  assert.match(text, /Lied 1\.3 – Grüße \+ eingefügt/)
  assert.match(text, /Lied 1\.1 – Grüße ●●○/)
})

test('schedule PDF with the band logo; GEMA export with the performed works', async () => {
  const gig = insertGig(t.app, {
    startTime: '20:00',
    endTime: '00:30',
    organizerName: 'Stadt Würzburg',
    venueAddress: 'Residenzplatz 2'
  })
  const [first, second] = insertSetlist(t.app, gig.id)
  t.app.db
    .insert(gigScheduleItems)
    .values({
      gigId: gig.id,
      at: '2026-07-04T18:00',
      title: 'Essen',
      who: 'alle',
      where: 'Kantine'
    })
    .run()
  const pixels = new Uint8Array(8 * 8 * 4).map((_, i) => [20, 90, 200, 255][i % 4]!)
  const admin = await userClient(t.app, 'ada', 'admin')
  const upload = await admin.put('/admin/logo', encodePng({ width: 8, height: 8, pixels }), {
    'content-type': 'image/png'
  })
  assert.equal(upload.statusCode, 200)
  const res = await member.get(`/gigs/${gig.id}/schedule.pdf`)
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/pdf')
  // The watermark is the logo's prepared copy.
  assert.deepEqual(pdfImages(res.rawPayload), [{ width: 8, height: 8 }])
  const text = pdfText(res.rawPayload)
  for (const expected of [
    'Stadt Würzburg',
    'Residenzplatz 2',
    'Essen',
    'Set 1 (3 Titel',
    'Pause',
    'Seite 1 von 1'
  ]) {
    assert.ok(text.includes(expected), expected)
  }
  assert.ok(text.indexOf('Essen') < text.indexOf('Set 1 (3 Titel'))

  const { eq } = await import('drizzle-orm')
  t.app.db
    .update(setlistEntries)
    .set({ status: 'played' })
    .where(eq(setlistEntries.id, first!))
    .run()
  t.app.db
    .update(setlistEntries)
    .set({ status: 'skipped' })
    .where(eq(setlistEntries.id, second!))
    .run()
  t.app.db
    .insert(gigAvailability)
    .values({ gigId: gig.id, userId: member.user.id, status: 'yes', updatedAt: stamp })
    .run()
  const gema = await member.get(`/gigs/${gig.id}/gema`)
  assert.equal(gema.statusCode, 200)
  assert.equal(
    gema.headers['content-type'],
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  )
  assert.match(
    String(gema.headers['content-disposition']),
    /^attachment; filename="GEMA-2026-07-04-Sommerfest-Wuerzburg\.xlsx"; filename\*=UTF-8''GEMA-2026-07-04-Sommerfest-W%C3%BCrzburg\.xlsx$/
  )
  const rows = XLSX.utils.sheet_to_json<Array<string | number>>(
    XLSX.read(gema.rawPayload, { type: 'buffer' }).Sheets['Titelliste']!,
    { header: 1, defval: '' }
  )
  const heading = rows.findIndex((r) => r[0] === 'Werknummer')
  assert.equal(rows[heading]!.length, 15)
  const works = rows.slice(heading + 1)
  assert.deepEqual(
    works.map((r) => r[1]),
    [
      'Lied 1.1 – Grüße',
      'Lied 1.3 – Grüße',
      'Lied 2.1 – Grüße',
      'Lied 2.2 – Grüße',
      'Lied 2.3 – Grüße'
    ]
  )
  assert.deepEqual(works[0]!.slice(3, 9), [1, '3:20', 'Müller', 'Jörg', 'Weiß', 'Anna'])
  assert.equal(rows.find((r) => r[0] === 'Ende')![1], '00:30')
})

test('documents work for a gig without setlist, times or venue', async () => {
  const gig = insertGig(t.app, { name: 'Nur ein Name' })
  for (const path of ['setlist.pdf', 'setlist.pdf?style=stage', 'schedule.pdf', 'gema']) {
    const res = await member.get(`/gigs/${gig.id}/${path}`)
    assert.equal(res.statusCode, 200, path)
    assert.ok(res.rawPayload.length > 500)
  }
})

test(
  'documents: 404 JSON for a missing gig, 401 without a session, 400 for ' +
    'a bad id; constant statements',
  async () => {
    for (const path of ['setlist.pdf', 'schedule.pdf', 'gema']) {
      const missing = await member.get(`/gigs/999999/${path}`)
      assert.equal(missing.statusCode, 404)
      assert.equal(json<ErrorResponseBody>(missing).code, 'GIG_NOT_FOUND')
      assert.match(String(missing.headers['content-type']), /application\/json/)
      assert.equal((await anonymous(t.app).get(`/gigs/1/${path}`)).statusCode, 401)
      assert.equal((await member.get(`/gigs/abc/${path}`)).statusCode, 400)
    }
    const small = insertGig(t.app)
    insertSetlist(t.app, small.id, 1)
    const large = insertGig(t.app)
    insertSetlist(t.app, large.id, 20)
    const a = await countStatements(t.app, () => member.get(`/gigs/${small.id}/gema`))
    const b = await countStatements(t.app, () => member.get(`/gigs/${large.id}/gema`))
    assert.equal(a.statements, b.statements)
  }
)
