import type { Browser } from 'playwright-core'

// One Chromium for the browser parts of a bench run: each launch cost 1.5-2.5 CPU-s (the browser,
// its GPU and network processes and two renderers of its own UI) before any page was opened. Each
// part opens contexts of its own and closes them when it ends.
let shared: Promise<Browser> | undefined

export async function benchBrowser (): Promise<Browser> {
  const { launchBrowser } = await import('#test/browser/harness.js')
  return (shared ??= launchBrowser())
}

/** Closes a part's pages (all contexts): the next part starts with none, no page left polling. */
export async function releaseBrowser (browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()))
}

/** At the end of the run, or of a part run alone. */
export async function closeBenchBrowser (): Promise<void> {
  const browser = await shared
  shared = undefined
  await browser?.close()
}
