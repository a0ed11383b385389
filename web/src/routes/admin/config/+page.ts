import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// The colours the documents take from the logo (the settings form starts from the app config the
// app loaded at start). The admin layout's requireRole('admin') guards the screen; the read is
// asked for admins only.
export const load: PageLoad = () => ({
  palette: screenRead(() => call(api.GET('/admin/logo/palette')), 'admin')
})
