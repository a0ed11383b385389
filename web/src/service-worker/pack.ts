import type { WorkerContext } from './context'

// The user's gig pack (lib/offline/gig-pack.ts, written by the page) in caches named
// `bandstand-user-<id>` (lib/offline/user-caches.ts clears them on logout and when another user
// logs in): read only when the network fails, and then also written into the offline shell
// (firstAnswers). The constants are kept equal to lib/offline and lib/api (not imported: the
// worker bundle stays free of app modules; the unit tests compare them).

export const USER_PREFIX = 'bandstand-user-'
export const OFFLINE_HEADER = 'x-bandstand-offline'
export const FIRST_ANSWERS_ID = 'bandstand-first-answers'
const KEPT_HEADERS = ['content-type', 'etag', 'date', OFFLINE_HEADER]

/**
 * The API paths a gig pack holds (lib/offline/gig-pack.ts → packUrls, and the files its
 * pack-files answer lists); the event stream is not one.
 */
export const PACKED =
  /^\/(me|public\/app_config|gigs\/\d+(\/[a-z.-]+)?|gigs_lm\/\d+|files\/\d+\/[^/]+)$/

/** The copy in the user's pack, marked with when it was saved (the live page says so). */
export async function fromPack (
  request: Request,
  { caches }: Pick<WorkerContext, 'caches'>
): Promise<Response | undefined> {
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
export async function packed (request: Request, ctx: WorkerContext): Promise<Response> {
  try {
    return await ctx.fetch(request)
  } catch (error) {
    const kept = await fromPack(request, ctx)
    if (kept) return kept
    throw error
  }
}

/**
 * What the app asks first on this page, from the pack, written into the offline shell (a JSON
 * block, never run): the band's configuration and who is logged in (the root layout waits for
 * both before any screen) and, on the live page, its view. The app takes each once instead of
 * asking this worker (lib/api/first-answers.ts): three round trips through the worker, one after
 * the other behind the router's start, were the largest wait of the live page opened offline
 * (docs/offline.md). Online the shell comes from the server and holds none of it.
 */
export async function firstAnswers (path: string, ctx: WorkerContext): Promise<string> {
  const live = /^\/app\/gigs\/(\d+)\/live\/?$/.exec(path)
  const urls = ['/public/app_config', '/me', ...(live ? [`/gigs_lm/${live[1]}`] : [])]
  const answers: Record<string, { status: number, headers: [string, string][], body: string }> = {}
  await Promise.all(urls.map(async (url) => {
    const kept = await fromPack(new Request(new URL(url, ctx.origin)), ctx)
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
