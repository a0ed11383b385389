import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ErrorResponse, NotModified } from '#schemas/common.js'
import { FileDownloadParams, FileDownloadQuery, FileIdParams } from '#schemas/files.js'
import { ApiError, notFound } from '#src/errors.js'
import { acceptedTypeOf } from '#src/files/sniff.js'
import { contentDisposition } from '#src/http/content-disposition.js'
import { parseRange } from '#src/files/range.js'
import { FileBody } from '#src/files/file-body.js'
import { findFile, urlName } from './repository.js'

/**
 * A stored file is shown by the browser only as what it is, never as a page: no scripts, no
 * plugins, no requests of its own, a unique origin (sandbox).
 */
export const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

const Binary = Type.String({ format: 'binary', description: 'the file’s bytes' })

/** Whether an If-Range validator still names this file (a strong ETag or its exact date). */
const ifRangeHolds = (value: string, etag: string, lastModified: string) =>
  value.startsWith('"') ? value === etag : value === lastModified

const downloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = (params: typeof FileIdParams | typeof FileDownloadParams) => ({
    tags: ['files'],
    summary: 'Download a file (Range, ETag; inline for PDF, audio and images)',
    description:
      'Served like a static file: `ETag` (the SHA-256), `Last-Modified`, `Range` with 206 and ' +
      '416, `If-Range`, `If-None-Match`. `Content-Disposition` is inline for PDF, audio and ' +
      'images and an attachment otherwise or with `?download=1`; a sandboxing CSP. The name in ' +
      '`/files/{id}/{name}` is only for the browser.',
    params,
    querystring: FileDownloadQuery,
    produces: ['application/octet-stream'],
    response: {
      200: Binary,
      206: Binary,
      304: NotModified,
      404: { ...ErrorResponse, description: 'File not found, or its bytes are missing on disk' },
      416: { ...ErrorResponse, description: 'The Range lies outside the file' }
    }
  })

  const download = async (
    request: FastifyRequest<{ Params: { id: number }, Querystring: { download?: '1' } }>,
    reply: FastifyReply
  ) => {
    const row = findFile(app.db, request.params.id)
    if (!row) throw notFound('file', request.params.id)
    const stat = app.files.store.stat(row.sha256)
    if (!stat || stat.size !== row.bytes) {
      // Removed or damaged by hand: the band sees a missing file, the admin the log line.
      request.log.error({ fileId: row.id, sha256: row.sha256 },
        'file missing on disk: its bytes are gone from DATA_DIR/files (restore them from a backup)')
      throw new ApiError('FILE_NOT_FOUND', `file ${row.id}: its content is missing on the server`)
    }
    const type = acceptedTypeOf(row.mimeType)
    const etag = `"${row.sha256}"`
    const lastModified = new Date(row.createdAt).toUTCString()
    const inline = type.inline && request.query.download === undefined
    reply
      .header('etag', etag)
      .header('last-modified', lastModified)
      .header('cache-control', 'private, no-cache')
      .header('accept-ranges', 'bytes')
      .header('content-security-policy', FILE_CSP)
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment',
        urlName(row.title, type.extension)))
    const ifNoneMatch = request.headers['if-none-match']
    const ifModifiedSince = request.headers['if-modified-since']
    const unchanged = ifNoneMatch !== undefined
      ? ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
      : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified)
    if (unchanged) return reply.status(304).send()

    const ifRange = request.headers['if-range']
    const rangeHeader = typeof ifRange !== 'string' || ifRangeHolds(ifRange, etag, lastModified)
      ? request.headers.range
      : undefined
    const range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, row.bytes)
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${row.bytes}`)
      throw new ApiError('RANGE_NOT_SATISFIABLE',
        `the range ${rangeHeader!.slice(0, 40)} lies outside the file's ${row.bytes} bytes`)
    }
    reply.type(type.mimeType)
    const path = app.files.store.pathOf(row.sha256)
    if (range) {
      reply.status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${row.bytes}`)
        .header('content-length', range.end - range.start + 1)
      return reply.send(new FileBody(path, range))
    }
    reply.header('content-length', row.bytes)
    return reply.send(new FileBody(path, { start: 0, end: row.bytes - 1 }))
  }

  // compress: false: a file is sent as stored (audio, PDF and images are compressed already, and
  // byte ranges count the stored bytes).
  app.get('/files/:id', {
    config: { access: 'member', compress: false },
    schema: schema(FileIdParams)
  }, download)
  app.get('/files/:id/:name', {
    config: { access: 'member', compress: false },
    schema: schema(FileDownloadParams)
  }, download)
}
export default downloadRoutes
