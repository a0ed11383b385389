import { Socket } from 'node:net'
import { finished } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Value } from '@sinclair/typebox/value'
import { nodeHttp } from '#src/http/node-http.js'
import { ApiError } from '#src/errors.js'
import { FileStorageError, UploadLimitError, type ReceivedFile } from '#src/files/store.js'
import { ALLOWED_TYPES_TEXT, maxBytesOf, sniffFile, type AcceptedType } from '#src/files/sniff.js'
import { usedFileBytes } from '#src/repositories/files.js'
import { FILE_LIMITS } from '#shared/limits.js'
import { FileFields, type FileFieldsType } from '#schemas/files.js'

const MB = 1024 * 1024
const mb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`

/** The multipart limits (@fastify/multipart): one file and two short fields. */
export const MULTIPART_LIMITS = {
  files: 1,
  fields: 4,
  parts: 6,
  fieldNameSize: 20,
  fieldSize: 4 * FILE_LIMITS.title,
  headerPairs: 20,
  // A backstop: the store stops the stream at the limit of the file's kind first.
  fileSize: FILE_LIMITS.audioBytes + 1
}

export interface Upload {
  received: ReceivedFile
  fields: FileFieldsType
  fileName: string
  type: AcceptedType
}

const invalid = (message: string) => new ApiError('INVALID_UPLOAD', message)

/**
 * Reads a multipart upload: the fields `title` and `kind` (before or after the file) and the one
 * part `file`, streamed to a temporary file within the limits (documents 20 MB, recordings 60 MB,
 * the band's quota). Returns the received file with its type from its bytes; on any refusal the
 * partial file is gone before the error is thrown.
 */
export async function readUpload (app: FastifyInstance, request: FastifyRequest): Promise<Upload> {
  const { store, quotaBytes } = app.files
  const raw: Record<string, string> = {}
  let received: ReceivedFile | undefined
  let fileName = ''
  try {
    if (!request.isMultipart()) throw invalid('send multipart/form-data with the part `file`')
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value)
        continue
      }
      if (part.fieldname !== 'file' || received) {
        part.file.resume()
        throw invalid(`one part \`file\` is taken (got \`${part.fieldname.slice(0, 20)}\`)`)
      }
      fileName = part.filename.slice(0, 255) || 'file'
      // A kind named before the file sets the limit at once; otherwise the larger one until the
      // bytes tell the type.
      const maxBytes = raw.kind !== undefined && raw.kind !== 'recording'
        ? FILE_LIMITS.documentBytes
        : FILE_LIMITS.audioBytes
      const quotaLeft = quotaBytes - usedFileBytes(app.db)
      received = await store.receive(part.file, {
        maxBytes,
        quotaLeft,
        fileMessage: (limit) => `the file is larger than ${mb(limit)}, the limit for ` +
          (limit === FILE_LIMITS.audioBytes ? 'recordings' : 'PDFs, images and text'),
        quotaMessage: `the band's files would take more than FILES_QUOTA_MB (${mb(quotaBytes)}; ` +
          `${mb(Math.max(0, quotaLeft))} left): delete files the band no longer needs`
      }, { freeWritten: readFromSocket(request) })
    }
    // The parser stops at the closing boundary; the body's last bytes (a chunked body's end) may
    // still be on their way. Answering before them would close the connection (request-body.ts).
    if (!request.raw.complete) await finished(request.raw)
    if (!received) throw invalid('the part `file` is missing')
    if (received.bytes === 0) throw invalid('the file is empty')
    const fields = { title: raw.title?.trim() ?? '', kind: raw.kind }
    if (!Value.Check(FileFields, fields)) {
      throw invalid(`\`title\` (1–${FILE_LIMITS.title} characters) and \`kind\` (sheet, ` +
        'recording, document or image) are required')
    }
    const sniffed = await sniffFile(received.tempPath)
    if ('refused' in sniffed) {
      throw new ApiError('UNSUPPORTED_FILE_TYPE', `the file's content is ${sniffed.refused}; ` +
        `allowed are ${ALLOWED_TYPES_TEXT} (the type is read from the content, not the name)`)
    }
    const limit = maxBytesOf(sniffed.type)
    if (received.bytes > limit) {
      throw new ApiError('FILE_TOO_LARGE', `the file has ${mb(received.bytes)}; ` +
        `${sniffed.type.audio ? 'recordings' : 'PDFs, images and text'} may have ${mb(limit)}`)
    }
    return { received, fields, fileName, type: sniffed.type }
  } catch (error) {
    if (received) store.discard(received.tempPath)
    throw uploadError(app, request, error)
  }
}

/**
 * Whether Node's HTTP parser reads the body from a socket: it copies each piece into a buffer of
 * its own, which the file's sink may free once written. (An injected request's pieces are the
 * caller's buffers.)
 */
const readFromSocket = (request: FastifyRequest) =>
  request.raw instanceof nodeHttp.IncomingMessage && request.raw.socket instanceof Socket

/** The client's error for a refused upload. */
function uploadError (app: FastifyInstance, request: FastifyRequest, error: unknown): unknown {
  if (error instanceof UploadLimitError) {
    return new ApiError(error.limit === 'file' ? 'FILE_TOO_LARGE' : 'FILES_QUOTA_EXCEEDED',
      error.message)
  }
  if (error instanceof FileStorageError) {
    request.log.error({ errno: error.code }, 'upload failed: the file could not be stored')
    app.storageHealth.recordFailure(error.code)
    return new ApiError('STORAGE_FAILED', `${error.message}: the server's disk is full or ` +
      `failing; nothing was stored (reference ${request.id})`)
  }
  const code = (error as { code?: string }).code
  if (code === 'FST_FILES_LIMIT') return invalid('one part `file` is taken, not several')
  if (error instanceof ApiError || !(error instanceof Error)) return error
  // The multipart parser's own refusals (FST_… codes) and busboy's ("Unexpected end of multipart
  // data"): a body that is no valid upload, or a client that went away mid-upload.
  return invalid(`not a valid multipart upload: ${error.message.slice(0, 200)}`)
}
