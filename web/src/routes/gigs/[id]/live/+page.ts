import { fetchFirstView } from '$lib/live/live-feed.svelte'
import type { PageLoad } from './$types'

// Started before the app has loaded its configuration and the user, not awaited: the live page's
// first render does not wait for a round trip after them (see bench/live-ui.ts).
export const load: PageLoad = ({ params }) => ({ first: fetchFirstView(Number(params.id)) })
