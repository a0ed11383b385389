import { describe, expect, it } from 'vitest'
import {
  keepLiveView,
  listPacks,
  packInfo,
  PackTooLarge,
  packUrls,
  savePack,
  saveUpcoming,
  SessionGone,
  setWantsRecordings,
  wantsRecordings
} from './gig-pack'
import { MemoryCaches } from './memory-caches'
import { userCacheName } from './user-caches'

interface Part {
  status?: number
  body?: string
  etag?: string
}

/**
 * The server as the pack sees it: each path's answer (by URL, else by path: the pack-files list
 * whatever its query), 404 for the rest, a 304 for a matching If-None-Match; every request noted.
 */
function server (parts: Record<string, Part>) {
  const asked: { url: string, status: number, init: RequestInit | undefined }[] = []
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input)
    const part = parts[url] ?? parts[new URL(url, 'https://x').pathname] ?? { status: 404 }
    const match = (init?.headers as Record<string, string> | undefined)?.['if-none-match']
    const status = part.etag && match === part.etag ? 304 : (part.status ?? 200)
    asked.push({ url, status, init })
    const headers = part.etag ? { etag: part.etag } : undefined
    return new Response(status === 304 ? null : (part.body ?? `body of ${url}`),
      { status, headers })
  }
  return { fetch: fetch as typeof globalThis.fetch, asked, parts }
}

const USER = 4
const GIG = 7
const files = (...urls: string[]) => JSON.stringify({ files: urls.map((url) => ({ url })) })

/** Every part of gig 7's pack answered, one sheet PDF among its files. */
function band (extra: Record<string, Part> = {}) {
  const parts: Record<string, Part> = {}
  for (const url of packUrls(GIG)) parts[url] = { body: `[${url}]`, etag: `"${url}"` }
  parts[`/gigs/${GIG}/pack-files`] = { body: files('/files/1/horns.pdf') }
  parts['/files/1/horns.pdf'] = { body: '%PDF-horns', etag: '"f1"' }
  return server({ ...parts, ...extra })
}

interface More { limit?: number, signal?: AbortSignal }

function phone (fetch: typeof globalThis.fetch, more: More = {}) {
  const caches = new MemoryCaches()
  return { caches, env: { caches: caches.api, fetch, now: () => 1_000, ...more } }
}

const packCache = (caches: MemoryCaches) => caches.byName.get(userCacheName(USER))!

