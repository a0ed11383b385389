/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
// The offline shell of the web app (SvelteKit's own service worker; docs/deployment.md → "Gig
// night without a network" says why not @vite-pwa/sveltekit). It precaches the built app into a
// cache named after the build, answers every /app/… navigation with the app shell when the network
// fails, and touches nothing else: API answers pass through uncached. Per-user data (the gig pack,
// lib/offline/gig-pack.ts, written by the page) lives in caches named `bandstand-user-<id>`
// (lib/offline/user-caches.ts clears them on logout and when another user logs in); it is read here
// only when the network fails (and then also written into the shell it serves: firstAnswers).
// Activation deletes only old shells.
import { build, files } from '$service-worker'
import { registerPushHandlers } from '$lib/offline/push-handlers'

const worker = self as unknown as ServiceWorkerGlobalScope
registerPushHandlers(worker)

// Written by scripts/finish-web-build.mjs: the boot script it moved out of index.html, which is
// no Vite output and so not in `build`.
const BOOT = '__BANDSTAND_BOOT__'
const SHELL_URL = '/app/'
const SHELL_PREFIX = 'bandstand-shell-'
// Kept equal to lib/offline (not imported: the worker bundle stays free of app modules).
const USER_PREFIX = 'bandstand-user-'
const OFFLINE_HEADER = 'x-bandstand-offline'
/**
 * Written by scripts/finish-web-build.mjs: each route's path pattern and the built files its page
 * needs beyond the shell's own preloads (first match wins).
 */
const ROUTE_FILES = routeFiles('__BANDSTAND_ROUTE_FILES__')
/** A stalled server (Wi-Fi at the edge) answers nothing: the shell is served after this long. */
const NAVIGATION_TIMEOUT_MS = 3000

/** Hashed file names in `build`: a new release is a new list, hence a new cache name. */
function buildTag (names: string[]): string {
  let hash = 5381
  for (const char of names.join('\n')) hash = ((hash * 33) ^ char.charCodeAt(0)) >>> 0
  return hash.toString(36)
}

const ASSETS = [...build, ...files, BOOT]
const SHELL_CACHE = `${SHELL_PREFIX}${buildTag(ASSETS)}`
const PRECACHED = new Set(ASSETS)

worker.addEventListener('install', (event) => {
  // The shell (index.html, what the server answers for every app route) and every built file;
  // `cache: 'reload'` so that no stale copy from the HTTP cache is taken.
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) =>
        cache.addAll([SHELL_URL, ...ASSETS].map((url) => new Request(url, { cache: 'reload' })))
      )
  )
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name)
      }
      // The first install takes the open pages at once, so that their next reload works offline.
      await worker.clients.claim()
    })()
  )
})

worker.addEventListener('message', (event) => {
  // The page's "Reload" on the update prompt, or a page that runs this very release (an online
  // start after a release): the waiting version takes over now.
  if (event.data === 'skip-waiting') worker.skipWaiting()
  // Whether this release holds a built file (the page asks with its boot script).
  const ask = event.data as { type?: string; url?: unknown } | null
  if (ask?.type === 'holds' && typeof ask.url === 'string') {
    event.ports[0]?.postMessage({ holds: PRECACHED.has(ask.url) })
  }
})

function routeFiles (json: string): [RegExp, string[]][] {
  try {
    return (JSON.parse(json) as [string, string[]][]).map(([re, files]) => [new RegExp(re), files])
  } catch {
    return [] // `vite dev`: not written in
  }
}

/**
 * The shell for this page with its route's files named as preloads: the browser fetches them
 * from the cache while the app boots, instead of one import level at a time once the router asks
 * (the live page opened offline: docs/offline.md), and with the pack's first answers.
 */
