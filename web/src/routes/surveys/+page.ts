import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// `?show=closed`: the closed surveys (the tabs change the query, which runs this again).
export const load: PageLoad = ({ url }) => {
  const status = url.searchParams.get('show') === 'closed' ? 'closed' : 'open'
  return { surveys: screenRead(() => call(api.GET('/surveys', { params: { query: { status } } }))) }
}