describe('savePack', () => {
  it('keeps every part the server answers and the files its list names', async () => {
    const { fetch, asked, parts } = band()
    const { caches, env } = phone(fetch)
    const info = await savePack(USER, GIG, env)
    expect(info.urls).toEqual([...packUrls(GIG), '/files/1/horns.pdf'])
    expect(info).toMatchObject({ gigId: GIG, savedAt: 1_000 })
    const bytes = info.urls
      .reduce((sum, url) => sum + new TextEncoder().encode(parts[url]!.body).length, 0)
    expect(info.bytes).toBe(bytes)
    const cache = packCache(caches)
    expect(await cache.text('/files/1/horns.pdf')).toBe('%PDF-horns')
    expect(await cache.text(`/gigs/${GIG}/setlist.pdf?style=stage`))
      .toBe(`[/gigs/${GIG}/setlist.pdf?style=stage]`)
    expect(await packInfo(USER, GIG, env)).toEqual(info)
    expect(await listPacks(USER, env)).toEqual([info])
    // Asked past the browser's HTTP cache, with the session's cookie.
    expect(asked[0]!.init).toMatchObject({ credentials: 'same-origin', cache: 'no-store' })
  })

  it('asks again with each copy\'s ETag: a 304 keeps the copy and costs no write', async () => {
    const { fetch, asked } = band()
    const { caches, env } = phone(fetch)
    const first = await savePack(USER, GIG, env)
    const cache = packCache(caches)
    const writes = cache.written.length
    asked.length = 0
    const second = await savePack(USER, GIG, env)
    expect(asked.filter((a) => a.status === 304).map((a) => a.url))
      .toEqual([...packUrls(GIG).filter((u) => !u.endsWith('pack-files')), '/files/1/horns.pdf'])
    // Only the untagged list and the pack's record are written again.
    expect(cache.written.slice(writes)).toEqual([
      `https://band.example/gigs/${GIG}/pack-files`,
      `https://band.example/__bandstand/pack/${GIG}`
    ])
    expect(second.bytes).toBe(first.bytes)
    expect(second.urls).toEqual(first.urls)
  })

  it('a part refused as too large (413) keeps the copy saved before and says so', async () => {
    const { fetch, parts } = band()
    const { caches, env } = phone(fetch)
    await savePack(USER, GIG, env)
    const charts = `/gigs/${GIG}/charts`
    parts[charts] = { status: 413, body: '{"code":"TOO_LARGE"}' }
    const after = await savePack(USER, GIG, env)
    expect(after.tooLarge).toEqual([charts])
    expect(after.urls).toContain(charts)
    expect(await packCache(caches).text(charts)).toBe(`[${charts}]`)
    // A phone without an earlier copy keeps none, and says so too.
    const fresh = await savePack(USER, GIG, phone(fetch).env)
    expect(fresh.tooLarge).toEqual([charts])
    expect(fresh.urls).not.toContain(charts)
  })

  it('a file the list no longer names leaves the pack; a new one joins it', async () => {
    const { fetch, parts } = band({ '/files/2/strings.pdf': { body: '%PDF-strings' } })
    const { caches, env } = phone(fetch)
    await savePack(USER, GIG, env)
    parts[`/gigs/${GIG}/pack-files`] = { body: files('/files/2/strings.pdf') }
    const after = await savePack(USER, GIG, env)
    expect(after.urls).not.toContain('/files/1/horns.pdf')
    expect(after.urls).toContain('/files/2/strings.pdf')
    expect(await packCache(caches).text('/files/2/strings.pdf')).toBe('%PDF-strings')
  })

  it('leaves out what the member may not read or what is gone (403, 404)', async () => {
    const { fetch } = band({
      [`/gigs/${GIG}/availability`]: { status: 403 },
      [`/gigs/${GIG}/pack-files`]: { body: 'not JSON' }
    })
    const { env } = phone(fetch)
    const info = await savePack(USER, GIG, env)
    expect(info.urls).not.toContain(`/gigs/${GIG}/availability`)
    expect(info.urls).toContain(`/gigs/${GIG}/pack-files`)
    expect(info.urls.some((url) => url.startsWith('/files/'))).toBe(false)
    expect((await savePack(USER, 99, env)).urls).toEqual(['/me', '/public/app_config'])
  })

  it('writes nothing when the session ends (401) or the user logs out while saving', async () => {
    const { fetch } = band({ [`/gigs/${GIG}/charts`]: { status: 401 } })
    const { caches, env } = phone(fetch)
    await expect(savePack(USER, GIG, env)).rejects.toBeInstanceOf(SessionGone)
    expect(packCache(caches).written).toEqual([])

    const logout = new AbortController()
    const leaving = async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).endsWith('pack-files')) logout.abort()
      return band().fetch(input, init)
    }
    const out = phone(leaving as typeof globalThis.fetch, { signal: logout.signal })
    await expect(savePack(USER, GIG, out.env)).rejects.toBeInstanceOf(SessionGone)
    expect(packCache(out.caches).written).toEqual([])
  })

  it('a network failure keeps the pack saved before', async () => {
    const { fetch } = band()
    const { caches, env } = phone(fetch)
    const before = await savePack(USER, GIG, env)
    const offline = { ...env, fetch: () => Promise.reject(new TypeError('Failed to fetch')) }
    await expect(savePack(USER, GIG, offline)).rejects.toThrow('Failed to fetch')
    expect(await packInfo(USER, GIG, env)).toEqual(before)
    expect(await packCache(caches).text(`/gigs_lm/${GIG}`)).toBe(`[/gigs_lm/${GIG}]`)
  })

  it('refuses a pack that would pass the limit with the others, writing nothing', async () => {
    const { fetch } = band()
    const probe = await savePack(USER, GIG, phone(fetch).env)
    const { caches, env } = phone(fetch, { limit: probe.bytes + 10 })
    await savePack(USER, 8, env)
    const written = packCache(caches).written.length
    const refused = await savePack(USER, GIG, env).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PackTooLarge)
    expect((refused as PackTooLarge).limit).toBe(probe.bytes + 10)
    expect(packCache(caches).written.length).toBe(written)
    expect((await listPacks(USER, env)).map((pack) => pack.gigId)).toEqual([8])
  })
})

