import { api, call } from '$lib/api/client'
import { addDays, today } from '$lib/format'
import { screenRead } from '$lib/state/screen-read'
import { lineupGaps } from '$lib/gigs/lineup-gaps'
import type { PageLoad } from './$types'

// Upcoming gigs soonest first, each with its lineup's open needs (editors); `?show=past`: past
// gigs most recent first (the tabs change the query, which runs this again).
export const load: PageLoad = ({ url }) => {
  const past = url.searchParams.get('show') === 'past'
  return {
    gigs: screenRead(async () => {
      if (past) {
        const query = { to: addDays(today(), -1) }
        return (await call(api.GET('/gigs', { params: { query } }))).reverse()
          .map((gig) => ({ ...gig, open: [] }))
      }
      const query = { upcoming: true }
      const [gigs, gaps] = await Promise.all([
        call(api.GET('/gigs', { params: { query } })),
        lineupGaps(query)
      ])
      return gigs.map((gig) => ({ ...gig, open: gaps.get(gig.id) ?? [] }))
    })
  }
}
