// The gig pack's files against the real API: the setlist's sheet PDFs, the recordings a member
// opts into, a replaced or deleted file leaving the device (gig-pack-phone.ts is the phone).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bandToday, createTestApp, userClient } from '#test/helpers.js'
import type { LightMyRequestResponse } from 'fastify'
import { createGig, insertSong, putSetlist } from '#test/gig-fixtures.js'
import { pdfFile, upload, wavFile } from '#test/file-fixtures.js'
import {
  addDays, phone, savePack, setWantsRecordings, wantsRecordings
} from '#test/web/gig-pack-phone.js'

test('gig pack: the setlist songs\' sheet PDFs travel with it, recordings do not; a deleted ' +
  'file leaves it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const song = insertSong(ctx.app, 'With a sheet')
  const gig = await createGig(editor, { date: bandToday(ctx.app), status: 'confirmed' })
  await putSetlist(editor, gig.id, [[song]])
  const sheet = pdfFile('Horn lead sheet')
  const posted = await upload(editor, `/songs/${song}/files`, sheet,
    { title: 'Horns', kind: 'sheet' })
  const sheetUrl = (posted.json() as { file: { url: string } }).file.url
  await upload(editor, `/songs/${song}/files`, wavFile(1), { title: 'Take', kind: 'recording' })
  const env = phone(member, new Map())

  const saved = await savePack(member.user.id, gig.id, env)
  assert.ok(saved.urls.includes(sheetUrl), saved.urls.join())
  assert.ok(!saved.urls.some((url) => url.endsWith('.wav')), 'no recording without asking')
  const cache = env.store.byName.get(`bandstand-user-${member.user.id}`)!
  const kept = Buffer.from(await (await cache.match(sheetUrl))!.arrayBuffer())
  assert.deepEqual(kept, sheet)
  assert.ok(saved.bytes > sheet.length)

  const id = (posted.json() as { id: number }).id
  assert.equal((await editor.delete(`/files/${id}`)).statusCode, 204)
  const again = await savePack(member.user.id, gig.id, env)
  assert.ok(!again.urls.includes(sheetUrl), 'a deleted file leaves the pack')
  assert.equal(await cache.match(sheetUrl), undefined, '…and the device')
})

test('gig pack: recordings when the member opts in; a replaced sheet leaves the device, one ' +
  'another pack holds stays', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const song = insertSong(ctx.app, 'Shared song')
  const today = bandToday(ctx.app)
  const gigs = [
    await createGig(editor, { date: today, status: 'confirmed' }),
    await createGig(editor, { date: addDays(today, 1), status: 'confirmed' })
  ]
  for (const gig of gigs) await putSetlist(editor, gig.id, [[song]])
  const urlOf = (answer: LightMyRequestResponse) =>
    (answer.json() as { file: { url: string } }).file.url
  const old = await upload(editor, `/songs/${song}/files`, pdfFile('Old horns'),
    { title: 'Horns', kind: 'sheet' })
  const take = urlOf(await upload(editor, `/songs/${song}/files`, wavFile(1),
    { title: 'Take', kind: 'recording' }))
  const env = phone(member, new Map())
  const cache = async () => (await env.caches.open(`bandstand-user-${member.user.id}`))

  const storage = new Map<string, string>()
  const local = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => {
      storage.set(key, value)
    },
    removeItem: (key: string) => {
      storage.delete(key)
    }
  }
  assert.equal(wantsRecordings(member.user.id, local), false, 'off until chosen')
  setWantsRecordings(member.user.id, true, local)
  assert.equal(wantsRecordings(member.user.id, local), true)
  assert.equal(wantsRecordings(editor.user.id, local), false, 'a choice of one member')
  const recordings = wantsRecordings(member.user.id, local)
  const first = await savePack(member.user.id, gigs[0]!.id, { ...env, recordings })
  assert.ok(first.urls.includes(take), first.urls.join())
  assert.ok(first.urls.includes(urlOf(old)))
  assert.equal(first.urls.filter((url) => url === urlOf(old)).length, 1, 'each file once')
  await savePack(member.user.id, gigs[1]!.id, env)

  // The sheet replaced (a new upload, the old one deleted); the recordings no longer wanted.
  const fresh = urlOf(await upload(editor, `/songs/${song}/files`, pdfFile('New horns'),
    { title: 'Horns', kind: 'sheet' }))
  assert.equal((await editor.delete(`/files/${(old.json() as { id: number }).id}`)).statusCode,
    204)
  setWantsRecordings(member.user.id, false, local)
  const second = await savePack(member.user.id, gigs[0]!.id, {
    ...env, recordings: wantsRecordings(member.user.id, local)
  })
  assert.ok(second.urls.includes(fresh))
  assert.ok(!second.urls.includes(take))
  assert.equal(await (await cache()).match(take), undefined, 'the recording left the device')
  // The other gig's pack still lists the old sheet (saved before the change): kept for it.
  assert.ok(await (await cache()).match(urlOf(old)), 'kept while another pack holds it')
  await savePack(member.user.id, gigs[1]!.id, env)
  assert.equal(await (await cache()).match(urlOf(old)), undefined, 'then gone')
  assert.ok(await (await cache()).match(fresh))
})
