import { createRequire } from 'node:module'
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions }
  from 'fastify'
import type PinoPretty from 'pino-pretty'
import type { Config } from '#src/config.js'
import { serializeRequest } from './log-redaction.js'

/**
 * The log as people read it (LOG_FORMAT, docs/operations.md → Logs): `pretty` is pino-pretty's one
 * line per event (the default on a terminal), `json` pino's own lines for a collector (the default
 * otherwise: journald, a container runtime). pino-pretty runs in the process (sync), not in a
 * worker thread: no extra thread and its ~10 MB on a small server, and nothing lost at exit.
 */
export function serverLogger (config: Config): FastifyServerOptions['logger'] {
  if (config.logFormat === 'json') return { level: config.logLevel }
  // Loaded only for this format: a server logging JSON (a container, journald) never holds
  // pino-pretty and its dependencies in memory.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty
  return {
    level: config.logLevel,
    stream: pretty({
      sync: true,
      colorize: Boolean(process.stdout.isTTY),
      translateTime: 'SYS:yyyy-mm-dd HH:MM:ss',
      // The request line says it all; the fields stay in the JSON format.
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true
    })
  }
}

/** Paths whose requests are not logged: /health is polled every few seconds by monitors. */
const QUIET_PATHS = new Set(['/health'])

/**
 * One line per request, when it is answered, instead of Fastify's two ("incoming request",
 * "request completed"): `GET /songs 200 3 ms`, with method, URL (tokens redacted,
 * src/http/log-redaction.ts), status and time as fields too. A request that errored is logged at
 * error level with the error.
 */
export class RequestLog extends LogController {
  constructor () {
    super({ disableRequestLogging: (request) => QUIET_PATHS.has(request.url.split('?', 1)[0]!) })
  }

  override incomingRequest (): void {}

  override requestCompleted (
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply
  ): void {
    if (this.isLogDisabled(request)) return
    const req = serializeRequest(request)
    const ms = Math.round(reply.elapsedTime * 10) / 10
    const status = reply.statusCode
    const line = `${req.method} ${req.url} ${status} ${ms} ms`
    const fields = { req, res: { statusCode: status }, responseTime: ms }
    if (error) reply.log.error({ ...fields, err: error }, line)
    else reply.log.info(fields, line)
  }
}
