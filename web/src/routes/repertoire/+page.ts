import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

export const load: PageLoad = () => ({ list: screenRead(() => call(api.GET('/repertoire'))) })
