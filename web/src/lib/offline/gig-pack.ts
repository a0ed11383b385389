// The gig pack: what gig night needs of one gig, kept in the user's cache (`bandstand-user-<id>`)
// so that the service worker can answer it when the network is gone (web/src/service-worker/).
// Plain TypeScript without app imports: the node tests drive it with a fake Cache API.
import { userCacheName } from './user-caches.js'

/** Per user, all packs together (docs/deployment.md → "Gig night without a network"). */
export const PACK_LIMIT_BYTES = 50 * 1024 * 1024
/** A user's gigs from today to this many days ahead are saved without asking. */
export const UPCOMING_DAYS = 7
/**
 * The app saves the upcoming packs at most once a minute per tab and user. A page reloaded again
 * and again (a member flicking through screens with the browser's reload) would otherwise start
 * the pack's PDF renders once per reload — renders nobody collects, which the server counts
 * against the member's document limit (DOCUMENTS_PER_USER) until they end.
 */
export const UPCOMING_EVERY_MS = 60_000
const attemptKey = (userId: number) => `bandstand.packAttempt.${userId}`

/**
 * Whether the app may start saving the upcoming packs now: no save began in this tab for this
 * user within UPCOMING_EVERY_MS. Notes this start when it may.
 */
export function claimUpcomingSave (
  userId: number,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  now = Date.now()
): boolean {
  try {
    const last = Number(storage.getItem(attemptKey(userId)) ?? 0)
    if (now >= last && now - last < UPCOMING_EVERY_MS) return false
    storage.setItem(attemptKey(userId), String(now))
  } catch {
    // No storage (private mode's quota): save, as before there was a limit.
  }
  return true
}

/**
 * The app starts saving the upcoming packs this long after it started: the first screen's requests
 * (and, offline, its first paint: the date of today needs the browser's calendar data, 80–240 ms
 * at 4× CPU) do not wait behind the pack on a small server or phone; and a page reloaded within
 * it claims no save (claimUpcomingSave).
 */
export const UPCOMING_DELAY_MS = 2000
/** Where the record of one saved pack lives in the user's cache (never a server URL). */
export const PACK_META_PREFIX = '/__bandstand/pack/'
/** Set by the service worker on an answer it took from a pack: when that answer was saved. */
export const OFFLINE_HEADER = 'x-bandstand-offline'

export interface PackInfo {
  gigId: number
  /** Date.now() of the last save. */
  savedAt: number
  bytes: number
  urls: string[]
  /**
   * URLs the server refused as too large (413: a gig's charts past the limit): a copy saved
   * earlier stays in the pack and is listed in `urls` too.
   */
  tooLarge?: string[]
}

export class PackTooLarge extends Error {
  override name = 'PackTooLarge'
  constructor (readonly bytes: number, readonly limit: number) {
    super(`The gig pack would need ${bytes} bytes; the limit is ${limit}.`)
  }
}

/** Who is logged in and the band's configuration: the app cannot start offline without them. */
const APP_URLS = ['/me', '/public/app_config']

/**
 * The gig, its setlist, live view, running order, charts and the setlist and stage PDFs; with
 * `recordings`, also the list of files with the recordings (the list without them stays: the
 * stage reads the sheets from it).
 */
export function packUrls (gigId: number, recordings = false): string[] {
  return [
    ...APP_URLS,
    `/gigs/${gigId}`,
    `/gigs/${gigId}/setlist`,
    `/gigs/${gigId}/schedule`,
    `/gigs/${gigId}/availability`,
    `/gigs/${gigId}/charts`,
    `/gigs_lm/${gigId}`,
    `/gigs/${gigId}/setlist.pdf`,
    `/gigs/${gigId}/setlist.pdf?style=stage`,
    packFilesUrl(gigId),
    ...(recordings ? [`${packFilesUrl(gigId)}?recordings=true`] : [])
  ]
}

/** The gig's files and its setlist's sheets (their URLs join the pack after this answer). */
export const packFilesUrl = (gigId: number) => `/gigs/${gigId}/pack-files`

const recordingsKey = (userId: number) => `bandstand.packRecordings.${userId}`

/** Whether this member wants the recordings in the packs saved on this device (off by default). */
export function wantsRecordings (userId: number, storage: Pick<Storage, 'getItem'>): boolean {
  try {
    return storage.getItem(recordingsKey(userId)) === 'true'
  } catch {
    return false
  }
}

