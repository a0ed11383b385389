import { api, call } from '$lib/api/client'
import { requireRole } from '$lib/state/guard'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The gig and its setlist, together (the editor starts from both, and copying a programme reads
// both again), and the programmes to copy from.
export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    ...requireRole('editor')(),
    screen: screenRead(async () => {
      const [gig, setlist] = await Promise.all([
        call(api.GET('/gigs/{id}', path)),
        call(api.GET('/gigs/{id}/setlist', path))
      ])
      return { gig, setlist }
    }, 'editor'),
    programmes: screenRead(() => call(api.GET('/repertoire')), 'editor')
  }
}
