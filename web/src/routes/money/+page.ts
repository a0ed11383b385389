import { api, call } from '$lib/api/client'
import { screenRead } from '$lib/state/screen-read'
import type { PageLoad } from './$types'

// Balances for everyone the band lets see them; payments are the editors' (their screen reads
// them itself, so a member's screen never asks for what the API refuses).
export const load: PageLoad = () => ({
  balances: screenRead(() => call(api.GET('/money/balances')))
})
