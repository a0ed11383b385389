import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The gig, its money as this member may see it, the band's answers (the players to pick) and
// the gig's files (an expense's receipt is one of them).
export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    screen: screenRead(async () => {
      const [gig, money, availability, files] = await Promise.all([
        call(api.GET('/gigs/{id}', path)),
        call(api.GET('/gigs/{id}/money', path)),
        call(api.GET('/gigs/{id}/availability', path)),
        call(api.GET('/gigs/{id}/files', path))
      ])
      return { gig, money, availability, files: files.files }
    })
  }
}
