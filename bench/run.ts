/**
 * npm run bench — the HTTP rows (bench/http.ts: wrk against the built server, compared with a bare
 * Fastify route serving the same bytes), then the document renderers, the web app and the other
 * parts below. CI runs a one-second smoke run (test/scripts/bench-smoke.test.ts). It reports, it
 * asserts nothing. Its processes end with it, also on a crash, SIGINT or SIGTERM (children.ts).
 */
import { runHttpBench } from './http.js'
import { ensureWrk, load, removeWrkScripts } from './wrk.js'
import { runDocumentBench } from './documents.js'
import { runSerializerBench } from './serializer.js'
import { printWebBundle } from './web-bundle.js'
import { runSetlistEditorBench } from './web-setlist-editor.js'
import { runLiveUiBench } from './live-ui.js'
import { runAddressFloodBench } from './address-flood.js'
import { runStageChartsBench } from './stage-charts.js'
import { runOfflineBench } from './offline.js'
import { runSetlistLimitsBench } from './setlist-limits.js'
import { runFilesBench } from './files.js'
import { runScaleBench } from './scale.js'
import { runStartTimeBench } from './start-time.js'
import { runBuildMemoryBench } from './build-memory.js'
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

async function main () {
  try {
    await run('build', runBuildMemoryBench)
    await run('http', runHttpBench)
    await run('start', runStartTimeBench)
    await run('serializer', runSerializerBench)
    await run('documents', runDocumentBench)
    await run('addresses', runAddressFloodBench)
    await run('web', async () => {
      printWebBundle()
      await runSetlistEditorBench()
      await runLiveUiBench()
      await runStageChartsBench()
    })
    await run('offline', runOfflineBench)
    await run('limits', runSetlistLimitsBench)
    await run('files', async () => {
      ensureWrk()
      await runFilesBench(load)
    })
    await run('scale', runScaleBench)
  } finally {
    removeWrkScripts()
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
