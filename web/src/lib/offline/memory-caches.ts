// The Cache API held in memory, for the unit tests of the gig pack and the service worker: keys
// are absolute URLs (relative ones are the page's origin's, as in a browser), every read a copy.

export const ORIGIN = 'https://band.example'

type Key = string | URL | Request

const absolute = (request: Key) =>
  new URL(typeof request === 'string' || request instanceof URL ? request : request.url, ORIGIN)

const same = (a: URL, b: URL, ignoreSearch = false) =>
  ignoreSearch ? a.origin + a.pathname === b.origin + b.pathname : a.href === b.href

export class MemoryCache {
  readonly entries = new Map<string, Response>()
  /** Every URL written, in order (put and addAll). */
  readonly written: string[] = []

  constructor (private readonly load: (request: Request) => Promise<Response> = fetch) {}

  async match (request: Key, options?: CacheQueryOptions): Promise<Response | undefined> {
    const url = absolute(request)
    for (const [key, answer] of this.entries) {
      if (same(new URL(key), url, options?.ignoreSearch)) return answer.clone()
    }
    return undefined
  }

  async put (request: Key, response: Response): Promise<void> {
    const url = absolute(request).href
    this.written.push(url)
    this.entries.set(url, response)
  }

  async addAll (requests: Request[]): Promise<void> {
    for (const request of requests) await this.put(request, await this.load(request))
  }

  async delete (request: Key): Promise<boolean> {
    return this.entries.delete(absolute(request).href)
  }

  async keys (): Promise<Request[]> {
    return [...this.entries.keys()].map((url) => new Request(url))
  }

  /** The body kept for `path`, as text (undefined: none). */
  async text (path: string): Promise<string | undefined> {
    return (await this.match(path))?.text()
  }
}

export class MemoryCaches {
  readonly byName = new Map<string, MemoryCache>()

  constructor (private readonly load?: (request: Request) => Promise<Response>) {}

  async open (name: string): Promise<MemoryCache> {
    if (!this.byName.has(name)) this.byName.set(name, new MemoryCache(this.load))
    return this.byName.get(name)!
  }

  async keys (): Promise<string[]> {
    return [...this.byName.keys()]
  }

  async has (name: string): Promise<boolean> {
    return this.byName.has(name)
  }

  async delete (name: string): Promise<boolean> {
    return this.byName.delete(name)
  }

  /** As the code under test takes it. */
  get api (): CacheStorage {
    return this as unknown as CacheStorage
  }
}
