// Preloaded into `vite build` of the web app (scripts/build-web.sh): SvelteKit runs its analysis of
// the server build and the fallback page's render in worker threads and, once a worker has sent
// its result, only unrefs it. An idle worker keeps its own V8 heap and the app's server code
// loaded, ~100 MB each, until Vite exits: the analysis worker through the whole client build, both
// at the build's peak. Here the worker lets go of its port after the result (the one message it
// answers), its event loop runs empty and it ends on its own, as a worker with nothing left to do.
import { isMainThread, parentPort } from 'node:worker_threads'

if (!isMainThread && process.env.SVELTEKIT_FORK && parentPort) {
  const port = parentPort
  const post = port.postMessage.bind(port)
  port.postMessage = (message, transfer) => {
    post(message, transfer)
    if (message?.type === 'result') port.unref()
  }
}
