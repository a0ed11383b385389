import type { Readable } from 'node:stream'
import { Type } from '@sinclair/typebox'
import { ErrorResponse, StringEnum } from './common.js'

export const CSV_TYPE = 'text/csv; charset=utf-8'
export const TEXT_TYPE = 'text/plain; charset=utf-8'

/** A text download's response schema, naming its real media type in the OpenAPI document. */
export const textFile = (mediaType: string, description: string) =>
  Type.Unsafe<string | Buffer | Readable>({
    description,
    content: { [mediaType.split(';')[0]!]: { schema: { type: 'string' } } }
  })

/** A binary download's response schema (PDF, workbook, zip), sent whole or as it is made. */
export const binaryFile = (mediaType: string, description: string) =>
  Type.Unsafe<Buffer | Readable>({
    description,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } }
  })

/** The setlist PDF's styles, defined once (src/documents/setlist-pdf.ts has their themes). */
export const SETLIST_STYLES = ['print', 'stage', 'stage-dark'] as const
export type SetlistStyle = (typeof SETLIST_STYLES)[number]

/** `?download=true`: the same file as an attachment (saved, not opened in the browser). */
export const DownloadFlag = Type.Boolean({
  default: false,
  description: 'true: Content-Disposition attachment (save the file); default inline (open it)'
})
export const DownloadQuery = Type.Object({ download: Type.Optional(DownloadFlag) })

export const SetlistStyleQuery = Type.Object({
  style: StringEnum(SETLIST_STYLES, {
    default: 'print',
    description:
      'print (default): black on white, compact; stage: black on white, titles of 28 pt, one ' +
      'set per page; stage-dark: the stage list white on black (for a screen)'
  }),
  download: Type.Optional(DownloadFlag)
})

/** The songbook's prints: normal, or large for a music stand (src/documents/songbook-lines.ts). */
export const SONGBOOK_PRINTS = ['normal', 'large'] as const
export type SongbookPrint = (typeof SONGBOOK_PRINTS)[number]
export const SongbookQuery = Type.Object({
  print: StringEnum(SONGBOOK_PRINTS, {
    default: 'normal',
    description: 'normal (default): lyrics of 12 pt; large: lyrics of 17 pt and chords of 15 pt, ' +
      'to be read from a music stand'
  }),
  download: Type.Optional(DownloadFlag)
})

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** Every document of one gig at once (setlist print and stage, running order, GEMA). */
export const DOCUMENTS_PER_USER = 4

/** The description and refusals of every route that renders through the document queue. */
export const DOCUMENT_QUEUE_DESCRIPTION =
  'When the document queue is full: 503 DOCUMENTS_BUSY with Retry-After; more than ' +
  `${DOCUMENTS_PER_USER} documents of one member at once: 429 RATE_LIMITED with Retry-After.`
export const DocumentQueueErrors = {
  429: { ...ErrorResponse, description: `More than ${DOCUMENTS_PER_USER} documents of one member` },
  503: {
    ...ErrorResponse,
    description: 'The document queue is full (DOCUMENTS_BUSY), or the server is busy (SERVER_BUSY)'
  }
}
