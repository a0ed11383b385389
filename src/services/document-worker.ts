import { parentPort } from 'node:worker_threads'
import { renderSchedulePdf } from './schedule-pdf.js'
import { renderSetlistPdf } from './setlist-pdf.js'
import type { PdfJob } from './document-workers.js'

// Worker thread entry: renders PDFs off the main event loop (see document-workers.ts).

parentPort!.on('message', async ({ id, job }: { id: number; job: PdfJob }) => {
  try {
    // Buffers arrive as plain Uint8Arrays after structured cloning.
    const logo = job.ctx.logo
      ? { ...job.ctx.logo, data: Buffer.from(job.ctx.logo.data) }
      : job.ctx.logo
    const ctx = { ...job.ctx, logo }
    const pdf =
      job.kind === 'setlist'
        ? await renderSetlistPdf(job.doc, ctx, job.style)
        : await renderSchedulePdf(job.doc, ctx)
    parentPort!.postMessage({ id, ok: true, pdf })
  } catch (error) {
    parentPort!.postMessage({
      id,
      ok: false,
      message: error instanceof Error ? error.message : String(error)
    })
  }
})

parentPort!.postMessage({ ready: true })
