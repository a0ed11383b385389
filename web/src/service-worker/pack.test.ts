import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryCaches, ORIGIN } from '$lib/offline/memory-caches'
import type { WorkerContext } from './context'
import { fromPack, OFFLINE_HEADER, packed, USER_PREFIX } from './pack'
import { SHELL_PREFIX } from './shell'

const get = (path: string) => new Request(new URL(path, ORIGIN))

function context (fetch: (request: Request) => Promise<Response>) {
  const caches = new MemoryCaches()
  const ctx: WorkerContext = {
    caches: caches.api,
    fetch,
    origin: ORIGIN,
    shellCache: `${SHELL_PREFIX}x`,
    precached: new Set(),
    routeFiles: [],
    navigationTimeoutMs: 30
  }
  return { ctx, caches }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the gig pack in the service worker', () => {
  it('online: the server\'s answer, whatever the pack holds', async () => {
    const { ctx, caches } = context(async () => new Response('live', { status: 200 }))
    await (await caches.open(`${USER_PREFIX}4`)).put('/gigs/7', new Response('kept'))
    expect(await (await packed(get('/gigs/7'), ctx)).text()).toBe('live')
    // An error the server answered is its answer too: no copy stands in for it.
    const refused = context(async () => new Response('gone', { status: 404 }))
    await (await refused.caches.open(`${USER_PREFIX}4`)).put('/gigs/7', new Response('kept'))
    expect((await packed(get('/gigs/7'), refused.ctx)).status).toBe(404)
  })

  it('offline: the copy, marked with when it was saved', async () => {
    const { ctx, caches } = context(() => Promise.reject(new TypeError('offline')))
    await (await caches.open(`${USER_PREFIX}4`)).put('/gigs/7/setlist.pdf?style=stage',
      new Response('%PDF-', { headers: { date: 'Sat, 28 Nov 2026 20:00:00 GMT', etag: '"p"' } }))
    const answer = await packed(get('/gigs/7/setlist.pdf?style=stage'), ctx)
    expect(await answer.text()).toBe('%PDF-')
    expect(answer.headers.get(OFFLINE_HEADER)).toBe('Sat, 28 Nov 2026 20:00:00 GMT')
    expect(answer.headers.get('etag')).toBe('"p"')
    // The query is part of the URL: the plain setlist PDF was not saved.
    await expect(packed(get('/gigs/7/setlist.pdf'), ctx)).rejects.toThrow('offline')
  })

  it('a copy without a date is marked with the time it is answered', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T22:30:00Z') })
    const { ctx, caches } = context(() => Promise.reject(new TypeError('offline')))
    await (await caches.open(`${USER_PREFIX}4`)).put('/me', new Response('{}'))
    expect((await fromPack(get('/me'), ctx))!.headers.get(OFFLINE_HEADER))
      .toBe('Sat, 28 Nov 2026 22:30:00 GMT')
  })

  it('reads users\' caches only: the shell cache holds no user data to answer with', async () => {
    const { ctx, caches } = context(() => Promise.reject(new TypeError('offline')))
    await (await caches.open(`${SHELL_PREFIX}x`)).put('/me', new Response('{"id":1}'))
    await (await caches.open('other-app')).put('/me', new Response('{"id":2}'))
    expect(await fromPack(get('/me'), ctx)).toBe(undefined)
    await (await caches.open(`${USER_PREFIX}4`)).put('/me', new Response('{"id":4}'))
    expect(await (await fromPack(get('/me'), ctx))!.json()).toEqual({ id: 4 })
  })
})
