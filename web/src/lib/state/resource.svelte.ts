import { explainError, type ExplainedError } from '../errors'

/**
 * Data a screen loads, with its loading and error state: `const gigs = new Resource(() =>
 * call(...))`, shown through <LoadState resource={gigs}>. `reload()` fetches again (keeping the old
 * data meanwhile).
 */
export class Resource<T> {
  data = $state<T | undefined>(undefined)
  error = $state<ExplainedError | null>(null)
  loading = $state(true)
  #load: () => Promise<T>
  #generation = 0

  constructor (load: () => Promise<T>) {
    this.#load = load
    this.reload()
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
