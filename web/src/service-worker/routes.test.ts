// The service worker's fetch routing: which requests it answers, and from where.
import { describe, expect, it } from 'vitest'
import { FIRST_ANSWERS_ID as APP_FIRST_ANSWERS_ID } from '$lib/api/first-answers'
import {
  OFFLINE_HEADER as APP_OFFLINE_HEADER,
  packFilesUrl,
  packUrls
} from '$lib/offline/gig-pack'
import { MemoryCaches, ORIGIN } from '$lib/offline/memory-caches'
import { USER_CACHE_PREFIX } from '$lib/offline/user-caches'
import type { WorkerContext } from './context'
import { FIRST_ANSWERS_ID, OFFLINE_HEADER, USER_PREFIX } from './pack'
import { respond, routeOf, type Route } from './routes'
import { shellCacheName } from './shell'

const BUILT = '/app/_app/immutable/entry/start.abc123.js'

function request (path: string, init: { method?: string, navigate?: boolean } = {}): Request {
  const made = new Request(new URL(path, ORIGIN), { method: init.method ?? 'GET' })
  // A browser's page load; `new Request` refuses to make one.
  if (init.navigate) Object.defineProperty(made, 'mode', { value: 'navigate' })
  return made
}

function context (fetch: (request: Request) => Promise<Response>) {
  const caches = new MemoryCaches()
  const ctx: WorkerContext = {
    caches: caches.api,
    fetch,
    origin: ORIGIN,
    shellCache: shellCacheName([BUILT]),
    precached: new Set([BUILT]),
    routeFiles: [],
    navigationTimeoutMs: 50
  }
  return { ctx, caches }
}

const route = (path: string, init?: { method?: string, navigate?: boolean }): Route =>
  routeOf(request(path, init), { origin: ORIGIN, precached: new Set([BUILT]) })

describe('which requests the service worker answers', () => {
  it('pages of the app: the network first, the shell as fallback', () => {
    for (const path of ['/app', '/app/', '/app/gigs/7/live', '/app/songs?q=x']) {
      expect(route(path, { navigate: true }), path).toBe('shell')
    }
    // Not the app: the server's pages and look-alikes.
    expect(route('/apple', { navigate: true })).toBe('network')
    expect(route('/docs', { navigate: true })).toBe('network')
    // The same URL asked by code (fetch, a prefetch) is no page load.
    expect(route('/app/gigs/7/live')).toBe('network')
  })

  it('built files of this release from the shell cache; others from the network', () => {
    expect(route(BUILT)).toBe('asset')
    expect(route(`${BUILT}?v=2`)).toBe('asset')
    expect(route('/app/_app/immutable/entry/start.old999.js')).toBe('network')
  })

  it('every URL of a gig pack goes through the pack route', () => {
    for (const url of [...packUrls(7), packFilesUrl(12), '/files/31/Horn%20lead.pdf']) {
      expect(route(url), url).toBe('pack')
    }
  })

  it('the rest of the API, every write and other origins pass by untouched', () => {
    for (const path of ['/gigs', '/gigs?from=2026-12-01', '/songs', '/songs/3', '/users',
      '/gigs_lm/7/events', '/gigs/7/charts/extra', '/admin/backups', '/files/31',
      '/manifest.webmanifest', '/health']) {
      expect(route(path), path).toBe('network')
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(route('/gigs_lm/7', { method }), method).toBe('network')
      expect(route('/app/', { method, navigate: true }), method).toBe('network')
    }
    expect(routeOf(new Request('https://cdn.example/app/_app/immutable/entry/start.abc123.js'),
      { origin: ORIGIN, precached: new Set([BUILT]) })).toBe('network')
  })

  it('leaves what it does not answer to the browser, touching no cache', async () => {
    let fetched = 0
    const { ctx, caches } = context(async () => {
      fetched++
      return new Response('{}')
    })
    for (const path of ['/songs', '/gigs_lm/7/events']) {
      expect(respond(request(path), ctx)).toBe(undefined)
    }
    expect(respond(request('/gigs_lm/7', { method: 'PUT' }), ctx)).toBe(undefined)
    expect(fetched).toBe(0)
    expect(caches.byName.size).toBe(0)
  })

  it('answers the API from the network while there is one, storing nothing', async () => {
    const { ctx, caches } = context(async () => new Response('{"version":9}'))
    const user = await caches.open(`${USER_PREFIX}4`)
    await user.put('/gigs_lm/7', new Response('{"version":3}'))
    const answer = await respond(request('/gigs_lm/7'), ctx)!
    expect(await answer.json()).toEqual({ version: 9 })
    expect(answer.headers.has(OFFLINE_HEADER)).toBe(false)
    expect(user.written).toEqual([`${ORIGIN}/gigs_lm/7`])
    expect([...caches.byName.keys()]).toEqual([`${USER_PREFIX}4`])
  })

  it('answers the pack offline, a built file from the cache, a page with the shell', async () => {
    const { ctx, caches } = context(() => Promise.reject(new TypeError('offline')))
    const shell = await caches.open(ctx.shellCache)
    await shell.put('/app/', new Response('<html><head></head></html>'))
    await shell.put(BUILT, new Response('export {}'))
    await (await caches.open(`${USER_PREFIX}4`)).put('/me', new Response('{"id":4}'))
    expect(await (await respond(request('/me'), ctx)!).json()).toEqual({ id: 4 })
    expect(await (await respond(request(BUILT), ctx)!).text()).toBe('export {}')
    const page = await respond(request('/app/songs', { navigate: true }), ctx)!
    expect(await page.text()).toContain('<html>')
    await expect(respond(request('/gigs/8'), ctx)).rejects.toThrow('offline')
  })
})

// Not imported: the worker's bundle holds no app code.
describe('what the worker keeps equal to the app', () => {
  it('names the user caches, the offline mark, the first answers\' block as the app', () => {
    expect(USER_PREFIX).toBe(USER_CACHE_PREFIX)
    expect(OFFLINE_HEADER).toBe(APP_OFFLINE_HEADER)
    expect(FIRST_ANSWERS_ID).toBe(APP_FIRST_ANSWERS_ID)
  })
})
