import fp from 'fastify-plugin'
import fastifyCookie from '@fastify/cookie'
import fastifyJwt from '@fastify/jwt'
import { getTableName } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { sessions, users } from '#src/db/schema.js'
import { REVISION_COLUMNS } from './db.js'
import { forbidden, unauthorized } from '#src/errors.js'
import { ErrorResponse, type RoleType } from '#schemas/common.js'
import type { Clock } from '#src/clock.js'
import { ACCESS_TOKEN_SECONDS } from '#src/repositories/sessions.js'

/**
 * Who may call a route. Every route declares one in `config.access`; the default is to refuse to
 * start.
 */
export type Access = 'public' | 'member' | 'editor' | 'admin'

export interface AuthUser {
  id: number
  sessionId: number
  role: RoleType
  username: string
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
  }
  interface FastifyInstance {
    clock: Clock
    /** Every route with its declared access level: the authorization matrix test walks it. */
    routeTable: RouteAccess[]
    hasRole(user: AuthUser, needed: RoleType): boolean
    signAccessToken(userId: number, sessionId: number): { token: string; expiresAt: Date }
    setSessionCookies(request: FastifyRequest, reply: FastifyReply, tokens: SessionTokens): void
    clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void
    readSessionCookie(request: FastifyRequest, kind: 'access' | 'refresh'): string | undefined
    /** The per-request session check, for connections that outlive their request (SSE streams). */
    isSessionLive(userId: number, sessionId: number): boolean
  }
}
declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; sid: number; iat?: number; exp?: number }
    user: AuthUser
  }
}

export interface RouteAccess {
  method: string
  url: string
  access: Access
}

export interface SessionTokens {
  access: { token: string; expiresAt: Date }
  refresh?: { token: string; expiresAt: Date }
}

export interface AuthPluginOptions {
  jwtSecret: string
  cookieSecure: 'auto' | 'always' | 'never'
  clock: Clock
}

/**
 * Parameters: session id, user id, now (ISO). The bench runs the same statement for its floor
 * figure.
 */
export const LIVE_SESSION_SQL = `SELECT u.id, u.role, u.username, ${REVISION_COLUMNS}
  FROM ${getTableName(sessions)} s JOIN ${getTableName(users)} u ON u.id = s.user_id
  WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ?
    AND u.status = 'active'`
interface LiveSessionRow {
  id: number
  role: RoleType
  username: string
  changes: number
  external: number
}

type AccessTokenPayload = { sub: string; sid: number; exp?: number }
const VERIFIED_TOKENS = 1000

const rank: Record<RoleType, number> = { member: 1, editor: 2, admin: 3 }

