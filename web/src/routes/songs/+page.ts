import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The proposals with whether I still have to vote, and the whole repertoire (the screen's filters
// are not in the URL: the page reads the filtered list itself).
export const load: PageLoad = () => ({
  proposals: screenRead(async () => {
    const [list, todos] = await Promise.all([
      call(api.GET('/songs', { params: { query: { status: 'proposed' } } })),
      call(api.GET('/me/todos'))
    ])
    const unvoted = new Set(todos.songs.map((song) => song.id))
    return list.map((song) => ({ ...song, needsVote: unvoted.has(song.id) }))
  }),
  songs: screenRead(() => call(api.GET('/songs', { params: { query: {} } })))
})
