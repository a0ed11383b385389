import type { DocumentContext } from './gig-document.js'
import type { WorkerTask } from './pool.js'
import { renderGemaXlsx } from './gema-xlsx.js'
import { prepareLogo, type PreparedLogo } from './logo.js'
import { renderSchedulePdf } from './schedule-pdf.js'
import { renderSetlistPdf } from './setlist-pdf.js'
import { renderSongbookPdf } from './songbook-pdf.js'

// Worker thread entry (piscina calls the default export once per task; see pool.ts).
// pdfmake and xlsx are loaded by their renderers on first use: a worker that only ever prepared
// logos or rendered PDFs never loads xlsx.

/** Buffers arrive as plain Uint8Arrays after structured cloning. */
const withBuffers = (ctx: DocumentContext): DocumentContext =>
  ctx.logo?.watermark
    ? { ...ctx, logo: { ...ctx.logo, watermark: Buffer.from(ctx.logo.watermark) } }
    : ctx

export default async function runTask (task: WorkerTask): Promise<Uint8Array | PreparedLogo> {
  switch (task.kind) {
    case 'logo':
      return prepareLogo(Buffer.from(task.data.buffer, task.data.byteOffset, task.data.byteLength))
    case 'setlist':
      return renderSetlistPdf(task.doc, withBuffers(task.ctx), task.style)
    case 'schedule':
      return renderSchedulePdf(task.doc, withBuffers(task.ctx))
    case 'gema':
      return renderGemaXlsx(task.doc, task.ctx)
    case 'songbook':
      return renderSongbookPdf(task.book, task.ctx)
  }
}
