import { api, call } from '$lib/api/client'
import { requireRole } from '$lib/state/guard'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The gig and its running order, together: the editor starts from both.
export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    ...requireRole('editor')(),
    screen: screenRead(async () => {
      const [gig, schedule] = await Promise.all([
        call(api.GET('/gigs/{id}', path)),
        call(api.GET('/gigs/{id}/schedule', path))
      ])
      return { gig, schedule }
    }, 'editor')
  }
}
