/** An error meant for the client: status, stable code and a message that is safe to show. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor (
    readonly statusCode: number,
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

const codeFor = (resource: string) => resource.toUpperCase().replace(/[^A-Z0-9]+/g, '_')

export const notFound = (resource: string, id: number | string) =>
  new ApiError(404, `${codeFor(resource)}_NOT_FOUND`, `${resource} ${id} not found`)
export const badRequest = (code: string, message: string) => new ApiError(400, code, message)
export const unauthorized = (message = 'authentication required', code = 'UNAUTHORIZED') =>
  new ApiError(401, code, message)
export const forbidden = (message = 'not allowed for your role', code = 'FORBIDDEN') =>
  new ApiError(403, code, message)
export const conflict = (code: string, message: string) => new ApiError(409, code, message)
