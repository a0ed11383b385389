import type { WorkerContext } from './context'
import { firstAnswers } from './pack'

// The app shell: every built file precached into a cache named after the build, index.html
// answered for every /app/… page when the network fails; activation deletes only old shells.

export const SHELL_URL = '/app/'
export const SHELL_PREFIX = 'bandstand-shell-'

/** Hashed file names in `build`: a new release is a new list, hence a new cache name. */
export function shellCacheName (assets: string[]): string {
  let hash = 5381
  for (const char of assets.join('\n')) hash = ((hash * 33) ^ char.charCodeAt(0)) >>> 0
  return `${SHELL_PREFIX}${hash.toString(36)}`
}

/** The route files scripts/finish-web-build.mjs writes into the built worker, as patterns. */
export function parseRouteFiles (json: string): [RegExp, string[]][] {
  try {
    return (JSON.parse(json) as [string, string[]][]).map(([re, files]) => [new RegExp(re), files])
  } catch {
    return [] // `vite dev`: not written in
  }
}

/**
 * Install: the shell (index.html, what the server answers for every app route) and every built
 * file; `cache: 'reload'` so that no stale copy from the HTTP cache is taken.
 */
export async function precache (ctx: WorkerContext, assets: string[]): Promise<void> {
  const cache = await ctx.caches.open(ctx.shellCache)
  await cache.addAll(
    [SHELL_URL, ...assets].map((url) => new Request(new URL(url, ctx.origin), { cache: 'reload' }))
  )
}

/** Activate: older releases' shells go; users' packs stay. */
export async function dropOldShells ({ caches, shellCache }: WorkerContext): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(SHELL_PREFIX) && name !== shellCache) await caches.delete(name)
  }
}

export async function fromShell (
  request: Request | string,
  { caches, shellCache }: WorkerContext
): Promise<Response | undefined> {
  const cache = await caches.open(shellCache)
  // The server varies on Origin and Accept-Encoding, and a module import carries an Origin the
  // precache's requests lack: built files are the same bytes whatever the request said.
  return cache.match(request, { ignoreSearch: true, ignoreVary: true })
}

/**
 * The shell for this page with its route's files named as preloads: the browser fetches them
 * from the cache while the app boots, instead of one import level at a time once the router asks
 * (the live page opened offline: docs/offline.md), and with the pack's first answers.
 */
export async function shellFor (path: string, ctx: WorkerContext): Promise<Response | undefined> {
  const [shell, answers] = await Promise.all([fromShell(SHELL_URL, ctx), firstAnswers(path, ctx)])
  const files = ctx.routeFiles.find(([pattern]) => pattern.test(path))?.[1] ?? []
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

/**
 * The network first (a new release shows at once); the cached shell when it fails or does not
 * answer in time.
 */
export async function navigate (request: Request, ctx: WorkerContext): Promise<Response> {
  const network = ctx.fetch(request)
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ctx.navigationTimeoutMs)
  })
  try {
    const answer = await Promise.race([network, late])
    if (answer) return answer
  } catch {
    // Offline or refused: the shell below.
  } finally {
    clearTimeout(timer)
  }
  return (await shellFor(new URL(request.url).pathname, ctx)) ?? network
}

/** Built files never change under their name: the cache first, the network for a miss. */
export async function asset (request: Request, ctx: WorkerContext): Promise<Response> {
  return (await fromShell(request, ctx)) ?? ctx.fetch(request)
}
