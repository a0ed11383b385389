import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The song, its votes, how it did on stage, and when the band rehearsed it.
export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  return {
    song: screenRead(() => call(api.GET('/songs/{id}', path))),
    votes: screenRead(() => call(api.GET('/songs/{id}/votes', path))),
    stats: screenRead(() => call(api.GET('/songs/{id}/stats', path))),
    rehearsals: screenRead(() =>
      call(api.GET('/songs/{id}/rehearsals', { params: { ...path.params, query: { limit: 100 } } }))
    )
  }
}
