// The web app's gig pack (web/src/lib/offline/gig-pack.ts) against the real API: a Cache API held
// in memory, fetch answered by app.inject with the member's cookies (gig-pack-phone.ts).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { bandToday, createTestApp, userClient } from '#test/helpers.js'
import { createGig, insertSongs, putSetlist } from '#test/gig-fixtures.js'
import { inArray } from '#src/db/orm.js'
import { songs } from '#src/db/schema.js'
import { MAX_CHART_BYTES } from '#schemas/songs.js'
import { MAX_GIG_CHART_BYTES } from '#schemas/charts.js'
import {
  addDays, claimUpcomingSave, gigWithSetlist, keepLiveView, listPacks, packInfo, PackTooLarge,
  phone, savePack, saveUpcoming, UPCOMING_EVERY_MS
} from '#test/web/gig-pack-phone.js'

test('gig pack: a member saves what gig night needs; unchanged data costs a 304', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const today = bandToday(ctx.app)
  const gigId = await gigWithSetlist(editor, ctx.app, today)
  const statuses = new Map<string, number[]>()
  const env = phone(member, statuses)

  const first = await savePack(member.user.id, gigId, env)
  for (const part of ['', '/setlist', '/schedule', '/charts', '/setlist.pdf',
    '/setlist.pdf?style=stage']) {
    assert.ok(first.urls.includes(`/gigs/${gigId}${part}`), `${part} kept`)
  }
  assert.ok(first.urls.includes(`/gigs_lm/${gigId}`) && first.urls.includes('/me'))
  const cache = env.store.byName.get(`bandstand-user-${member.user.id}`)!
  const pdf = Buffer.from(await (await cache.match(`/gigs/${gigId}/setlist.pdf?style=stage`))!
    .arrayBuffer())
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-')
  const live = await (await cache.match(`/gigs_lm/${gigId}`))!.json()
  assert.equal(live.sets[0].entries.length, 12)
  assert.ok(first.bytes > pdf.length, 'the size counts every part')

  const second = await savePack(member.user.id, gigId, env)
  // The ETag-bearing answers cost a 304 the second time, and their copies are kept.
  for (const url of [`/gigs_lm/${gigId}`, `/gigs/${gigId}/charts`]) {
    assert.deepEqual(statuses.get(url), [200, 304], url)
  }
  assert.equal(second.bytes, first.bytes)
  assert.deepEqual(await packInfo(member.user.id, gigId, env), second)
  // A part the member may not read is left out, not fatal; a missing gig keeps nothing of it.
  const missing = await savePack(member.user.id, 9999, env)
  assert.ok(!missing.urls.some((url) => url.includes('9999')))
})

test('gig pack: the limit refuses a pack that would pass it, writing nothing of it', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const today = bandToday(ctx.app)
  const one = await gigWithSetlist(editor, ctx.app, today)
  const two = await gigWithSetlist(editor, ctx.app, today)
  const probe = await savePack(member.user.id, one, phone(member, new Map()))
  // Room for the first gig and half of another.
  const env = phone(member, new Map(), Math.floor(probe.bytes * 1.5))
  await savePack(member.user.id, one, env)
  await assert.rejects(savePack(member.user.id, two, env), (error: unknown) => {
    assert.ok(error instanceof PackTooLarge)
    assert.ok(error.bytes > error.limit)
    return true
  })
  const cache = env.store.byName.get(`bandstand-user-${member.user.id}`)!
  assert.equal(await cache.match(`/gigs/${two}/setlist.pdf`), undefined)
  assert.deepEqual((await listPacks(member.user.id, env)).map((pack) => pack.gigId), [one])
  // Refreshing the one that fits still works at the limit.
  assert.equal((await savePack(member.user.id, one, env)).gigId, one)
})

test('gig pack: the app starts a save at most once a minute per tab and user', () => {
  const stored = new Map<string, string>()
  const storage = {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => {
      stored.set(key, value)
    }
  }
  const start = 1_000_000
  assert.equal(claimUpcomingSave(7, storage, start), true)
  // Reloads within the minute start nothing; another user on the tab does.
  assert.equal(claimUpcomingSave(7, storage, start + 1_000), false)
  assert.equal(claimUpcomingSave(7, storage, start + UPCOMING_EVERY_MS - 1), false)
  assert.equal(claimUpcomingSave(8, storage, start + 1_000), true)
  assert.equal(claimUpcomingSave(7, storage, start + UPCOMING_EVERY_MS), true)
  // A clock set back does not lock the saves out.
  assert.equal(claimUpcomingSave(7, storage, start), true)
  // Without storage (it throws): the save goes ahead.
  const broken = {
    getItem: () => { throw new Error('SecurityError') },
    setItem: () => {}
  }
  assert.equal(claimUpcomingSave(7, broken, start), true)
})