export function setWantsRecordings (
  userId: number, wanted: boolean, storage: Pick<Storage, 'setItem' | 'removeItem'>
): void {
  try {
    if (wanted) storage.setItem(recordingsKey(userId), 'true')
    else storage.removeItem(recordingsKey(userId))
  } catch {
    // Private mode's quota: the choice holds until the page closes (the checkbox keeps it).
  }
}

/** The file URLs a pack-files answer lists. */
async function fileUrls (body: ArrayBuffer): Promise<string[]> {
  try {
    const list = JSON.parse(new TextDecoder().decode(body)) as { files?: Array<{ url: string }> }
    return (list.files ?? []).map((file) => file.url)
  } catch {
    return []
  }
}

interface Env {
  caches: CacheStorage
  fetch: typeof fetch
  limit?: number
  now?: () => number
  /** Aborted on logout: nothing more is fetched or written for the user who left. */
  signal?: AbortSignal
  /** saveUpcoming waits this long before its first request (default 0). */
  delayMs?: number
  /** Where saveUpcoming notes its starts (the tab's sessionStorage): see claimUpcomingSave. */
  attempts?: Pick<Storage, 'getItem' | 'setItem'>
  /** Also the recordings (the member's choice on this device: wantsRecordings). */
  recordings?: boolean
}

/** The session ended while saving (401, or logout): nothing of this save is written. */
export class SessionGone extends Error {
  override name = 'SessionGone'
}

const defaults = (): Env => ({
  caches: globalThis.caches,
  fetch: globalThis.fetch.bind(globalThis)
})

const metaUrl = (gigId: number) => `${PACK_META_PREFIX}${gigId}`

/** Every saved pack of this user. */
export async function listPacks (userId: number, env: Env = defaults()): Promise<PackInfo[]> {
  const cache = await env.caches.open(userCacheName(userId))
  const packs: PackInfo[] = []
  for (const request of await cache.keys()) {
    if (!new URL(request.url, 'http://x').pathname.startsWith(PACK_META_PREFIX)) continue
    const answer = await cache.match(request)
    if (answer) packs.push((await answer.json()) as PackInfo)
  }
  return packs
}

export async function packInfo (
  userId: number,
  gigId: number,
  env: Env = defaults()
): Promise<PackInfo | null> {
  const cache = await env.caches.open(userCacheName(userId))
  const answer = await cache.match(metaUrl(gigId))
  return answer ? ((await answer.json()) as PackInfo) : null
}

/**
 * Saves (or refreshes) one gig's pack. Each URL is asked with the ETag of the copy kept, so an
 * unchanged answer costs a 304 and keeps the copy. Nothing is written when the user's packs
 * together would pass the limit (PackTooLarge); a URL the user may not read is left out.
 */
export async function savePack (
  userId: number,
  gigId: number,
  env: Env = defaults()
): Promise<PackInfo> {
  const limit = env.limit ?? PACK_LIMIT_BYTES
  const cache = await env.caches.open(userCacheName(userId))
  const fresh: [string, Response][] = []
  const urls: string[] = []
  const tooLarge: string[] = []
  let bytes = 0
  const queue = packUrls(gigId, env.recordings)
  // The file lists overlap (the sheets are in both when the recordings are asked for).
  const queued = new Set(queue)
  const more = (urls: string[]) => {
    for (const url of urls) {
      if (queued.has(url)) continue
      queued.add(url)
      queue.push(url)
    }
  }
  const isList = (url: string) => url.startsWith(packFilesUrl(gigId))
  for (const url of queue) {
    const kept = await cache.match(url)
    const etag = kept?.headers.get('etag')
    const answer = await env.fetch(url, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: etag ? { 'if-none-match': etag } : {},
      ...(env.signal ? { signal: env.signal } : {})
    })
    if (answer.status === 401) throw new SessionGone()
    if (answer.status === 413) tooLarge.push(url)
    if ((answer.status === 304 || answer.status === 413) && kept) {
      const body = await kept.clone().arrayBuffer()
      bytes += body.byteLength
      urls.push(url)
      if (isList(url)) more(await fileUrls(body))
    } else if (answer.ok) {
      const body = await answer.arrayBuffer()
      bytes += body.byteLength
      urls.push(url)
      if (isList(url)) more(await fileUrls(body))
      fresh.push([url, new Response(body, { status: 200, headers: answer.headers })])
    } else {
      // A network failure throws above (the caller keeps the old pack); 401 ends the session
      // elsewhere; 403 or 404: that part is not this user's, or not there; 413 without an
      // earlier copy: nothing to keep.
      await answer.body?.cancel()
    }
  }
  const packs = await listPacks(userId, env)
  const others = packs.filter((pack) => pack.gigId !== gigId)
  const total = bytes + others.reduce((sum, pack) => sum + pack.bytes, 0)
  if (total > limit) throw new PackTooLarge(total, limit)
  if (env.signal?.aborted) throw new SessionGone()
  for (const [url, answer] of fresh) await cache.put(url, answer)
  const info: PackInfo = {
    gigId,
    savedAt: (env.now ?? Date.now)(),
    bytes,
    urls,
    ...(tooLarge.length ? { tooLarge } : {})
  }
  await cache.put(
    metaUrl(gigId),
    new Response(JSON.stringify(info), { headers: { 'content-type': 'application/json' } })
  )
  // What this pack held and no longer does (a deleted or replaced file, recordings no longer
  // wanted) leaves the device, unless another pack holds it too.
  const held = new Set([...urls, ...others.flatMap((pack) => pack.urls)])
  const before = packs.find((pack) => pack.gigId === gigId)?.urls ?? []
  for (const url of before) if (!held.has(url)) await cache.delete(url)
  return info
}

