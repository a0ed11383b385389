import type { FastifyServerOptions, FastifyRequest } from 'fastify'

// Secrets that travel in URL paths (the personal calendar feed token) must never reach the request log:
// whoever reads the log could subscribe to a member's calendar.

const SECRET_PATHS = [/^(\/cal\/ical\/)[^/?#]+/i]

export function redactUrl(url: string): string {
  let result = url
  for (const pattern of SECRET_PATHS) result = result.replace(pattern, '$1[redacted]')
  return result
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}

/** Adds the redacting request serializer to logger options (an explicit `false` stays off). */
export function withLogRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger
  const options = logger === true ? {} : logger
  return { ...options, serializers: { ...options.serializers, req: serializeRequest as never } }
}
