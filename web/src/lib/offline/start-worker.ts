// The service worker with its update prompt (AppUpdate.svelte registers it), started by
// gig-pack.ts → saveUpcoming, which the root layout imports lazily once a user is in. The layout
// holds no code of the service worker, so the first screen's JavaScript is what it was without
// one but for the one chunk name this file adds to the layout's preload list (docs/offline.md).
import { mount } from 'svelte'
import { page } from '$app/state'
import AppUpdate from './AppUpdate.svelte'

let started = false

/** The update prompt, mounted once per page load. */
export function startAppUpdate (): void {
  if (started) return
  started = true
  const target = document.createElement('div')
  document.body.append(target)
  mount(AppUpdate, {
    target,
    // A getter keeps it reactive: the prompt waits while the live page is open.
    props: {
      get onStage () {
        return page.route.id === '/gigs/[id]/live'
      }
    }
  })
}
