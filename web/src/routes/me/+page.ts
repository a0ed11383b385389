import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// My devices and my calendar subscription (the profile form starts from the logged-in user).
export const load: PageLoad = () => ({
  sessions: screenRead(() => call(api.GET('/me/sessions'))),
  calendar: screenRead(() => call(api.GET('/me/calendar'))),
  mail: screenRead(() => call(api.GET('/me/notifications')))
})