describe('recordings in the pack', () => {
  const RECORDING = '/files/3/demo.mp3'
  const withRecordings = () => band({
    [`/gigs/${GIG}/pack-files?recordings=true`]: { body: files('/files/1/horns.pdf', RECORDING) },
    [RECORDING]: { body: 'ID3-demo' }
  })

  it('joins the pack only when asked for; the shared sheet is fetched once', async () => {
    const { fetch, asked } = withRecordings()
    const { caches, env } = phone(fetch)
    const without = await savePack(USER, GIG, env)
    expect(without.urls).not.toContain(RECORDING)
    asked.length = 0
    const withThem = await savePack(USER, GIG, { ...env, recordings: true })
    expect(withThem.urls).toContain(RECORDING)
    expect(asked.filter((a) => a.url === '/files/1/horns.pdf')).toHaveLength(1)
    expect(await packCache(caches).text(RECORDING)).toBe('ID3-demo')
  })

  it('no longer wanted, they leave the phone unless another gig\'s pack holds them', async () => {
    const { fetch, parts } = withRecordings()
    const { caches, env } = phone(fetch)
    await savePack(USER, GIG, { ...env, recordings: true })
    await savePack(USER, GIG, env)
    expect(await packCache(caches).text(RECORDING)).toBeUndefined()
    // Gig 8 lists the same recording: dropping it from gig 7's pack keeps gig 8's copy.
    for (const url of packUrls(8, true)) parts[url] = { body: `[${url}]` }
    parts['/gigs/8/pack-files?recordings=true'] = { body: files(RECORDING) }
    await savePack(USER, 8, { ...env, recordings: true })
    await savePack(USER, GIG, { ...env, recordings: true })
    await savePack(USER, GIG, env)
    expect(await packCache(caches).text(RECORDING)).toBe('ID3-demo')
  })

  it('the choice is per member on this device, off by default, and survives a full storage',
    () => {
      const kept = new Map<string, string>()
      const storage = {
        getItem: (key: string) => kept.get(key) ?? null,
        setItem: (key: string, value: string) => { kept.set(key, value) },
        removeItem: (key: string) => { kept.delete(key) }
      }
      expect(wantsRecordings(USER, storage)).toBe(false)
      setWantsRecordings(USER, true, storage)
      expect(wantsRecordings(USER, storage)).toBe(true)
      expect(wantsRecordings(USER + 1, storage)).toBe(false)
      setWantsRecordings(USER, false, storage)
      expect(wantsRecordings(USER, storage)).toBe(false)
      const full = {
        getItem: () => { throw new Error('denied') },
        setItem: () => { throw new Error('quota') },
        removeItem: () => { throw new Error('quota') }
      }
      expect(() => { setWantsRecordings(USER, true, full) }).not.toThrow()
      expect(wantsRecordings(USER, full)).toBe(false)
    })
})

describe('keepLiveView', () => {
  it('writes the view this phone knows last over the pack\'s copy, only into a pack', async () => {
    const { fetch } = band()
    const { caches, env } = phone(fetch)
    expect(await keepLiveView(USER, GIG, { version: 9 }, '"v9"', env)).toBe(false)
    await savePack(USER, GIG, env)
    const at = { ...env, now: () => Date.parse('2026-11-28T21:14:05Z') }
    expect(await keepLiveView(USER, GIG, { version: 9 }, '"v9"', at)).toBe(true)
    const kept = (await packCache(caches).match(`/gigs_lm/${GIG}`))!
    expect(await kept.json()).toEqual({ version: 9 })
    expect(kept.headers.get('date')).toBe('Sat, 28 Nov 2026 21:14:05 GMT')
    expect(kept.headers.get('etag')).toBe('"v9"')
    await keepLiveView(USER, GIG, { version: 10 }, null, at)
    expect((await packCache(caches).match(`/gigs_lm/${GIG}`))!.headers.has('etag')).toBe(false)
    expect(await keepLiveView(USER, GIG, {}, null,
      { caches: undefined as unknown as CacheStorage })).toBe(false)
  })
})

describe('saveUpcoming', () => {
  const gigs = (list: { id: number, status: string }[]) => ({ body: JSON.stringify(list) })

  it('saves the coming week\'s gigs but cancelled and declined ones', async () => {
    const { fetch, asked } = band({
      '/gigs': gigs([{ id: GIG, status: 'confirmed' }, { id: 8, status: 'cancelled' },
        { id: 9, status: 'declined' }, { id: 10, status: 'inquiry' }])
    })
    const { env } = phone(fetch)
    const saved = await saveUpcoming(USER, () => '2026-12-28', env)
    expect(saved.map((pack) => pack.gigId)).toEqual([GIG, 10])
    expect(asked[0]!.url).toBe('/gigs?from=2026-12-28&to=2027-01-04')
  })

  it('one gig failing does not stop the next; the session ending does', async () => {
    const list = gigs([{ id: 8, status: 'confirmed' }, { id: GIG, status: 'confirmed' }])
    const failing = band({ '/gigs': list, '/gigs/8': { status: 500 } })
    const broken = async (input: string | URL | Request, init?: RequestInit) =>
      String(input).startsWith('/gigs/8/')
        ? Promise.reject(new TypeError('offline'))
        : failing.fetch(input, init)
    const saved = await saveUpcoming(USER, '2026-12-28', phone(broken as typeof fetch).env)
    expect(saved.map((pack) => pack.gigId)).toEqual([GIG])

    const ended = band({ '/gigs': list, '/gigs/8/setlist': { status: 401 } })
    expect(await saveUpcoming(USER, '2026-12-28', phone(ended.fetch).env)).toEqual([])
    expect(ended.asked.some((a) => a.url.startsWith(`/gigs/${GIG}`))).toBe(false)
  })

  it('saves nothing when the list is refused or the member left during the wait', async () => {
    const refused = band({ '/gigs': { status: 401 } })
    expect(await saveUpcoming(USER, '2026-12-28', phone(refused.fetch).env)).toEqual([])
    const logout = new AbortController()
    const { fetch, asked } = band()
    const waiting = saveUpcoming(USER, '2026-12-28',
      { ...phone(fetch).env, delayMs: 60_000, signal: logout.signal })
    logout.abort()
    expect(await waiting).toEqual([])
    expect(asked).toEqual([])
  })
})
