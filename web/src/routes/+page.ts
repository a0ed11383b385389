import { screenRead } from '$lib/state/screen-read'
import { loadDashboard } from './dashboard'
import type { PageLoad } from './$types'

export const load: PageLoad = () => ({ dashboard: screenRead(loadDashboard) })
