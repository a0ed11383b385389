import type { Duplex } from 'node:stream'
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { ERROR_CODES } from '#src/error-codes.js'
import { errorBody } from '#src/errors.js'
import { SECURITY_HEADERS } from './security-headers.js'
import { addressKey } from './address-key.js'
import { FairScheduler, type Client, type RequestHandler } from './fair-scheduler.js'
import { nodeHttp } from './node-http.js'

const { STATUS_CODES, createServer } = nodeHttp

/**
 * Fair turns between clients when requests arrive faster than they are answered (see
 * docs/operations.md): after 10 ms of answering in one turn of the event loop, requests wait in a
 * queue per client and are answered round-robin. A member's phone loads at most six things at once
 * (a browser's connections per server); an address may be a whole band behind a venue's router
 * before they log in. Beyond these, or 1,024 waiting in all: 503 SERVER_BUSY, in turns too; beyond
 * 4,096 refusals waiting, the connection is dropped. At most 4 fresh clients in a row go before
 * the round (200 addresses sending one request at a time are always fresh).
 */
export const REQUEST_TURNS = {
  budgetMs: 10,
  maxWaiting: 1024,
  maxWaitingPerMember: 64,
  maxWaitingPerAddress: 256,
  maxRefusing: 4096,
  maxFreshAhead: 4,
  retryAfterSeconds: 1
} as const

const BUSY_BODY = JSON.stringify(
  errorBody(
    'SERVER_BUSY',
    'the server has more requests waiting than it takes; retry in ' +
      `${REQUEST_TURNS.retryAfterSeconds} s`
  )
)

/**
 * The refusal of a request that would wait beyond the limits, answered without Fastify (nothing of
 * the request was read or done). The connection closes: its body, if any, is not read.
 */
export function refuseBusy (_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(ERROR_CODES.SERVER_BUSY.status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(BUSY_BODY),
    'retry-after': String(REQUEST_TURNS.retryAfterSeconds),
    'cache-control': 'no-store',
    connection: 'close'
  })
  response.end(BUSY_BODY)
}

/**
 * Node's answer to a request it cannot parse (400), with too large headers (431) or that timed out
 * (408): Fastify's `clientErrorHandler`, in the API's error shape and with the security headers
 * every other answer carries.
 */
export function clientErrorHandler (
  this: { log: { trace(object: object, message: string): void } },
  error: Error & { code?: string },
  socket: Duplex
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  // As Fastify's own handler: at trace level (the raw packet is redacted:
  // src/http/log-redaction.ts).
  this.log.trace({ err: error }, 'client error')
  const status = error.code === 'HPE_HEADER_OVERFLOW'
    ? 431
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const message = status === 431
    ? 'the request headers are too large'
    : status === 408 ? 'the request took too long' : 'the request is not valid HTTP'
  const body = JSON.stringify(errorBody('BAD_REQUEST', message, status))
  if (socket.writable) {
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      connection: 'close'
    }
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
        `\r\n${body}`
    )
  }
  socket.destroy(error)
}

/** The Fastify options the Node server takes (what Fastify would set on a server of its own). */
export interface HttpServerOptions {
  http?: ServerOptions | null
  keepAliveTimeout?: number
  requestTimeout?: number
  connectionTimeout?: number
}

/**
 * The Node HTTP server for Fastify's `serverFactory`: configured as Fastify configures its own,
 * with the fair scheduler in front of Fastify's request handler.
 */
export function createHttpServer (
  handler: RequestHandler,
  options: HttpServerOptions
): { server: Server; scheduler: FairScheduler } {
  const scheduler = new FairScheduler(handler, clientIdentifier(false, () => null), {
    budgetMs: REQUEST_TURNS.budgetMs,
    maxWaiting: REQUEST_TURNS.maxWaiting,
    maxRefusing: REQUEST_TURNS.maxRefusing,
    maxFreshAhead: REQUEST_TURNS.maxFreshAhead,
    refuse: refuseBusy
  })
  const server = createServer(options.http ?? {}, scheduler.admit)
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout)
  server.on('request', cutOnlyAClientsSilence)
  return { server, scheduler }
}

/**
 * The idle timeout (`connectionTimeout`) cuts a client that sends nothing or reads nothing. Once a
 * request is read in full and until its answer starts, the silence is the server's own (a render
 * waits for a worker and runs for up to two minutes, bounded by the documents queue and the pool):
 * cutting the socket then left the client an empty reply for work the server went on doing.
 */
function cutOnlyAClientsSilence (request: IncomingMessage, response: ServerResponse): void {
  // A listener here stands in for Node's own reaction to the timeout (destroying the socket).
  response.on('timeout', (socket: Duplex) => {
    if (!request.complete || response.headersSent) socket.destroy()
  })
}

const ACCESS_COOKIE = /(?:^|;\s*)(?:__Host-)?access_token=([^;\s]+)/

type Trust = boolean | string[] | ((address: string, hop: number) => boolean)

/**
 * Who a request comes from, for the scheduler: the member of a validly signed access token (an
 * expired one too: only the signature matters here, not whether the session is live), else the
 * client's address as the rate limits see it (TRUST_PROXY honoured). Nobody can make up members,
 * so a flood of forged cookies shares its address's queue.
 */
export function clientIdentifier (
  trust: Trust,
  memberOfToken: (token: string) => number | null
): (request: IncomingMessage) => Client {
  const trusted = trustFunction(trust)
  return (request) => {
    const token = ACCESS_COOKIE.exec(request.headers.cookie ?? '')?.[1]
    const member = token ? memberOfToken(token) : null
    if (member !== null) {
      return {
        id: `member:${member}`,
        maxWaiting: REQUEST_TURNS.maxWaitingPerMember,
        member: true
      }
    }
    const address = trusted ? proxyAddr(request, trusted) : request.socket.remoteAddress
    return {
      id: `address:${addressKey(address)}`,
      maxWaiting: REQUEST_TURNS.maxWaitingPerAddress
    }
  }
}

function trustFunction (trust: Trust): ((address: string, hop: number) => boolean) | null {
  if (trust === false) return null
  if (trust === true) return () => true
  return typeof trust === 'function' ? trust : proxyAddr.compile(trust)
}
