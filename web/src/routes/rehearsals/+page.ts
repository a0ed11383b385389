import { api, call } from '$lib/api/client'
import { addDays, today } from '$lib/format'
import { screenRead } from '$lib/state/screen-read'
import { session } from '$lib/state/session.svelte'
import type { PageLoad } from './$types'

// Upcoming rehearsals with my answer inline (unanswered ones come from the to-dos, the rest from
// each rehearsal's availability, fetched in parallel for the upcoming ones only); `?show=past`:
// past ones newest first (the tabs change the query, which runs this again).
export const load: PageLoad = ({ url }) => {
  const past = url.searchParams.get('show') === 'past'
  return {
    rehearsals: screenRead(async () => {
      if (past) {
        const list = await call(
          api.GET('/rehearsals', { params: { query: { to: addDays(today(), -1) } } })
        )
        return list.reverse().map((rehearsal) => ({ ...rehearsal, mine: undefined }))
      }
      const [list, todos] = await Promise.all([
        call(api.GET('/rehearsals', { params: { query: { upcoming: true } } })),
        call(api.GET('/me/todos'))
      ])
      const open = new Set(todos.rehearsals.map((rehearsal) => rehearsal.id))
      return Promise.all(
        list.map(async (rehearsal) => {
          if (open.has(rehearsal.id)) return { ...rehearsal, mine: null }
          const availability = await call(
            api.GET('/rehearsals/{id}/availability', { params: { path: { id: rehearsal.id } } })
          )
          return {
            ...rehearsal,
            mine:
              availability.answers.find((answer) => answer.userId === session.user?.id)?.status ??
              null
          }
        })
      )
    })
  }
}
