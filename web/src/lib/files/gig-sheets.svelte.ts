import { api, call } from '$lib/api/client'
import { sheetsBySong, type SongSheets } from './gig-sheets'

export type { SongSheets } from './gig-sheets'

/**
 * The setlist songs' sheets for the stage, from the list the gig pack saves (so that offline the
 * service worker answers it, and the PDFs it names, from the pack). Loaded again with the charts.
 */
export class GigSheetsLoader {
  // Replaced whole on each load, never changed in place: no reactive map needed.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  sheets = $state.raw<SongSheets>(new Map())
  #gigId: number

  constructor (gigId: number) {
    this.#gigId = gigId
  }

  async load (): Promise<void> {
    try {
      const answer = await call(api.GET('/gigs/{id}/pack-files', {
        params: { path: { id: this.#gigId } }
      }))
      this.sheets = sheetsBySong(answer.files)
    } catch {
      // Offline without a pack, or refused: the sheets known before stay (or none: the charts).
    }
  }
}
