import { api, call } from '$lib/api/client'
import { withCharts, type GigCharts } from './gig-charts'

export type { GigChart, GigCharts } from './gig-charts'

/**
 * The gig's charts as one document (GET /gigs/{id}/charts), fetched when the stage view opens
 * and again whenever the live view's version moves (a setlist change, an inserted song); the
 * server answers 304 from its cache while nothing changed.
 */
export class GigChartsLoader {
  doc = $state<GigCharts | null>(null)
  failed = $state(false)
  #gigId: number
  #loading: Promise<void> | null = null
  #again = false

  constructor (gigId: number) {
    this.#gigId = gigId
  }

  load (): Promise<void> {
    if (this.#loading) {
      this.#again = true
      return this.#loading
    }
    this.#loading = (async () => {
      try {
        this.doc = withCharts(await call(
          api.GET('/gigs/{id}/charts', { params: { path: { id: this.#gigId } } })
        ))
        this.failed = false
      } catch {
        // Offline or refused: the last charts stay on screen.
        this.failed = true
      } finally {
        this.#loading = null
        if (this.#again) {
          this.#again = false
          void this.load()
        }
      }
    })()
    return this.#loading
  }
}
