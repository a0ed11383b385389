import { stdSerializers } from 'pino'
import type { FastifyServerOptions, FastifyRequest } from 'fastify'

// Secrets that travel in URLs (the personal calendar feed token) must never reach the log: whoever
// reads the log could subscribe to a member's calendar. A mistyped, re-encoded or differently
// routed URL (`/cal/./ical/<t>`, `/calendar/ical/<t>`, `?t=<t>`, a 404) may still carry a real
// token, so the rule is not about paths: anything shaped like a token is cut, wherever it stands.
// A token is 22 or more characters of the base64url alphabet (128 random bits; Bandstand's have
// 43) with a digit or both letter cases; words of a path (swagger-ui-standalone-preset) have
// neither. Percent-escapes are decoded first, so an encoded token is found too.

const FEED_ROUTE = '/cal/ical/:token'
const REDACTED = '[redacted]'
const TOKEN_RUN = /[A-Za-z0-9_-]{22,}/g
/** Text can only hold a token if it has such a run, possibly with percent-escapes in it. */
const MAY_HOLD_TOKEN = /[\w%-]{22,}/
const looksRandom = (run: string) => /\d/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run))

/**
 * Percent-decodes byte-wise until nothing changes: double-encoded text hides nothing from this
 * check.
 */
function decodeAll (text: string): string {
  let current = text
  for (let round = 0; round < 8; round++) {
    const next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16))
    )
    if (next === current) break
    current = next
  }
  return current
}

/**
 * Cuts every token-shaped run (after percent-decoding); text without one is returned unchanged.
 */
function redactTokens (text: string): string {
  if (!MAY_HOLD_TOKEN.test(text)) return text
  const plain = decodeAll(text)
  const redacted = plain.replace(TOKEN_RUN, (run) => (looksRandom(run) ? REDACTED : run))
  return redacted === plain ? text : redacted
}

/**
 * Removes a known secret from text in every spelling; text still hiding it after that is dropped
 * whole.
 */
function redactSecret (text: string, secret: string): string {
  let result = text
  for (const form of new Set([secret, encodeURIComponent(secret), encodeURI(secret)])) {
    result = result.split(form).join(REDACTED)
  }
  return decodeAll(result).includes(secret) ? REDACTED : result
}

/**
 * The URL as it may be logged: token-shaped runs cut. With the feed route's token known (`secret`),
 * the path is the route with the token redacted, and the token is removed from the query in any
 * spelling too.
 */
export function redactUrl (url: string, secret?: string): string {
  if (!secret) return redactTokens(url)
  const queryStart = url.indexOf('?')
  const query = queryStart < 0 ? '' : redactTokens(redactSecret(url.slice(queryStart), secret))
  return `/cal/ical/${REDACTED}${query}`
}

/**
 * Free text (log messages, error messages and stacks, a client error's raw request): every word
 * that could be part of a URL (it has a slash, `?`, `=`, `&` or a percent-escape) through
 * redactTokens. A plain word is left alone: the first start's generated admin password is meant to
 * be read in the log.
 */
function redactText (text: string): string {
  if (!MAY_HOLD_TOKEN.test(text)) return text
  return text.replace(/[^\s'"`<>]+/g, (word) => (/[/?=&%]/.test(word) ? redactTokens(word) : word))
}

function feedToken (request: FastifyRequest): string | undefined {
  if (request.routeOptions?.url !== FEED_ROUTE) return undefined
  const token = (request.params as { token?: unknown } | undefined)?.token
  return typeof token === 'string' && token !== '' ? token : undefined
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest (request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url, feedToken(request)),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}

function redactValue (value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value)
  // A client error's rawPacket holds the request line, URL included.
  if (Buffer.isBuffer(value)) return redactText(value.toString('latin1'))
  if (depth > 4 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactValue(item, depth + 1)])
  )
}

/**
 * Error objects may quote the URL (in the message, a cause, a client error's raw packet). Fastify's
 * default error serializer is pino's (a dependency of ours too, in the range Fastify takes, so npm
 * installs one pino): error lines keep their usual shape (type, message, stack, code, cause...) and
 * only get their text redacted. pino passes whatever is logged as `err`, not only errors.
 */
export function serializeError (
  error: unknown,
  serialize: (error: Error) => unknown = stdSerializers.err
): unknown {
  return redactValue(serialize(error as Error), 0)
}

type LogMethod = (
  this: unknown,
  args: unknown[],
  method: (...args: unknown[]) => void,
  level: number
) => void

/**
 * Adds the redacting serializers to logger options (an explicit `false` stays off), and a hook that
 * redacts plain message strings (Fastify quotes the URL in some of its own messages).
 */
export function withLogRedaction (
  logger: FastifyServerOptions['logger']
): FastifyServerOptions['logger'] {
  if (!logger) return logger
  const options = (logger === true ? {} : logger) as Exclude<
    FastifyServerOptions['logger'],
    boolean | undefined
  > & {
    hooks?: { logMethod?: LogMethod }
  }
  const own = options.hooks?.logMethod
  const ownErr = options.serializers?.err as ((error: unknown) => unknown) | undefined
  const logMethod: LogMethod = function (args, method, level) {
    const redacted = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg))
    if (own) own.call(this, redacted, method, level)
    else method.apply(this, redacted)
  }
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: serializeRequest as never,
      err: ((error: unknown) => serializeError(error, ownErr)) as never
    },
    hooks: { ...options.hooks, logMethod }
  } as FastifyServerOptions['logger']
}