export default fp<AuthPluginOptions>(
  async (app, options) => {
    await app.register(fastifyCookie)
    // Expiry is checked against the app clock in authenticate(), not by the JWT library against the
    // wall clock, so that one time source governs access tokens and sessions alike (tests move it).
    await app.register(fastifyJwt, {
      secret: options.jwtSecret,
      sign: { algorithm: 'HS256' },
      verify: { algorithms: ['HS256'], ignoreExpiration: true }
    })
    app.decorate('clock', options.clock)
    app.decorate('hasRole', (user: AuthUser, needed: RoleType) => rank[user.role] >= rank[needed])

    const isSecure = (request: FastifyRequest) =>
      options.cookieSecure === 'always' ||
      (options.cookieSecure === 'auto' && request.protocol === 'https')
    // Over HTTPS the __Host- prefix pins the cookie to this exact host; plain http cannot carry it.
    const cookieName = (request: FastifyRequest, kind: 'access' | 'refresh') =>
      `${isSecure(request) ? '__Host-' : ''}${kind}_token`

    app.decorate(
      'readSessionCookie',
      (request: FastifyRequest, kind: 'access' | 'refresh') =>
        request.cookies[cookieName(request, kind)]
    )
    app.decorate('signAccessToken', (userId: number, sessionId: number) => {
      const now = options.clock().getTime()
      const exp = Math.floor(now / 1000) + ACCESS_TOKEN_SECONDS
      const token = app.jwt.sign({
        sub: String(userId),
        sid: sessionId,
        iat: Math.floor(now / 1000),
        exp
      })
      return { token, expiresAt: new Date(exp * 1000) }
    })
    app.decorate(
      'setSessionCookies',
      (request: FastifyRequest, reply: FastifyReply, tokens: SessionTokens) => {
        const base = {
          httpOnly: true,
          path: '/',
          sameSite: 'lax' as const,
          secure: isSecure(request)
        }
        const maxAge = (until: Date) =>
          Math.max(0, Math.floor((until.getTime() - options.clock().getTime()) / 1000))
        reply.setCookie(cookieName(request, 'access'), tokens.access.token, {
          ...base,
          maxAge: maxAge(tokens.access.expiresAt)
        })
        if (tokens.refresh) {
          reply.setCookie(cookieName(request, 'refresh'), tokens.refresh.token, {
            ...base,
            maxAge: maxAge(tokens.refresh.expiresAt)
          })
        }
      }
    )
    app.decorate('clearSessionCookies', (request: FastifyRequest, reply: FastifyReply) => {
      const base = {
        httpOnly: true,
        path: '/',
        sameSite: 'lax' as const,
        secure: isSecure(request)
      }
      reply.clearCookie(cookieName(request, 'access'), base)
      reply.clearCookie(cookieName(request, 'refresh'), base)
    })

    // One indexed lookup per request: the session must be live and the user active; the role is
    // read here, so logout, deactivation and role changes take effect on the very next request. The
    // same statement reads the database revision for the response cache: one statement per cached
    // read. Raw better-sqlite3 on this one statement: it runs on every authenticated request, and
    // Drizzle's result mapping cost more than the indexed lookup itself (measured with npm run
    // bench).
    const liveSession = app.sqlite.prepare<[number, number, string], LiveSessionRow>(
      LIVE_SESSION_SQL
    )

    const lookupSession = (userId: number, sessionId: number) =>
      liveSession.get(sessionId, userId, options.clock().toISOString())
    app.decorate(
      'isSessionLive',
      (userId: number, sessionId: number) => lookupSession(userId, sessionId) !== undefined
    )

    // A token that verified once verifies again (the secret lives as long as the process): phones
    // poll every second with the same access token, and an HMAC plus JSON parse per poll is
    // measurable. Expiry is still checked on every request; only valid tokens are remembered, at
    // most VERIFIED_TOKENS.
    const verifiedTokens = new Map<string, AccessTokenPayload>()
    const verifyToken = (token: string): AccessTokenPayload => {
      const known = verifiedTokens.get(token)
      if (known) return known
      const payload = app.jwt.verify<AccessTokenPayload>(token)
      if (verifiedTokens.size >= VERIFIED_TOKENS) {
        verifiedTokens.delete(verifiedTokens.keys().next().value!)
      }
      verifiedTokens.set(token, payload)
      return payload
    }

    function authenticate (request: FastifyRequest): AuthUser {
      const token = app.readSessionCookie(request, 'access')
      if (!token) throw unauthorized()
      let payload: AccessTokenPayload
      try {
        payload = verifyToken(token)
      } catch {
        throw unauthorized('session expired or invalid', 'SESSION_INVALID')
      }
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= options.clock().getTime()) {
        throw unauthorized('session expired or invalid', 'SESSION_INVALID')
      }
      const row = lookupSession(Number(payload.sub), payload.sid)
      if (!row) throw unauthorized('session ended', 'SESSION_INVALID')
      request.dbRevision = app.dbRevisionOf(row.changes, row.external)
      return { id: row.id, role: row.role, username: row.username, sessionId: payload.sid }
    }

    const routeTable: RouteAccess[] = []
    app.decorate('routeTable', routeTable)
    app.addHook('onRoute', (route) => {
      const access = declareAccess(route)
      if (access) {
        for (const method of [route.method].flat()) {
          routeTable.push({ method, url: route.url, access })
        }
      }
    })
    // A callback hook, not an async one: it runs on every request and has nothing to wait for.
    app.addHook('onRequest', (request, _reply, done) => {
      const access = request.routeOptions.config.access ?? 'public'
      if (access === 'public') return done()
      try {
        request.user = authenticate(request)
      } catch (error) {
        return done(error as Error)
      }
      if (!app.hasRole(request.user, access === 'member' ? 'member' : access)) {
        return done(forbidden(`${access} role required`))
      }
      done()
    })
  },
  { name: 'auth', dependencies: ['db', 'errors'] }
)

/**
 * Checks every route's access level at start (a forgotten one stops the server) and writes the
 * consequences into its schema: the cookie security requirement and the 401/403/400/413/429/500
 * answers.
 */
function declareAccess (route: RouteOptions): Access | undefined {
  const config = (route.config ?? {}) as { access?: Access; rateLimit?: unknown }
  const schema = (route.schema ?? {}) as Record<string, unknown> & {
    response?: Record<string, unknown>
  }
  if (!config.access) {
    // Swagger UI's own routes and the CORS preflight are hidden from the docs and public by nature.
    if (schema.hide === true || route.method === 'OPTIONS') return undefined
    throw new Error(`route ${String(route.method)} ${route.url} declares no config.access`)
  }
  const response: Record<string, unknown> = { ...schema.response }
  const add = (status: number, description: string) => {
    response[status] ??= { ...ErrorResponse, description }
  }
  const methods = [route.method].flat()
  const unsafe = methods.some((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m))
  if (schema.body || schema.params || schema.querystring) add(400, 'Invalid input')
  if (config.access !== 'public') add(401, 'No or invalid session')
  if (config.access === 'editor' || config.access === 'admin' || unsafe) {
    add(
      403,
      config.access === 'public' || config.access === 'member'
        ? 'Cross-site request refused'
        : `Requires the ${config.access} role (or a cross-site request)`
    )
  }
  if (schema.body) add(413, 'Body too large')
  if (config.rateLimit) add(429, 'Rate limit exceeded')
  add(500, 'Internal error')
  route.schema = {
    ...schema,
    response,
    ...(config.access === 'public' ? {} : { security: [{ cookieAuth: [] }] })
  }
  return config.access
}
