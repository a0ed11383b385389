import { fetchFirstView } from '$lib/live/live-feed.svelte'
import type { PageLoad } from './$types'

// Started before the app has loaded its configuration and the user, not awaited: the live page's
// first render does not wait for a round trip after them (see bench/live-ui.ts).
// `stage`: the layout creates no top bar and navigation (hidden by the stage theme; ~30 ms at 4×
// of the offline open, docs/offline.md).
export const load: PageLoad = ({ params }) => ({
  first: fetchFirstView(Number(params.id)),
  stage: true
})