async function shellFor (path: string): Promise<Response | undefined> {
  const [shell, answers] = await Promise.all([fromShell(SHELL_URL), firstAnswers(path)])
  const files = ROUTE_FILES.find(([pattern]) => pattern.test(path))?.[1] ?? []
  if (!shell || (files.length === 0 && !answers)) return shell
  // The route's style sheets as style sheets: Vite's loader of the route's code adds none that the
  // page has already and, else, waits for its `load` (another round trip through this worker
  // after the router's start). A preload of one was fetched a second time.
  const links = files
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="stylesheet" href="${file}">`
        : `<link rel="modulepreload" href="${file}">`)
    .join('')
  const headers = new Headers(shell.headers)
  headers.delete('content-length')
  headers.delete('content-encoding')
  const html = (await shell.text()).replace('</head>', `${links}${answers}</head>`)
  return new Response(html, { status: shell.status, headers })
}

// Kept equal to lib/api/first-answers.ts (not imported: the worker bundle stays free of app code).
const FIRST_ANSWERS_ID = 'bandstand-first-answers'
const KEPT_HEADERS = ['content-type', 'etag', 'date', OFFLINE_HEADER]

/**
 * What the app asks first on this page, from the pack, written into the offline shell (a JSON
 * block, never run): the band's configuration and who is logged in (the root layout waits for
 * both before any screen) and, on the live page, its view. The app takes each once instead of
 * asking this worker (lib/api/first-answers.ts): three round trips through the worker, one after
 * the other behind the router's start, were the largest wait of the live page opened offline
 * (docs/offline.md). Online the shell comes from the server and holds none of it.
 */
async function firstAnswers (path: string): Promise<string> {
  const live = /^\/app\/gigs\/(\d+)\/live\/?$/.exec(path)
  const urls = ['/public/app_config', '/me', ...(live ? [`/gigs_lm/${live[1]}`] : [])]
  const answers: Record<string, { status: number, headers: [string, string][], body: string }> = {}
  await Promise.all(urls.map(async (url) => {
    const kept = await fromPack(new Request(new URL(url, location.origin)))
    if (!kept?.ok) return
    const headers = KEPT_HEADERS.flatMap((name): [string, string][] => {
      const value = kept.headers.get(name)
      return value === null ? [] : [[name, value]]
    })
    answers[url] = { status: kept.status, headers, body: await kept.text() }
  }))
  if (Object.keys(answers).length === 0) return ''
  // `<` escaped: no text of the band's (a title with `</script>`) can end the block.
  const json = JSON.stringify(answers).replaceAll('<', '\\u003c')
  return `<script type="application/json" id="${FIRST_ANSWERS_ID}">${json}</script>`
}

async function fromShell (request: Request | string): Promise<Response | undefined> {
  const cache = await caches.open(SHELL_CACHE)
  // The server varies on Origin and Accept-Encoding, and a module import carries an Origin the
  // precache's requests lack: built files are the same bytes whatever the request said.
  return cache.match(request, { ignoreSearch: true, ignoreVary: true })
}

/**
 * The network first (a new release shows at once); the cached shell when it fails or does not
 * answer in time.
 */
async function navigate (request: Request): Promise<Response> {
  const network = fetch(request)
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, NAVIGATION_TIMEOUT_MS)
  })
  try {
    const answer = await Promise.race([network, late])
    if (answer) return answer
  } catch {
    // Offline or refused: the shell below.
  } finally {
    clearTimeout(timer)
  }
  return (await shellFor(new URL(request.url).pathname)) ?? network
}

// The API paths a gig pack holds (lib/offline/gig-pack.ts → packUrls, and the files its
// pack-files answer lists); the event stream is not one.
const PACKED =
  /^\/(me|public\/app_config|gigs\/\d+(\/[a-z.-]+)?|gigs_lm\/\d+|files\/\d+\/[^/]+)$/

/** The copy in the user's pack, marked with when it was saved (the live page says so). */
async function fromPack (request: Request): Promise<Response | undefined> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(USER_PREFIX)) continue
    const kept = await (await caches.open(name)).match(request, { ignoreVary: true })
    if (!kept) continue
    const headers = new Headers(kept.headers)
    headers.set(OFFLINE_HEADER, headers.get('date') ?? new Date().toUTCString())
    return new Response(kept.body, { status: kept.status, headers })
  }
  return undefined
}

/** The network always; the pack only when the network fails (never a stale answer online). */
async function packed (request: Request): Promise<Response> {
  try {
    return await fetch(request)
  } catch (error) {
    const kept = await fromPack(request)
    if (kept) return kept
    throw error
  }
}

/** Built files never change under their name: the cache first, the network for a miss. */
async function asset (request: Request): Promise<Response> {
  return (await fromShell(request)) ?? fetch(request)
}

worker.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== location.origin) return
  const inApp = url.pathname === '/app' || url.pathname.startsWith('/app/')
  if (request.mode === 'navigate' && inApp) {
    event.respondWith(navigate(request))
  } else if (PRECACHED.has(url.pathname)) {
    event.respondWith(asset(request))
  } else if (PACKED.test(url.pathname)) {
    event.respondWith(packed(request))
  }
  // Anything else (the rest of the API, the manifest) is not answered here: the browser fetches it
  // as if there were no service worker, and nothing of it is stored.
})
