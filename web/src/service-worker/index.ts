/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
// The offline shell of the web app (SvelteKit's own service worker; docs/deployment.md → "Gig
// night without a network" says why not @vite-pwa/sveltekit), wired to the worker's events here:
// shell.ts precaches the built app and answers every /app/… page with it when the network fails;
// pack.ts answers the user's gig pack offline; routes.ts says which requests are answered at all
// (API answers pass through uncached).
import { build, files } from '$service-worker'
import { registerPushHandlers } from '$lib/offline/push-handlers'
import type { WorkerContext } from './context'
import { respond } from './routes'
import { dropOldShells, parseRouteFiles, precache, shellCacheName } from './shell'

const worker = self as unknown as ServiceWorkerGlobalScope
registerPushHandlers(worker)

// Written by scripts/finish-web-build.mjs: the boot script it moved out of index.html, which is
// no Vite output and so not in `build`.
const BOOT = '__BANDSTAND_BOOT__'
const ASSETS = [...build, ...files, BOOT]

const ctx: WorkerContext = {
  caches,
  fetch: (request) => fetch(request),
  origin: location.origin,
  shellCache: shellCacheName(ASSETS),
  precached: new Set(ASSETS),
  // Written by scripts/finish-web-build.mjs: each route's path pattern and the built files its
  // page needs beyond the shell's own preloads (first match wins).
  routeFiles: parseRouteFiles('__BANDSTAND_ROUTE_FILES__'),
  navigationTimeoutMs: 3000
}

worker.addEventListener('install', (event) => {
  event.waitUntil(precache(ctx, ASSETS))
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await dropOldShells(ctx)
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
    event.ports[0]?.postMessage({ holds: ctx.precached.has(ask.url) })
  }
})

worker.addEventListener('fetch', (event) => {
  const answer = respond(event.request, ctx)
  if (answer) event.respondWith(answer)
})
