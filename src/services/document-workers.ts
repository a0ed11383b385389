import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { DocumentContext, GigDocument } from './gig-document.js'
import type { SetlistStyle } from './setlist-pdf.js'

// pdfmake lays a document out synchronously: 60 songs block the event loop for ~100 ms, four at
// once for several hundred. PDFs are therefore rendered in a small pool of worker threads, so the
// server keeps answering other requests meanwhile. Should a worker not start (e.g. an unusual
// runtime), rendering falls back to the main thread: slower to share, never broken.

export type PdfJob =
  | { kind: 'setlist'; doc: GigDocument; ctx: DocumentContext; style: SetlistStyle }
  | { kind: 'schedule'; doc: GigDocument; ctx: DocumentContext }

interface Pending {
  resolve(pdf: Buffer): void
  reject(error: Error): void
}

interface PoolWorker {
  worker: Worker
  pending: Map<number, Pending>
  /** Set once the worker has loaded its modules: failures before that disable the pool. */
  ready: boolean
  idleTimer?: NodeJS.Timeout
}

// An idle worker holds a whole pdfmake instance (tens of MB); on a small server it leaves after a
// minute.
const IDLE_MS = 60_000

const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism()))
const pool: PoolWorker[] = []
let nextId = 1
let next = 0
let disabled = false

class WorkerStartError extends Error {}

// pdfmake is loaded on first use only: most requests never render a PDF, and it costs ~300 ms at
// start.
async function renderInline (job: PdfJob): Promise<Buffer> {
  if (job.kind === 'setlist') {
    return (await import('./setlist-pdf.js')).renderSetlistPdf(job.doc, job.ctx, job.style)
  }
  return (await import('./schedule-pdf.js')).renderSchedulePdf(job.doc, job.ctx)
}

/**
 * Compiled, the worker is plain JavaScript. Under tsx (development, tests) it is TypeScript: a
 * bootstrap registers tsx inside the worker before importing it (an inherited `--import tsx` races
 * the entry module).
 */
function startWorker (): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./document-worker.js', import.meta.url))
  }
  const tsxApi = import.meta.resolve('tsx/esm/api')
  const entry = new URL('./document-worker.ts', import.meta.url).href
  const bootstrap =
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return ` +
    `import(${JSON.stringify(entry)}) })`
  // Only the resolution conditions are passed on: `#src/...` must resolve to the sources here too.
  const conditions = process.execArgv.filter((arg) => arg.startsWith('--conditions='))
  return new Worker(bootstrap, { eval: true, execArgv: conditions })
}

function spawn (): PoolWorker {
  const entry: PoolWorker = { worker: startWorker(), pending: new Map(), ready: false }
  entry.worker.unref()
  entry.worker.on(
    'message',
    (message: { ready?: true; id: number; ok: boolean; pdf?: Uint8Array; message?: string }) => {
      if (message.ready) {
        entry.ready = true
        return
      }
      const pending = entry.pending.get(message.id)
      entry.pending.delete(message.id)
      if (entry.pending.size === 0) {
        entry.worker.unref()
        entry.idleTimer = setTimeout(() => retire(entry), IDLE_MS).unref()
      }
      if (!pending) return
      if (message.ok) {
        pending.resolve(
          Buffer.from(message.pdf!.buffer, message.pdf!.byteOffset, message.pdf!.byteLength)
        )
      } else pending.reject(new Error(message.message))
    }
  )
  const fail = (error: Error) => {
    if (!entry.ready) {
      disabled = true
      error = new WorkerStartError(error.message)
    }
    const index = pool.indexOf(entry)
    if (index >= 0) pool.splice(index, 1)
    for (const pending of entry.pending.values()) pending.reject(error)
    entry.pending.clear()
  }
  entry.worker.on('error', fail)
  entry.worker.on('exit', (code) => fail(new Error(`document worker exited with code ${code}`)))
  return entry
}

function retire (entry: PoolWorker): void {
  const index = pool.indexOf(entry)
  if (index >= 0) pool.splice(index, 1)
  void entry.worker.terminate()
}

async function inWorker (job: PdfJob): Promise<Buffer> {
  if (pool.length < POOL_SIZE) pool.push(spawn())
  const entry = pool[next++ % pool.length]!
  clearTimeout(entry.idleTimer)
  const id = nextId++
  return new Promise<Buffer>((resolve, reject) => {
    entry.pending.set(id, { resolve, reject })
    // Keep the process alive while a job runs; idle workers never hold it open.
    entry.worker.ref()
    entry.worker.postMessage({ id, job })
  })
}

/**
 * Renders a setlist or schedule PDF in a worker thread (falls back to the main thread if workers
 * fail).
 */
export async function renderPdfJob (job: PdfJob): Promise<Buffer> {
  if (disabled) return renderInline(job)
  try {
    return await inWorker(job)
  } catch (error) {
    // A worker that cannot even start disables the pool (see fail above); a failing render is
    // rethrown.
    if (error instanceof WorkerStartError) return renderInline(job)
    throw error
  }
}

/** Ends the worker threads (the pool starts again on the next job). */
export async function closeDocumentWorkers (): Promise<void> {
  const workers = pool.splice(0)
  await Promise.all(workers.map((w) => w.worker.terminate()))
}

/** Whether PDFs are currently rendered off the main thread (for tests and the benchmark). */
export const documentWorkersActive = () => !disabled && pool.some((w) => w.ready)
