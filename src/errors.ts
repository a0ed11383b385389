import { nodeHttp } from '#src/http/node-http.js'
import type { ErrorResponseBody } from '#schemas/common.js'
import type { WeakPasswordReason } from '#shared/enums.js'
import { ERROR_CODES, type ErrorCode, type ErrorCodeOf } from './error-codes.js'

/** An error meant for the client: a code of the catalogue (its status) and a safe message. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly statusCode: number
  constructor (
    readonly code: ErrorCode,
    message: string,
    /** WEAK_PASSWORD: why (a code the client translates). */
    readonly reason?: WeakPasswordReason
  ) {
    super(message)
    this.statusCode = ERROR_CODES[code].status
  }
}

/**
 * The one error body (Fastify's shape with a stable code): the error handler's, and that of a
 * route or server hook that answers an expected refusal itself rather than throwing (no stack
 * trace to capture: a flood is refused thousands of times). `statusCode` defaults to the code's.
 */
export const errorBody = (
  code: ErrorCode,
  message: string,
  statusCode: number = ERROR_CODES[code].status
): ErrorResponseBody => ({
  statusCode,
  error: nodeHttp.STATUS_CODES[statusCode] ?? 'Error',
  code,
  message
})

const NOT_FOUND = {
  gig: 'GIG_NOT_FOUND',
  payment: 'PAYMENT_NOT_FOUND',
  file: 'FILE_NOT_FOUND',
  'checklist item': 'CHECKLIST_ITEM_NOT_FOUND',
  rehearsal: 'REHEARSAL_NOT_FOUND',
  'repertoire setlist': 'REPERTOIRE_NOT_FOUND',
  session: 'SESSION_NOT_FOUND',
  set: 'SET_NOT_FOUND',
  'setlist entry': 'SETLIST_ENTRY_NOT_FOUND',
  song: 'SONG_NOT_FOUND',
  survey: 'SURVEY_NOT_FOUND',
  user: 'USER_NOT_FOUND'
} as const satisfies Record<string, ErrorCodeOf<404>>

export const notFound = (resource: keyof typeof NOT_FOUND, id: number | string) =>
  new ApiError(NOT_FOUND[resource], `${resource} ${id} not found`)
export const badRequest = (code: ErrorCodeOf<400>, message: string) => new ApiError(code, message)
export const unauthorized = (
  message = 'authentication required',
  code: ErrorCodeOf<401> = 'UNAUTHORIZED'
) => new ApiError(code, message)
export const forbidden = (
  message = 'not allowed for your role',
  code: ErrorCodeOf<403> = 'FORBIDDEN'
) => new ApiError(code, message)
export const conflict = (code: ErrorCodeOf<409>, message: string) => new ApiError(code, message)
export const weakPassword = (weakness: { reason: WeakPasswordReason, message: string }) =>
  new ApiError('WEAK_PASSWORD', weakness.message, weakness.reason)
