import { explainError, type ExplainedError } from '../errors'

/**
 * Data a screen loads, with its loading and error state: `const gigs = new Resource(() =>
 * call(...))`, shown through <LoadState resource={gigs}>. `reload()` fetches again (keeping the old
 * data meanwhile). A lazy one (`{ lazy: true }`, made by a `+page.ts` load:
 * lib/state/screen-read.ts) fetches on `start()`, which LoadState calls.
 */
export class Resource<T> {
  data = $state<T | undefined>(undefined)
  error = $state<ExplainedError | null>(null)
  loading = $state(true)
  #load: () => Promise<T>
  #generation = 0

  constructor (load: () => Promise<T>, { lazy = false }: { lazy?: boolean } = {}) {
    this.#load = load
    if (!lazy) void this.reload()
  }

  /** The first fetch, unless one has begun already. */
  start (): void {
    if (this.#generation === 0) void this.reload()
  }

  async reload (): Promise<void> {
    const generation = ++this.#generation
    this.loading = true
    try {
      const data = await this.#load()
      if (generation !== this.#generation) return
      this.data = data
      this.error = null
    } catch (error) {
      if (generation !== this.#generation) return
      this.error = explainError(error)
    } finally {
      if (generation === this.#generation) this.loading = false
    }
  }
}
