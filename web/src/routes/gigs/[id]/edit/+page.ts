import { api, call } from '$lib/api/client'
import { requireRole } from '$lib/state/guard'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    ...requireRole('editor')(),
    gig: screenRead(() => call(api.GET('/gigs/{id}', path)), 'editor')
  }
}
