import type { Role } from '../api/types'
import { mayOpen } from './guard'
import { Resource } from './resource.svelte'
import { session } from './session.svelte'

/**
 * A screen's read, made by its `+page.ts` load: `({ params }) => ({ gig: screenRead(() =>
 * call(api.GET(…))) })`, shown by the page through <LoadState resource={data.gig}>.
 * It starts at once when the user is known and may open the screen, so hovering a link (app.html:
 * data-sveltekit-preload-data="hover") fetches ahead. Otherwise (the app's first screen, before
 * the root layout knew who is logged in) it starts with the screen: the layout creates a screen
 * only for a user allowed to see it (lib/state/guard.ts), so nothing the API would refuse is asked.
 */
export function screenRead<T> (read: () => Promise<T>, requiredRole?: Role): Resource<T> {
  const resource = new Resource(read, { lazy: true })
  const user = session.user
  if (user && !user.passwordChangeRequired && mayOpen(requiredRole)) resource.start()
  return resource
}

/**
 * Starts every lazy read of a screen's load data at once, when the root layout shows the screen
 * (reads inside another read's LoadState would otherwise wait for the outer one).
 */
export function startReads (data: Record<string, unknown>): void {
  for (const value of Object.values(data)) if (value instanceof Resource) value.start()
}
