/**
 * npm run bench — the HTTP rows (bench/http.ts: wrk against the built server, compared with a bare
 * Fastify route serving the same bytes), then the document renderers, the web app and the other
 * parts below. CI runs a one-second smoke run (test/scripts/bench-smoke.test.ts). It reports, it
 * asserts nothing. Its processes end with it, also on a crash, SIGINT or SIGTERM (children.ts).
 */
import { ensureWrk, load, removeWrkScripts } from './wrk.js'
import { stopChildren, stopChildrenOnExit, stoppingOnSignal } from './children.js'

/**
 * BENCH_PARTS (comma-separated: http, start, serializer, documents, addresses, web, offline,
 * limits, files, scale) runs only those parts; all by default. `build` (the build's peak memory)
 * only when named: it builds again.
 */
const ALL_PARTS = 'http,start,serializer,documents,addresses,web,offline,limits,files,scale'
const parts = (process.env.BENCH_PARTS ?? ALL_PARTS).split(',')
const part = (name: string) => parts.includes(name)

/** Runs the part when BENCH_PARTS names it, and says how long it took (the smoke run's budget). */
async function run (name: string, work: () => unknown): Promise<void> {
  if (!part(name)) return
  const started = performance.now()
  await work()
  console.log(`bench part ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

// Each part's modules are loaded when it runs: a run of some parts (the smoke test's groups) does
// not load the others' (the app, Chromium's driver, the document renderers).
async function main () {
  try {
    await run('build', async () => (await import('./build-memory.js')).runBuildMemoryBench())
    await run('http', async () => (await import('./http.js')).runHttpBench())
    await run('start', async () => (await import('./start-time.js')).runStartTimeBench())
    await run('serializer', async () => (await import('./serializer.js')).runSerializerBench())
    await run('documents', async () => (await import('./documents.js')).runDocumentBench())
    await run('addresses', async () =>
      (await import('./address-flood.js')).runAddressFloodBench())
    await run('web', async () => {
      ;(await import('./web-bundle.js')).printWebBundle()
      await (await import('./web-setlist-editor.js')).runSetlistEditorBench()
      await (await import('./live-ui.js')).runLiveUiBench()
      await (await import('./stage-charts.js')).runStageChartsBench()
    })
    await run('offline', async () => (await import('./offline.js')).runOfflineBench())
    await run('limits', async () => (await import('./setlist-limits.js')).runSetlistLimitsBench())
    await run('files', async () => {
      ensureWrk()
      await (await import('./files.js')).runFilesBench(load)
    })
    await run('scale', async () => (await import('./scale.js')).runScaleBench())
  } finally {
    removeWrkScripts()
    if (part('web') || part('offline')) {
      await (await import('./shared-browser.js')).endBrowserParts()
    }
  }
}

stopChildrenOnExit()
try {
  await main()
} catch (error) {
  // Ended by SIGINT/SIGTERM: the signal's handler exits with its code (130/143), not 1.
  if (!stoppingOnSignal()) {
    console.error(error)
    // What a part started and did not stop (a server it failed to use) ends with the bench.
    await stopChildren()
    process.exit(1)
  }
}
