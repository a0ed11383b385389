import fp from 'fastify-plugin'
import { badRequest } from '#src/errors.js'

// C0 controls other than tab, line feed and carriage return, and DEL: nothing a band types, and
// they would travel into PDFs, spreadsheets and calendar files.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

/** The path of the first string (value or key) that is not clean text, or null. */
function findBadText (value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') {
    return CONTROL.test(value) || !value.isWellFormed() ? path || '(body)' : null
  }
  if (depth > 32 || value === null || typeof value !== 'object') return null
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = path ? `${path}.${key}` : key
    if (CONTROL.test(key) || !key.isWellFormed()) return innerPath
    const found = findBadText(inner, innerPath, depth + 1)
    if (found) return found
  }
  return null
}

/**
 * Every JSON body is checked once, before validation: a route that takes no body refuses one with
 * content (unknown properties are never silently ignored), and text must be free of control
 * characters and broken UTF-16.
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', (request, _reply, done) => {
      const body = request.body
      if (body === undefined || body === null || Buffer.isBuffer(body)) return done()
      if (!request.routeOptions.schema?.body) {
        const empty = typeof body === 'object' ? Object.keys(body).length === 0 : body === ''
        if (!empty) {
          return done(
            badRequest(
              'UNEXPECTED_BODY',
              `${request.method} ${request.routeOptions.url} takes no body`
            )
          )
        }
        return done()
      }
      const field = findBadText(body, '')
      if (field) {
        return done(
          badRequest('INVALID_TEXT', `body.${field} contains control characters or invalid Unicode`)
        )
      }
      done()
    })
  },
  { name: 'request-body', fastify: '5.x', dependencies: ['errors'] }
)
