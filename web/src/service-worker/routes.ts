import type { WorkerContext } from './context'
import { packed, PACKED } from './pack'
import { asset, navigate } from './shell'

/** Who answers a request: the app shell, a built file, the pack when offline, or the network. */
export type Route = 'shell' | 'asset' | 'pack' | 'network'

/**
 * Pages of the app go network first with the shell as fallback; built files come from the shell
 * cache; the API paths a gig pack holds go network first with the pack as fallback. Anything else
 * (the rest of the API, other origins, every write, the manifest) is not answered here: the
 * browser fetches it as if there were no service worker, and nothing of it is stored.
 */
export function routeOf (
  request: Pick<Request, 'method' | 'mode' | 'url'>,
  { origin, precached }: Pick<WorkerContext, 'origin' | 'precached'>
): Route {
  if (request.method !== 'GET') return 'network'
  const url = new URL(request.url)
  if (url.origin !== origin) return 'network'
  const inApp = url.pathname === '/app' || url.pathname.startsWith('/app/')
  if (request.mode === 'navigate' && inApp) return 'shell'
  if (precached.has(url.pathname)) return 'asset'
  if (PACKED.test(url.pathname)) return 'pack'
  return 'network'
}

/** The worker's answer to a request, or undefined to leave it to the browser. */
export function respond (request: Request, ctx: WorkerContext): Promise<Response> | undefined {
  switch (routeOf(request, ctx)) {
    case 'shell': return navigate(request, ctx)
    case 'asset': return asset(request, ctx)
    case 'pack': return packed(request, ctx)
    case 'network': return undefined
  }
}
