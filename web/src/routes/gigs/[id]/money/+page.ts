import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The gig, its money as this member may see it, and the band's answers (the players to pick).
export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    screen: screenRead(async () => {
      const [gig, money, availability] = await Promise.all([
        call(api.GET('/gigs/{id}', path)),
        call(api.GET('/gigs/{id}/money', path)),
        call(api.GET('/gigs/{id}/availability', path))
      ])
      return { gig, money, availability }
    })
  }
}