/**
 * The live view this phone knows last (from the server, with its own answered taps), written over
 * the pack's copy: an offline reload opens on that song, and says when it was known (the `date`
 * the service worker gives as the time of the last update). Only into a saved pack: false when
 * the gig has none (or no Cache API, an insecure origin).
 */
export async function keepLiveView (
  userId: number,
  gigId: number,
  view: unknown,
  etag: string | null,
  env: Pick<Env, 'caches' | 'now'> = defaults()
): Promise<boolean> {
  if (!env.caches) return false
  const cache = await env.caches.open(userCacheName(userId))
  const url = `/gigs_lm/${gigId}`
  if (!(await cache.match(url))) return false
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    date: new Date((env.now ?? Date.now)()).toUTCString()
  })
  // The server's tag of the view it comes from: the next pack refresh asks with it.
  if (etag) headers.set('etag', etag)
  await cache.put(url, new Response(JSON.stringify(view), { status: 200, headers }))
  return true
}

/** Asks the browser not to evict the packs under storage pressure (best effort). */
export async function keepStorage (): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false
  } catch {
    return false
  }
}

/** The calendar date `days` after `today` (YYYY-MM-DD, both in the same zone). */
export function addDays (today: string, days: number): string {
  const date = new Date(`${today}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * The service worker and its update prompt (start-worker.ts), in a browser only. Started from
 * here because the root layout already imports this file lazily: the layout then holds no code
 * of the worker (bench/web-bundle.ts → serviceWorkerInFirstScreen; docs/offline.md). The
 * template specifier is Vite's dynamic-import-vars (it bundles the one file matching
 * `./start-*.ts`) and keeps Svelte out of the node tests' type graph.
 */
function startWorker (): void {
  if (typeof document === 'undefined') return
  const part = 'worker'
  import(`./start-${part}.ts`)
    .then(({ startAppUpdate }: { startAppUpdate: () => void }) => startAppUpdate())
    .catch(() => {
      // No update prompt this time (a failed chunk load); the app works as before.
    })
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause (ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}

/**
 * Saves the pack of every gig of the next UPCOMING_DAYS days (the gigs list is the member's own:
 * the server answers only what the user may see). One failure does not stop the others.
 */
export async function saveUpcoming (
  userId: number,
  // Or how to know it: the band's date needs a time-zone formatter, whose first construction costs
  // tens of milliseconds on a slow phone; the app asks only after the delay, not while it starts.
  today: string | (() => string),
  env: Env = defaults()
): Promise<PackInfo[]> {
  startWorker()
  if (env.delayMs) await pause(env.delayMs, env.signal)
  if (env.signal?.aborted) return []
  if (env.attempts && !claimUpcomingSave(userId, env.attempts, (env.now ?? Date.now)())) return []
  const day = typeof today === 'function' ? today() : today
  const query = `from=${day}&to=${addDays(day, UPCOMING_DAYS)}`
  const answer = await env.fetch(`/gigs?${query}`, {
    credentials: 'same-origin',
    ...(env.signal ? { signal: env.signal } : {})
  })
  if (!answer.ok) return []
  const gigs = (await answer.json()) as { id: number; status: string }[]
  const saved: PackInfo[] = []
  for (const gig of gigs) {
    if (gig.status === 'cancelled' || gig.status === 'declined') continue
    try {
      saved.push(await savePack(userId, gig.id, env))
    } catch (error) {
      if (error instanceof SessionGone || env.signal?.aborted) break
      // Offline, or over the limit: the next start tries again.
    }
  }
  if (saved.length > 0) await keepStorage()
  return saved
}
