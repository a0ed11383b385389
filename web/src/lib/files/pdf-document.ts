// pdf.js, loaded only when a PDF is shown: the library and its worker are files of their own,
// never in a screen's first bytes. Both are pdf.js's own minified builds, copied into the app as
// assets and imported by URL: bundled, the library's ~0.9 MB of source cost the build ~120 MB of
// RAM (parsed, transformed and minified again) for the same code.
import type { PDFDocumentProxy } from 'pdfjs-dist'

type PdfJs = typeof import('pdfjs-dist')

/** A sheet with more pages shows its first ones (a phone's memory holds a canvas for each). */
export const MAX_PAGES = 60

let library: Promise<PdfJs> | null = null

function pdfjs (): Promise<PdfJs> {
  library ??= Promise.all([
    import('pdfjs-dist/build/pdf.min.mjs?url')
      .then(async (url) => await import(/* @vite-ignore */ url.default) as PdfJs),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url')
  ]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default
    return lib
  })
  // A failed chunk load (offline without the app's files) may be tried again later.
  library.catch(() => (library = null))
  return library
}

/** The file could not be read (`status`: the server's answer, 0 for no answer). */
export class PdfUnavailable extends Error {
  override name = 'PdfUnavailable'
  constructor (readonly status: number) {
    super(`the PDF could not be loaded (${status || 'no answer'})`)
  }
}

/**
 * The PDF at `url`, read whole by the page (not by pdf.js's range requests): offline the service
 * worker answers it from the gig pack, which keeps whole files. Aborting destroys the document.
 */
export async function openPdf (url: string, signal: AbortSignal): Promise<PDFDocumentProxy> {
  const [bytes, lib] = await Promise.all([
    fetch(url, { credentials: 'same-origin', signal }).then(async (answer) => {
      if (!answer.ok) throw new PdfUnavailable(answer.status)
      return new Uint8Array(await answer.arrayBuffer())
    }, (error: unknown) => {
      if (signal.aborted) throw error
      throw new PdfUnavailable(0)
    }),
    pdfjs()
  ])
  // No WebAssembly (the app's Content-Security-Policy allows none) and no warnings in the console
  // for what a sheet lacks (a standard font taken from the system instead).
  const task = lib.getDocument({
    data: bytes, useWasm: false, verbosity: lib.VerbosityLevel.ERRORS
  })
  signal.addEventListener('abort', () => {
    task.destroy().catch(() => {})
  }, { once: true })
  return await task.promise
}
