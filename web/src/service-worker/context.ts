// What the service worker's parts share: the worker's globals and this build's lists, passed in
// (index.ts makes it from the worker's scope), so that the parts run in unit tests as they are.

export interface WorkerContext {
  caches: CacheStorage
  fetch: (request: Request) => Promise<Response>
  /** The app's origin (the worker's location). */
  origin: string
  /** This build's shell cache (shell.ts → shellCacheName). */
  shellCache: string
  /** Every built file's path: answered from the shell cache. */
  precached: Set<string>
  /** Each route's path pattern and the built files its page needs beyond the shell's preloads. */
  routeFiles: [RegExp, string[]][]
  /** A stalled server (Wi-Fi at the edge) answers nothing: the shell is served after this long. */
  navigationTimeoutMs: number
}
