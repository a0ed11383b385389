import { api, call } from '$lib/api/client'
import { addDays, today } from '$lib/format'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// Upcoming gigs soonest first; `?show=past`: past gigs most recent first (the tabs change the
// query, which runs this again).
export const load: PageLoad = ({ url }) => {
  const past = url.searchParams.get('show') === 'past'
  return {
    gigs: screenRead(async () =>
      past
        ? (
            await call(api.GET('/gigs', { params: { query: { to: addDays(today(), -1) } } }))
          ).reverse()
        : await call(api.GET('/gigs', { params: { query: { upcoming: true } } }))
    )
  }
}
