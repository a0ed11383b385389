import { api, call } from '$lib/api/client'
import { today } from '$lib/format'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// This season's numbers, the season the screen opens with (its choice of season is not in the URL:
// the page reads another season itself).
export const load: PageLoad = () => {
  const season = Number(today().slice(0, 4))
  const query = { params: { query: { season } } }
  return { season, stats: screenRead(() => call(api.GET('/stats', query))) }
}