test('gig pack: the next 7 days are saved at start, later or cancelled gigs are not', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const today = bandToday(ctx.app)
  const soon = await gigWithSetlist(editor, ctx.app, addDays(today, 6))
  const later = await gigWithSetlist(editor, ctx.app, addDays(today, 9))
  const cancelled = await createGig(editor, { date: addDays(today, 2), status: 'cancelled' })
  const env = phone(member, new Map())
  const saved = await saveUpcoming(member.user.id, today, env)
  assert.deepEqual(saved.map((pack) => pack.gigId), [soon])
  assert.equal(await packInfo(member.user.id, later, env), null)
  assert.equal(await packInfo(member.user.id, cancelled.id, env), null)
  assert.equal(addDays('2026-12-28', 7), '2027-01-04')

  // With the tab's record of starts: a second start within the minute asks the server nothing.
  const attempts = new Map<string, string>()
  const storage = {
    getItem: (key: string) => attempts.get(key) ?? null,
    setItem: (key: string, value: string) => {
      attempts.set(key, value)
    }
  }
  const first = await saveUpcoming(member.user.id, today, { ...env, attempts: storage })
  assert.deepEqual(first.map((pack) => pack.gigId), [soon])
  const statuses = new Map<string, number[]>()
  const again = await saveUpcoming(member.user.id, today, {
    ...phone(member, statuses),
    attempts: storage
  })
  assert.deepEqual(again, [])
  assert.equal(statuses.size, 0)

  // The app waits before saving; leaving during the wait (logout) asks the server nothing, and
  // the day is asked only after the wait (a time-zone formatter is slow to make while the app
  // starts): not at all when the wait is cut short; nor does a start cut short claim the minute.
  const abort = new AbortController()
  let asked = 0
  const day = () => {
    asked++
    return today
  }
  const freshAttempts = new Map<string, string>()
  const fresh = {
    getItem: (key: string) => freshAttempts.get(key) ?? null,
    setItem: (key: string, value: string) => {
      freshAttempts.set(key, value)
    }
  }
  const waiting = saveUpcoming(member.user.id, day, {
    ...phone(member, statuses),
    delayMs: 60_000,
    signal: abort.signal,
    attempts: fresh
  })
  abort.abort()
  assert.deepEqual(await waiting, [])
  assert.equal(statuses.size, 0)
  assert.equal(asked, 0)
  assert.equal(freshAttempts.size, 0)
  // After the wait, the same save as at once.
  const delayed = await saveUpcoming(member.user.id, day, {
    ...phone(member, new Map()),
    delayMs: 5,
    attempts: fresh
  })
  assert.deepEqual(delayed.map((pack) => pack.gigId), [soon])
  assert.equal(asked, 1)
})

test('gig pack: the live view the phone knows last replaces the pack\'s copy', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const gigId = await gigWithSetlist(editor, ctx.app, bandToday(ctx.app))
  const statuses = new Map<string, number[]>()
  const env = phone(member, statuses)
  const known = Date.parse('2026-11-28T21:14:05Z')
  const now = () => known
  // No pack for the gig: nothing is written.
  assert.equal(await keepLiveView(member.user.id, gigId, { version: 1 }, null, { ...env, now }),
    false)
  const cache = env.store.byName.get(`bandstand-user-${member.user.id}`)!
  assert.equal(await cache.match(`/gigs_lm/${gigId}`), undefined)
  // No Cache API (an insecure origin): nothing either.
  assert.equal(await keepLiveView(member.user.id, gigId, {}, null,
    { caches: undefined as unknown as CacheStorage }), false)

  await savePack(member.user.id, gigId, env)
  const saved = await (await cache.match(`/gigs_lm/${gigId}`))!.json()
  const played = {
    ...saved,
    version: saved.version + 4,
    current: saved.sets[0].entries[4]
  }
  const tag = (await cache.match(`/gigs_lm/${gigId}`))!.headers.get('etag')
  assert.equal(await keepLiveView(member.user.id, gigId, played, tag, { ...env, now }), true)
  const kept = (await cache.match(`/gigs_lm/${gigId}`))!
  // The time it was known is the time the offline page shows (the service worker's mark).
  assert.equal(kept.headers.get('date'), new Date(known).toUTCString())
  assert.equal(kept.headers.get('etag'), tag)
  assert.equal((await kept.json()).current.id, saved.sets[0].entries[4].id)
  // Without the server's tag it is kept without one (the next refresh fetches it whole).
  await keepLiveView(member.user.id, gigId, played, null, { ...env, now })
  assert.equal((await cache.match(`/gigs_lm/${gigId}`))!.headers.get('etag'), null)
})

test('gig pack: charts refused as too large keep the copy saved before, and say so', async (t) => {
  const ctx = await createTestApp()
  t.after(() => ctx.close())
  const editor = await userClient(ctx.app, 'eddie', 'editor')
  const member = await userClient(ctx.app, 'mia')
  const other = await userClient(ctx.app, 'otto')
  const ids = insertSongs(ctx.app, Math.floor(MAX_GIG_CHART_BYTES / MAX_CHART_BYTES) + 1)
  const gig = await createGig(editor, { date: bandToday(ctx.app), status: 'confirmed' })
  await putSetlist(editor, gig.id, [ids])
  const env = phone(member, new Map())
  const url = `/gigs/${gig.id}/charts`
  const before = await savePack(member.user.id, gig.id, env)
  assert.equal(before.tooLarge, undefined)
  const cache = env.store.byName.get(`bandstand-user-${member.user.id}`)!
  const kept = await (await cache.match(url))!.text()

  // The charts grow past the server's cap (written as an older release could have).
  for (const id of ids) {
    ctx.app.db.update(songs).set({ chart: 'x'.repeat(MAX_CHART_BYTES) })
      .where(inArray(songs.id, [id])).run()
  }
  const after = await savePack(member.user.id, gig.id, env)
  assert.deepEqual(after.tooLarge, [url])
  assert.ok(after.urls.includes(url), 'the earlier copy is still part of the pack')
  assert.equal(await (await cache.match(url))!.text(), kept)
  assert.deepEqual(await packInfo(member.user.id, gig.id, env), after)
  // A phone without an earlier copy keeps none and says so too.
  const fresh = await savePack(other.user.id, gig.id, phone(other, new Map()))
  assert.deepEqual(fresh.tooLarge, [url])
  assert.ok(!fresh.urls.includes(url))
})
