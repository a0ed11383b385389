import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

export const load: PageLoad = ({ params }) => {
  const path = { params: { path: { id: Number(params.id) } } }
  // The admin layout's requireRole('admin') guards the screen; the read is asked for admins only.
  return { user: screenRead(() => call(api.GET('/users/{id}', path)), 'admin') }
}
