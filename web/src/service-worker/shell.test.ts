import { describe, expect, it } from 'vitest'
import { MemoryCaches, ORIGIN } from '$lib/offline/memory-caches'
import type { WorkerContext } from './context'
import { USER_PREFIX } from './pack'
import {
  asset,
  dropOldShells,
  navigate,
  parseRouteFiles,
  precache,
  shellCacheName,
  shellFor,
  SHELL_PREFIX
} from './shell'

const SHELL_HTML = '<html><head><title>Bandstand</title></head><body></body></html>'
const LIVE_FILES = ['/app/_app/immutable/nodes/9.js', '/app/_app/immutable/assets/9.css']

const offline = () => Promise.reject(new TypeError('Failed to fetch'))

async function worker (fetch: (request: Request) => Promise<Response> = offline) {
  const caches = new MemoryCaches(async (request) => new Response(`built ${request.url}`))
  const ctx: WorkerContext = {
    caches: caches.api,
    fetch,
    origin: ORIGIN,
    shellCache: shellCacheName(['/app/a.js']),
    precached: new Set(['/app/a.js']),
    routeFiles: parseRouteFiles(JSON.stringify([['^/app/gigs/[^/]+/live/?$', LIVE_FILES]])),
    navigationTimeoutMs: 30
  }
  const shell = await caches.open(ctx.shellCache)
  await shell.put('/app/', new Response(SHELL_HTML, {
    headers: { 'content-type': 'text/html', 'content-length': '63', 'content-encoding': 'br' }
  }))
  return { ctx, caches, shell }
}

const page = (path: string) => {
  const request = new Request(new URL(path, ORIGIN))
  Object.defineProperty(request, 'mode', { value: 'navigate' })
  return request
}

describe('the shell cache', () => {
  it('is named after the build: a new release is a new cache', () => {
    expect(shellCacheName(['/app/a.js'])).toBe(shellCacheName(['/app/a.js']))
    expect(shellCacheName(['/app/a.js'])).not.toBe(shellCacheName(['/app/b.js']))
    expect(shellCacheName([])).toMatch(new RegExp(`^${SHELL_PREFIX}[0-9a-z]+$`))
  })

  it('install keeps the shell page and every built file, bypassing the HTTP cache', async () => {
    const loaded: Request[] = []
    const caches = new MemoryCaches(async (request) => {
      loaded.push(request)
      return new Response('x')
    })
    const ctx = { ...(await worker()).ctx, caches: caches.api }
    await precache(ctx, ['/app/a.js', '/app/boot.js'])
    expect(loaded.map((r) => new URL(r.url).pathname))
      .toEqual(['/app/', '/app/a.js', '/app/boot.js'])
    expect(loaded.every((r) => r.cache === 'reload')).toBe(true)
    expect([...caches.byName.keys()]).toEqual([ctx.shellCache])
  })

  it('activation deletes older shells, never a user\'s pack', async () => {
    const { ctx, caches } = await worker()
    await caches.open(`${SHELL_PREFIX}old`)
    await caches.open(`${USER_PREFIX}4`)
    await caches.open('someone-else')
    await dropOldShells(ctx)
    expect([...caches.byName.keys()].sort())
      .toEqual([ctx.shellCache, `${USER_PREFIX}4`, 'someone-else'].sort())
  })

  it('built files come from it whatever their query, the network on a miss', async () => {
    const { ctx, shell } = await worker(async () => new Response('from the network'))
    await shell.put('/app/a.js', new Response('cached'))
    expect(await (await asset(new Request(`${ORIGIN}/app/a.js?import`), ctx)).text()).toBe('cached')
    expect(await (await asset(new Request(`${ORIGIN}/app/b.js`), ctx)).text())
      .toBe('from the network')
  })

  it('route files written by the build are patterns; none in `vite dev`', () => {
    const [[pattern, files]] = parseRouteFiles('[["^/app/x/?$",["/app/y.js"]]]') as
      [[RegExp, string[]]]
    expect(pattern.test('/app/x/')).toBe(true)
    expect(files).toEqual(['/app/y.js'])
    expect(parseRouteFiles('__BANDSTAND_ROUTE_FILES__')).toEqual([])
  })
})

describe('a page of the app', () => {
  it('comes from the network while there is one', async () => {
    const { ctx } = await worker(async () => new Response('new release'))
    expect(await (await navigate(page('/app/songs'), ctx)).text()).toBe('new release')
  })

  it('offline: the cached shell, as it is when nothing is to be added', async () => {
    const { ctx } = await worker()
    const answer = await navigate(page('/app/songs'), ctx)
    expect(await answer.text()).toBe(SHELL_HTML)
    expect(answer.headers.get('content-length')).toBe('63')
  })

  it('a stalled server: the shell after the timeout', async () => {
    const { ctx } = await worker(() => new Promise<Response>(() => {}))
    expect(await (await navigate(page('/app/'), ctx)).text()).toBe(SHELL_HTML)
  })

  it('offline without a shell: the network\'s failure', async () => {
    const { ctx, caches } = await worker()
    await caches.delete(ctx.shellCache)
    await expect(navigate(page('/app/'), ctx)).rejects.toThrow('Failed to fetch')
  })

  it('the live page: its files as preloads and style sheets, the pack\'s first answers',
    async () => {
      const { ctx, caches } = await worker()
      const pack = await caches.open(`${USER_PREFIX}4`)
      await pack.put('/me', new Response('{"name":"</script><b>"}', {
        headers: { 'content-type': 'application/json', date: 'Sat, 28 Nov 2026 21:00:00 GMT' }
      }))
      await pack.put('/gigs_lm/7', new Response('{"version":3}', { headers: { etag: '"v3"' } }))
      await pack.put('/gigs_lm/8', new Response('{"version":1}'))
      const answer = await shellFor('/app/gigs/7/live', ctx)
      expect(answer!.headers.get('content-type')).toBe('text/html')
      expect(answer!.headers.has('content-length')).toBe(false)
      expect(answer!.headers.has('content-encoding')).toBe(false)
      const html = await answer!.text()
      const head = html.slice(0, html.indexOf('</head>'))
      expect(head).toContain('<link rel="modulepreload" href="/app/_app/immutable/nodes/9.js">')
      expect(head).toContain('<link rel="stylesheet" href="/app/_app/immutable/assets/9.css">')
      const block = /<script type="application\/json" id="bandstand-first-answers">(.*?)<\/script>/
        .exec(head)![1]!
      expect(block).not.toContain('<')
      const answers = JSON.parse(block) as Record<string, { body: string, headers: string[][] }>
      expect(Object.keys(answers).sort()).toEqual(['/gigs_lm/7', '/me'])
      expect(answers['/me']!.body).toBe('{"name":"</script><b>"}')
      expect(answers['/me']!.headers).toContainEqual(['x-bandstand-offline',
        'Sat, 28 Nov 2026 21:00:00 GMT'])
      expect(answers['/gigs_lm/7']!.headers).toContainEqual(['etag', '"v3"'])
      // Another page of the app: no route files, no live view.
      const other = await (await shellFor('/app/songs', ctx))!.text()
      expect(other).not.toContain('modulepreload')
      expect(other).toContain('"/me"')
      expect(other).not.toContain('gigs_lm')
    })
})
