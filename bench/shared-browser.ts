import type { Browser } from 'playwright-core'
import type { Band } from '#test/browser/band-fixture.js'

// One Chromium for the browser parts of a bench run: each launch cost 1.5-2.5 CPU-s (the browser,
// its GPU and network processes and two renderers of its own UI) before any page was opened. Each
// part opens contexts of its own and closes them when it ends.
let browser: Promise<Browser> | undefined
// One band's server for the stage view and the offline part (each adds a gig of its own): its
// start, the admin's and two members' passwords hashed and two logins cost ~4 CPU-s each time.
// Live mode starts its own (it restarts it).
let band: Promise<Band> | undefined

export async function benchBrowser (): Promise<Browser> {
  const { launchBrowser } = await import('#test/browser/harness.js')
  return (browser ??= launchBrowser())
}

export async function benchBand (): Promise<Band> {
  const { startBand } = await import('#test/browser/band-fixture.js')
  return (band ??= startBand())
}

/** Closes a part's pages (all contexts): the next part starts with none, no page left polling. */
export async function releaseBrowser (shared: Browser): Promise<void> {
  await Promise.all(shared.contexts().map((context) => context.close()))
}

/** At the end of the run, or of a part run alone: the browser closed, the band's server stopped. */
export async function endBrowserParts (): Promise<void> {
  const [openBrowser, startedBand] = await Promise.all([
    browser?.catch(() => undefined),
    band?.catch(() => undefined)
  ])
  browser = undefined
  band = undefined
  await openBrowser?.close()
  await startedBand?.stop()
}
