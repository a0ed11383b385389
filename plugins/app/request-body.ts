import type { IncomingHttpHeaders } from 'node:http'
import fp from 'fastify-plugin'
import { badRequest } from '#src/errors.js'
import { sendRouteNotFound } from './errors.js'

/**
 * C0 controls other than tab, line feed and carriage return, DEL and the C1 controls: nothing a
 * band types, and they would travel into PDFs, spreadsheets and calendar files. And the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make text display in
 * another order than it is stored ("Trojan Source"): a song title must read as it is.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/

/**
 * Body limits by what a route takes. A route without a body schema takes none: a few bytes for the
 * `{}` some clients send. A public route (no session yet: /login) takes what its schema can hold,
 * far below the global limit. Everything else the global limit (BODY_LIMIT_BYTES), sized to the
 * largest real body (a setlist); a route may set its own (the logo).
 */
export const NO_BODY_LIMIT_BYTES = 64
export const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024

/** Whether a request announces a body (RFC 9112 §6.3: Transfer-Encoding or a Content-Length). */
function hasBody (headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length']
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

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
 * characters and broken UTF-16. Bodies are limited by what the route takes, and a request for an
 * unknown route is answered 404 before its body is read. Registered before every other plugin
 * that adds routes, so that its limits apply to theirs too (the CORS preflight, the docs).
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (route.bodyLimit !== undefined) return
      const access = (route.config as { access?: string } | undefined)?.access
      if (!route.schema?.body) route.bodyLimit = NO_BODY_LIMIT_BYTES
      else if (access === 'public') route.bodyLimit = PUBLIC_BODY_LIMIT_BYTES
    })

    // After the onRequest hooks (CORS headers, the cross-site check), before the body is read.
    app.addHook('preParsing', (request, reply, payload, done) => {
      if (request.is404) return sendRouteNotFound(request, reply)
      done(null, payload)
    })

    // An answer given before the body arrived in full (401, 404, 413, 429 on a large upload): the
    // connection closes after it. Otherwise Node drains the rest of the body, reading and dropping
    // megabytes that a client may withhold the last byte of; the dropped chunks are garbage that
    // 400 such connections pile up faster than the heap collects it. Only a request that has a
    // body: one without is not `complete` yet while an answer from memory is sent in the same turn
    // (Node marks it after the request event), and closing there would end every phone's
    // kept-alive polling connection.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.raw.complete === false && hasBody(request.raw.headers)) {
        reply.header('connection', 'close')
      }
      done(null, payload)
    })

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
          badRequest(
            'INVALID_TEXT',
            `body.${field} contains control characters, bidirectional overrides or invalid Unicode`
          )
        )
      }
      done()
    })
  },
  { name: 'request-body', fastify: '5.x', dependencies: ['errors'] }
)
