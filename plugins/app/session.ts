import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { LiveSessionCheck } from '#src/repositories/live-sessions.js'
import { unauthorized } from '#src/errors.js'
import type { RoleType } from '#schemas/common.js'
import { ACCESS_TOKEN_SECONDS } from '#src/repositories/sessions.js'

export interface AuthUser {
  id: number
  sessionId: number
  role: RoleType
  username: string
  /** Until the user changes their password only a few routes answer (access-control). */
  passwordChangeRequired: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    signAccessToken(userId: number, sessionId: number): { token: string; expiresAt: Date }
    setSessionCookies(request: FastifyRequest, reply: FastifyReply, tokens: SessionTokens): void
    clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void
    readSessionCookie(request: FastifyRequest, kind: 'access' | 'refresh'): string | undefined
    /**
     * The per-request session check, for connections that outlive their request (SSE streams):
     * false also while the user must change their password.
     */
    isSessionLive(userId: number, sessionId: number): boolean
    /** The request's user from its access cookie and a live session, or a 401 ApiError. */
    authenticate(request: FastifyRequest): AuthUser
    /**
     * The user id of a validly signed access token, expired or not, session live or not (who a
     * request is from, for fair turns between clients: src/http/http-server.ts), or null.
     */
    memberOfToken(token: string): number | null
  }
}
declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; sid: number; iat?: number; exp?: number }
    user: AuthUser
  }
}

export interface SessionTokens {
  access: { token: string; expiresAt: Date }
  refresh?: { token: string; expiresAt: Date }
}

export interface SessionPluginOptions {
  cookieSecure: 'auto' | 'always' | 'never'
}

type AccessTokenPayload = { sub: string; sid: number; exp?: number }
const VERIFIED_TOKENS = 1000

/**
 * Sessions: the access and refresh cookies, access tokens (JWT) and the live-session check that
 * every authenticated request makes. Who may do what is decided by the access-control plugin.
 */
export default fp<SessionPluginOptions>(
  async (app, options) => {
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
      const now = app.clock().getTime()
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
          Math.max(0, Math.floor((until.getTime() - app.clock().getTime()) / 1000))
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

    // The session must be live and the user active; the role is read from the database, so
    // logout, deactivation and role changes take effect on the very next request. One check per
    // database revision (src/repositories/live-sessions.ts); the revision read for it is the
    // response cache's too. Raw better-sqlite3: Drizzle's result mapping cost more than the
    // indexed lookup itself (measured with npm run bench).
    const liveSessions = new LiveSessionCheck(app.sqlite)
    const lookupSession = (userId: number, sessionId: number, revision = app.dbRevision()) =>
      liveSessions.check(revision, userId, sessionId, app.clock())
    // A user held to a password change reads nothing but /me: their open streams end too.
    app.decorate('isSessionLive', (userId: number, sessionId: number) => {
      const session = lookupSession(userId, sessionId)
      return session !== null && !session.passwordChangeRequired
    })

    // A token that verified once verifies again (the secret lives as long as the process): phones
    // poll every second with the same access token, and an HMAC plus JSON parse per poll is
    // measurable. Expiry is still checked on every request; only valid tokens are remembered, at
    // most VERIFIED_TOKENS.
    const verifiedTokens = new LRUCache<string, AccessTokenPayload>({ max: VERIFIED_TOKENS })
    const verifyToken = (token: string): AccessTokenPayload => {
      const known = verifiedTokens.get(token)
      if (known) return known
      const payload = app.jwt.verify<AccessTokenPayload>(token)
      verifiedTokens.set(token, payload)
      return payload
    }

    // Access tokens carry no expiry check of the JWT library (see plugins/external/jwt.ts): it is
    // checked here against the app clock, the one time source of tokens and sessions alike.
    function authenticate (request: FastifyRequest): AuthUser {
      const token = app.readSessionCookie(request, 'access')
      if (!token) throw unauthorized()
      let payload: AccessTokenPayload
      try {
        payload = verifyToken(token)
      } catch {
        throw unauthorized('session expired or invalid', 'SESSION_INVALID')
      }
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= app.clock().getTime()) {
        throw unauthorized('session expired or invalid', 'SESSION_INVALID')
      }
      const revision = app.dbRevision()
      const row = lookupSession(Number(payload.sub), payload.sid, revision)
      if (!row) throw unauthorized('session ended', 'SESSION_INVALID')
      request.dbRevision = revision
      return {
        id: row.id,
        role: row.role,
        username: row.username,
        sessionId: payload.sid,
        passwordChangeRequired: row.passwordChangeRequired === 1
      }
    }

    app.decorate('authenticate', authenticate)
    app.decorate('memberOfToken', (token: string) => {
      try {
        return Number(verifyToken(token).sub)
      } catch {
        return null
      }
    })
  },
  {
    name: 'session',
    fastify: '5.x',
    dependencies: ['db', 'clock', 'errors', 'cookie', 'jwt']
  }
)
