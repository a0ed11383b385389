// The gig pack's reads answer with ETags: the gig, its running order, its
// availability and its documents. A refresh of an unchanged pack costs 304s (no body, no render);
// a change gives the new answer with a new tag; a missing gig is a 404 without one.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { anonymous, createTestApp, login, createUser } from '#test/helpers.js'
import { pdfText } from '#test/pdf-tools.js'

test('gig, running order, availability and PDFs: ETag, 304, new tag after a change', async (t) => {
  const ctx = await createTestApp({}, { LOG_LEVEL: 'silent' })
  t.after(() => ctx.close())
  const editor = await login(ctx.app, await createUser(ctx.app, 'lena', 'editor'))
  const member = await login(ctx.app, await createUser(ctx.app, 'mia', 'member'))
  const song = await editor.post('/songs', { title: 'Barn Dance', status: 'ready' })
  assert.equal(song.statusCode, 201, song.body)
  const gig = await editor.post('/gigs', {
    name: 'Wedding Barn',
    date: '2030-06-01',
    status: 'confirmed',
    startTime: '20:00'
  })
  assert.equal(gig.statusCode, 201, gig.body)
  const id = gig.json().id as number
  const setlist = await editor.put(`/gigs/${id}/setlist`, {
    version: 0,
    sets: [{ name: 'Set 1', entries: [{ songId: song.json().id }] }]
  })
  assert.equal(setlist.statusCode, 200, setlist.body)

  const urls = [
    `/gigs/${id}`,
    `/gigs/${id}/schedule`,
    `/gigs/${id}/availability`,
    `/gigs/${id}/setlist.pdf`,
    `/gigs/${id}/setlist.pdf?style=stage`,
    `/gigs/${id}/schedule.pdf`
  ]
  const tags = new Map<string, string>()
  for (const url of urls) {
    const first = await member.get(url)
    assert.equal(first.statusCode, 200, `${url}: ${first.body.slice(0, 200)}`)
    const etag = first.headers.etag
    assert.match(String(etag), /^W\/".+"$/, `${url} has an ETag`)
    assert.equal(first.headers['cache-control'], 'private, no-cache', url)
    tags.set(url, String(etag))
    const again = await member.get(url, { 'if-none-match': String(etag) })
    assert.equal(again.statusCode, 304, `${url}: unchanged → 304`)
    assert.equal(again.rawPayload.length, 0, `${url}: a 304 has no body`)
    assert.equal(again.headers.etag, etag, url)
    // Another tag, or `*`, is never taken for the current one.
    for (const other of ['W/"other"', '*']) {
      const refused = await member.get(url, { 'if-none-match': other })
      assert.equal(refused.statusCode, 200, `${url} with ${other}`)
    }
  }
  // The PDFs are what they say (read back), and the ETag does not name their bytes: two renders
  // carry different times, the tag is the same.
  const pdf = await member.get(`/gigs/${id}/setlist.pdf`)
  assert.equal(pdf.headers['content-type'], 'application/pdf')
  assert.match(pdfText(pdf.rawPayload), /Barn Dance/)
  assert.equal(pdf.headers.etag, tags.get(`/gigs/${id}/setlist.pdf`))
  const stage = await member.get(`/gigs/${id}/setlist.pdf?style=stage`)
  assert.notEqual(stage.headers.etag, pdf.headers.etag, 'print and stage are two documents')

  // A change of the gig: every read of it answers anew with a new tag.
  const patched = await editor.patch(`/gigs/${id}`, { name: 'Wedding Barn (moved)' })
  assert.equal(patched.statusCode, 200, patched.body)
  for (const url of [`/gigs/${id}`, `/gigs/${id}/setlist.pdf`, `/gigs/${id}/schedule.pdf`]) {
    const changed = await member.get(url, { 'if-none-match': tags.get(url)! })
    assert.equal(changed.statusCode, 200, `${url}: changed → 200`)
    assert.notEqual(changed.headers.etag, tags.get(url), `${url}: a new tag`)
  }
  const renamed = await member.get(`/gigs/${id}/setlist.pdf`)
  assert.match(pdfText(renamed.rawPayload), /Wedding Barn \(moved\)/)
  // The availability was not touched by the rename: still a 304.
  const availability = `/gigs/${id}/availability`
  assert.equal(
    (await member.get(availability, { 'if-none-match': tags.get(availability)! })).statusCode,
    304
  )
  // An answer changes it.
  const answered = await member.put(availability, { status: 'yes' })
  assert.ok(answered.statusCode < 300, answered.body)
  assert.equal(
    (await member.get(availability, { 'if-none-match': tags.get(availability)! })).statusCode,
    200
  )

  // A missing gig: 404 without an ETag, also with an If-None-Match; no session: 401.
  for (const url of urls.map((u) => u.replace(`/gigs/${id}`, '/gigs/99999'))) {
    const missing = await member.get(url, { 'if-none-match': '*' })
    assert.equal(missing.statusCode, 404, url)
    assert.equal(missing.headers.etag, undefined, url)
  }
  for (const url of urls) assert.equal((await anonymous(ctx.app).get(url)).statusCode, 401, url)
  for (const url of urls) {
    const bad = await member.get(url.replace(`/gigs/${id}`, '/gigs/abc'))
    assert.equal(bad.statusCode, 400, `${url}: a bad id`)
  }
})
