// Swagger UI needs its inline styles and the data: images it ships; nothing is loaded from
// elsewhere.
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
  "script-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

/**
 * The headers every answer carries: set by the security plugin on Fastify's replies, and on the
 * refusals answered below Fastify (src/http/http-server.ts).
 */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy': CONTENT_SECURITY_POLICY
} as const
