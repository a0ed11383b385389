import { stdSerializers } from 'pino'
import type { FastifyServerOptions, FastifyRequest } from 'fastify'

// Secrets that travel in URL paths (the personal calendar feed token) must never reach the log:
// whoever reads the log could subscribe to a member's calendar. The router decodes percent-escapes,
// and a mistyped URL (404) may still carry a real token, so a pattern on the raw URL is not enough:
// the matched route names the secret exactly, and everything else is judged on its decoded,
// slash-collapsed form.

const FEED_ROUTE = '/cal/ical/:token'
const REDACTED = '[redacted]'
/** The segment sequence cal/ical; whatever follows it may be a feed token. */
const FEED_SEGMENTS = /(?:^|[/\\])cal[/\\]+ical(?=[/\\?#;]|$)/i
/** Text can only spell the sequence if it has these letters or percent-escapes. */
const MAY_SPELL_FEED = /ical|%/i

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
 * Cuts everything after a cal/ical segment sequence (in any spelling); other text is returned
 * unchanged.
 */
function redactFeedPath (text: string): string {
  if (!MAY_SPELL_FEED.test(text)) return text
  const plain = decodeAll(text)
  const match = FEED_SEGMENTS.exec(plain)
  if (!match) return text
  const end = match.index + match[0].length
  if (plain.slice(end).replace(/^[/\\]+/, '') === '') return text
  return `${plain.slice(0, end).replace(/[/\\]+/g, '/')}/${REDACTED}`
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
 * The URL as it may be logged. With the feed route's token known (`secret`), the path is the route
 * with the token redacted and the token is removed from the query too; any URL is also cut after
 * cal/ical.
 */
export function redactUrl (url: string, secret?: string): string {
  if (!secret) return redactFeedPath(url)
  const queryStart = url.indexOf('?')
  const query = queryStart < 0 ? '' : redactFeedPath(redactSecret(url.slice(queryStart), secret))
  return `/cal/ical/${REDACTED}${query}`
}

/**
 * Every path-like word of free text (log messages, error messages and stacks) through
 * redactFeedPath.
 */
function redactText (text: string): string {
  return MAY_SPELL_FEED.test(text) ? text.replace(/[^\s'"`<>]+/g, redactFeedPath) : text
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
