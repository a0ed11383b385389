import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { DocumentContext, GigDocument } from './gig-document.js'
import type { PreparedLogo } from './logo.js'
import type { SetlistStyle } from './setlist-pdf.js'
import type { SongbookDocument } from './songbook-pdf.js'

// Documents (pdfmake lays a 60-song setlist out in ~50–100 ms of synchronous work, a 4,000-entry
// one in ~16 s; xlsx builds the GEMA workbook) and logo decoding run in worker threads, never on
// the main event loop. The pool is piscina: workers start on first use and leave after a minute
// idle, a crashed worker is replaced, a task past its time limit ends its worker. The admission
// of document requests (queue bound, per-user limit, shared renders) is plugins/documents' queue.

export type DocumentJob =
  | { kind: 'setlist'; doc: GigDocument; ctx: DocumentContext; style: SetlistStyle }
  | { kind: 'schedule'; doc: GigDocument; ctx: DocumentContext }
  | { kind: 'gema'; doc: GigDocument; ctx: DocumentContext }
  | { kind: 'songbook'; book: SongbookDocument; ctx: DocumentContext }

export type WorkerTask = DocumentJob | { kind: 'logo'; data: Uint8Array }

/** One render per core, at most two: the server keeps a core for everything else on a Pi. */
export const DOCUMENT_THREADS = Math.max(1, Math.min(2, availableParallelism()))
/**
 * The largest setlist the API accepts (20 sets of 200 songs) renders in ~16 s on the project
 * machine; a slow Raspberry Pi needs a few times that. A render beyond this ends its worker.
 */
const RENDER_TIMEOUT_MS = 120_000
/** Decoding a logo within the limits takes ~1 s; longer means a hostile file. */
const LOGO_TIMEOUT_MS = 20_000
/**
 * A 4,000-entry setlist needs ~110 MB of heap in pdfmake. Over the limit, only that worker ends
 * (without a limit of its own, a worker running out of heap aborts the whole process).
 */
const WORKER_HEAP_MB = 128
/**
 * Worker threads run at a lower priority (nice +10, Linux per thread, via piscina's optional
 * @napi-rs/nice): on two cores, two renders would otherwise take the CPU from the main thread.
 */
const WORKER_NICE = 10
/** An idle worker holds a pdfmake instance (tens of MB); on a small server it leaves. */
const IDLE_MS = 60_000
/**
 * Logo checks in flight (running or waiting for a thread). Renders are bounded by the documents
 * queue, which hands one over only for a free thread; uploads are bounded here. (piscina's own
 * `maxQueue` does not apply: a task with an abort signal, as every task here has, waits in a queue
 * of its own that `maxQueue` does not count.)
 */
export const LOGOS_IN_FLIGHT = 4

/** The logo check was refused: `LOGOS_IN_FLIGHT` checks are already running or waiting. */
export class WorkersBusyError extends Error {
  constructor () {
    super(`at most ${LOGOS_IN_FLIGHT} logo checks at once`)
  }
}

/** Compiled, the worker is JavaScript; under tsx (tests, development) its TypeScript source. */
const workerFile = fileURLToPath(
  new URL(`./worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)
)

/**
 * A worker's start flags under tsx: the resolution conditions and only tsx's ESM hook. With the
 * whole of `--import tsx` (what a worker inherits) its CommonJS hook compiles the worker's modules
 * to CommonJS when piscina `require`s the file: a second build of the same files under the same
 * URLs as the main thread's ESM one. Production imports them as ESM; and the coverage of the two
 * builds, merged by URL, counted lines of src/shared and src/documents as never run
 * (docs/development.md). Other flags stay out: a worker refuses V8's and the test runner's.
 */
export function workerExecArgv (argv: readonly string[]): string[] {
  const kept: string[] = []
  // `--import tsx` (tests), or the whole loader the tsx command line names (npm run dev).
  const esm = (value: string) =>
    value === 'tsx' || value.endsWith('/tsx/dist/loader.mjs') ? 'tsx/esm' : value
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? ''
    const value = argv[index + 1]
    if ((arg === '--import' || arg === '--conditions' || arg === '-C') && value !== undefined) {
      kept.push(arg, esm(value))
      index++
    } else if (arg.startsWith('--import=') || arg.startsWith('--conditions=')) {
      const [flag = '', ...rest] = arg.split('=')
      kept.push(`${flag}=${esm(rest.join('='))}`)
    }
  }
  return kept
}

export class DocumentWorkers {
  readonly threads: number
  #pool: Piscina<WorkerTask, Uint8Array | PreparedLogo> | undefined
  #logosInFlight = 0

  constructor (threads = DOCUMENT_THREADS) {
    this.threads = threads
  }

  #run (task: WorkerTask, timeoutMs: number): Promise<Uint8Array | PreparedLogo> {
    this.#pool ??= new Piscina({
      filename: workerFile,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      // Renders yield the CPU to the main thread, which answers everything else meanwhile.
      niceIncrement: WORKER_NICE,
      // Tasks are asynchronous (pdfkit streams): a worker must not sit in Atomics.wait between
      // them. (Workers inherit execArgv: the resolution conditions, and tsx in development.)
      atomics: 'disabled',
      ...(workerFile.endsWith('.ts') && { execArgv: workerExecArgv(process.execArgv) })
    })
    return this.#pool.run(task, { signal: AbortSignal.timeout(timeoutMs) })
  }

  /** Renders a document in a worker thread. */
  async render (job: DocumentJob): Promise<Buffer> {
    const bytes = (await this.#run(job, RENDER_TIMEOUT_MS)) as Uint8Array
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  /**
   * Checks and prepares a logo in a worker thread (src/documents/logo.ts); throws WorkersBusyError
   * beyond `LOGOS_IN_FLIGHT`, before the image takes a thread or a place.
   */
  async prepareLogo (data: Buffer): Promise<PreparedLogo> {
    if (this.#logosInFlight >= LOGOS_IN_FLIGHT) throw new WorkersBusyError()
    this.#logosInFlight++
    try {
      const prepared = (await this.#run({ kind: 'logo', data }, LOGO_TIMEOUT_MS)) as PreparedLogo
      return prepared.ok ? { ...prepared, watermark: Buffer.from(prepared.watermark) } : prepared
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error
      return {
        ok: false,
        code: 'IMAGE_TOO_LARGE',
        message: `decoding the image took longer than ${LOGO_TIMEOUT_MS / 1000} s`
      }
    } finally {
      this.#logosInFlight--
    }
  }

  /** Ends the worker threads (a later task starts a new pool). */
  async close (): Promise<void> {
    const pool = this.#pool
    this.#pool = undefined
    await pool?.destroy()
  }

  /** Threads currently started (tests). */
  get startedThreads (): number {
    return this.#pool?.threads.length ?? 0
  }
}
