import { loadShellLanguage } from '$lib/state/config.svelte'

// A single-page app: everything renders in the browser (the API's cookie session lives there).
export const ssr = false
export const prerender = false
export const trailingSlash = 'ignore'

// Opened offline from the worker's shell: the start's language (German is a chunk of its own) is
// loaded while the router loads the screen's code, so the root layout starts at once in any
// language, not after a render of its spinner (docs/offline.md). Online it returns at once.
export const load = async () => {
  await loadShellLanguage()
}
