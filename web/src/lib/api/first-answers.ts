/**
 * Answers from the gig pack that the service worker wrote into the shell it served offline
 * (service-worker/pack.ts → firstAnswers): the band's configuration, `/me` and, on the live page,
 * its view. Each is taken once, by the first GET of its URL, instead of a round trip through the
 * worker to the same cache: the live page opened offline shows its song without waiting for them
 * (docs/offline.md). Online the shell holds none, and every request goes to the network.
 */

// Kept equal to service-worker/pack.ts (its unit test compares them).
export const FIRST_ANSWERS_ID = 'bandstand-first-answers'

interface Kept {
  status: number
  headers: [string, string][]
  body: string
}

let answers: Map<string, Kept> | null = null

function read (): Map<string, Kept> {
  const block = typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ID)
  try {
    return new Map(Object.entries(JSON.parse(block?.textContent ?? '{}') as Record<string, Kept>))
  } catch {
    return new Map() // not the worker's block: asked as if there were none
  }
}

/**
 * The kept body of `path` (a 2xx JSON answer) for code that can start at once with it, taken
 * only if `use` takes it (true); undefined when there is none or it was not taken.
 */
export function takeFirstBody<T> (path: string, use: (body: T) => boolean): T | undefined {
  answers ??= read()
  const kept = answers.get(path)
  if (!kept || kept.status < 200 || kept.status > 299) return undefined
  let body: T
  try {
    body = JSON.parse(kept.body) as T
  } catch {
    return undefined
  }
  if (!use(body)) return undefined
  answers.delete(path)
  return body
}

/** The kept answer to this request, once; undefined for anything else (ask the network). */
export function firstAnswer (request: Request): Response | undefined {
  if (request.method !== 'GET') return undefined
  answers ??= read()
  if (answers.size === 0) return undefined
  const url = new URL(request.url)
  if (typeof location !== 'undefined' && url.origin !== location.origin) return undefined
  const key = url.pathname + url.search
  const kept = answers.get(key)
  if (!kept) return undefined
  answers.delete(key)
  return new KeptResponse(kept)
}

/**
 * Its body is read in the same task: a Response's own `json()` answers in a later task, and the
 * root layout and the live page would render a task later, after a paint of the spinner.
 */
class KeptResponse extends Response {
  readonly #body: string

  constructor (kept: Kept) {
    super(kept.body, { status: kept.status, headers: kept.headers })
    this.#body = kept.body
  }

  override text (): Promise<string> {
    return Promise.resolve(this.#body)
  }

  override json (): Promise<unknown> {
    return Promise.resolve().then(() => JSON.parse(this.#body) as unknown)
  }
}
