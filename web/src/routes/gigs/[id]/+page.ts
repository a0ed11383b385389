import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    gig: screenRead(() => call(api.GET('/gigs/{id}', path))),
    setlist: screenRead(() => call(api.GET('/gigs/{id}/setlist', path))),
    schedule: screenRead(() => call(api.GET('/gigs/{id}/schedule', path))),
    availability: screenRead(() => call(api.GET('/gigs/{id}/availability', path))),
    publication: screenRead(() => call(api.GET('/gigs/{id}/setlist/publication', path)))
  }
}
