import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The admin layout's requireRole('admin') guards the screen; the read is asked for admins only.
export const load: PageLoad = () => ({ users: screenRead(() => call(api.GET('/users')), 'admin') })
