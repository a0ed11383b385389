import fp from 'fastify-plugin'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, errorBody } from '#src/errors.js'
import { ERROR_CODES, type ErrorCode } from '#src/error-codes.js'
import { reportStorageFailure, storageFailureCode } from '#src/storage/storage-health.js'
import { PasswordGateBusy } from '#src/auth/password-gate.js'
import { setSecurityHeaders } from './security.js'

// Fastify's own error codes mapped to the stable codes clients see.
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE'
}

const isErrorCode = (code: string | undefined): code is ErrorCode =>
  code !== undefined && Object.hasOwn(ERROR_CODES, code)

const body = (statusCode: number, code: ErrorCode, message: string) =>
  errorBody(code, message, statusCode)

/**
 * Errors the router raises before any route or hook runs (undecodable URL, over-long path segment).
 * The message does not echo the URL: a calendar token could be part of it.
 */
export function frameworkErrorHandler (
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply
): void {
  setSecurityHeaders(reply)
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(body(414, 'URL_TOO_LONG', 'a path segment of the URL is too long'))
  } else {
    reply.status(400).send(body(400, 'INVALID_URL', 'the URL is not validly encoded'))
  }
}

/** 404 for a URL no route serves (also from a hook, before any body is read). */
export function sendRouteNotFound (request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0]
  return reply
    .status(404)
    .send(body(404, 'ROUTE_NOT_FOUND', `route ${request.method} ${path} not found`))
}

/** The one error handler: Fastify's error shape plus a stable code; 5xx never carry internals. */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.validation) {
        const details = error.validation.map((issue) => {
          const missing = (issue.params as { missingProperty?: string }).missingProperty
          const extra = (issue.params as { additionalProperty?: string }).additionalProperty
          const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.')
          const field = [error.validationContext, path, missing ?? extra].filter(Boolean).join('.')
          const message = extra ? 'unknown property' : (issue.message ?? 'is invalid')
          // Ajv's keyword and params: what a client translates the detail by, never the English.
          return { field, message, keyword: issue.keyword, params: issue.params }
        })
        const message = details.map((d) => `${d.field} ${d.message}`).join('; ')
        return reply.status(400).send({ ...body(400, 'VALIDATION_ERROR', message), details })
      }
      const health = request.server.hasDecorator('storageHealth')
        ? request.server.storageHealth
        : undefined
      // Neither the error nor drizzle's message is logged: they carry the statement's values.
      const message = 'write failed: the data could not be stored'
      if (reportStorageFailure(request.log, health, error, message)) {
        const sqliteCode = storageFailureCode(error)!
        return reply
          .status(503)
          .send(
            body(
              503,
              'STORAGE_FAILED',
              `the change could not be stored (${sqliteCode}): the server's disk is full or ` +
                `failing; reference ${request.id}`
            )
          )
      }
      if (error instanceof PasswordGateBusy) {
        return reply
          .status(503)
          .header('retry-after', String(error.retryAfterSeconds))
          .send(body(503, 'SERVER_BUSY', error.message))
      }
      const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
      // An ApiError's message is written for the client, also on a 503 (STORAGE_FAILED of a file).
      if (statusCode >= 500 && !(error instanceof ApiError)) {
        request.log.error({ err: error }, 'request failed')
        return reply
          .status(statusCode)
          .send(body(statusCode, 'INTERNAL_ERROR', `internal error; reference ${request.id}`))
      }
      // Only codes of the catalogue reach clients; other client errors (the framework's own and
      // those of ecosystem plugins) are BAD_REQUEST with their status.
      const code: ErrorCode =
        error instanceof ApiError
          ? error.code
          : (fastifyCodes[error.code] ?? (isErrorCode(error.code) ? error.code : 'BAD_REQUEST'))
      if (statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60')
      const reason = error instanceof ApiError ? error.reason : undefined
      return reply
        .status(statusCode)
        .send({ ...body(statusCode, code, error.message), ...(reason ? { reason } : {}) })
    })

    app.setNotFoundHandler(sendRouteNotFound)
  },
  { name: 'errors', fastify: '5.x' }
)
