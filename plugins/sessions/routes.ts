import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LoginBody, SessionResponse } from '#schemas/sessions.js'
import { ErrorResponse, NoContent } from '#schemas/common.js'
import { unauthorized } from '#src/errors.js'
import { reportStorageFailure } from '#src/storage/storage-health.js'
import {
  dummyPasswordHash,
  hashPassword,
  isForeignHash,
  passwordProblem,
  verifyPassword
} from '#src/auth/password.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import {
  findUserById,
  findUserByUsername,
  replaceForeignHash,
  toUser
} from '#src/repositories/users.js'
import {
  createSession,
  deleteDeadSessions,
  findSessionByRefresh,
  revokeSession,
  rotateRefreshToken
} from '#src/repositories/sessions.js'

const invalidCredentials = () => unauthorized('invalid username or password', 'INVALID_CREDENTIALS')

/** POST /login, /refresh, /logout (docs/api.md → Sessions and users). */
const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // At start and once a day: ended sessions (and their refresh history) do not pile up.
  let pruning: NodeJS.Timeout | undefined
  // A full or failing disk must neither stop the start nor end the process from a timer: logged,
  // and reported by /health.
  const prune = () => {
    try {
      deleteDeadSessions(app.db, app.clock())
    } catch (error) {
      const message = 'pruning ended sessions failed: the change could not be stored'
      if (!reportStorageFailure(app.log, app.storageHealth, error, message)) throw error
    }
  }
  app.addHook('onReady', async () => {
    prune()
    pruning = setInterval(prune, 24 * 3600_000).unref()
  })
  app.addHook('onClose', async () => clearInterval(pruning))

  app.post(
    '/login',
    {
      config: { access: 'public', rateLimit: perMinute(10) },
      schema: {
        tags: ['sessions'],
        summary: 'Log in; sets the access_token and refresh_token httpOnly cookies',
        description:
          'A password imported from libreStage (bcrypt) is checked once and replaced by ' +
          "Bandstand's own hash; if it is below the policy, `user.passwordChangeRequired` is " +
          'true and every route but GET /me, PUT /change_password, /refresh and /logout ' +
          'answers 403 PASSWORD_CHANGE_REQUIRED until it is changed.',
        body: LoginBody,
        response: {
          200: SessionResponse,
          401: {
            ...ErrorResponse,
            description: 'Wrong username or password (the same answer for both)'
          }
        }
      }
    },
    async (request, reply) => {
      const { username, password } = request.body
      const user = findUserByUsername(app.db, username)
      // Unknown user and wrong password cost the same hash and give the same answer.
      const valid = await app.passwordWork(request, async () =>
        verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()))
      )
      if (!user || !valid || user.status !== 'active') {
        // The address first, the name (the client's text, JSON-quoted) after: a fail2ban filter
        // (docs/security.md) matches the address, which a crafted name cannot stand in for.
        request.log.warn({ clientIp: request.ip, username },
          `login failed from ${request.ip} for user ${JSON.stringify(username)}`)
        throw invalidCredentials()
      }
      const now = app.clock()
      let passwordChangeRequired = user.passwordChangeRequired
      if (isForeignHash(user.passwordHash)) {
        // Verify and rehash: the imported hash is replaced by ours now, while we know the
        // password; one below our policy must be changed before the member goes on.
        passwordChangeRequired ||= passwordProblem(password, user.username) !== null
        const replaced = replaceForeignHash(
          app.db,
          user.id,
          user.passwordHash,
          {
            passwordHash: await app.passwordWork(request, () => hashPassword(password)),
            passwordChangeRequired
          },
          now
        )
        // The password was changed meanwhile (reset link, admin): the old one no longer counts.
        if (!replaced) throw invalidCredentials()
      }
      const { session, refresh } = createSession(app.db, user.id, now, {
        userAgent: request.headers['user-agent'],
        ip: request.ip
      })
      const access = app.signAccessToken(user.id, session.id)
      app.setSessionCookies(request, reply, { access, refresh })
      return {
        user: toUser({ ...user, passwordChangeRequired }, true),
        accessExpiresAt: access.expiresAt.toISOString()
      }
    }
  )

  app.post(
    '/refresh',
    {
      config: { access: 'public', rateLimit: perMinute(10) },
      schema: {
        tags: ['sessions'],
        summary: 'Renew the session: rotates the refresh token and issues a new access token',
        description:
          'Reads the refresh_token cookie. A rotated token presented again after ' +
          'a 10 s grace window revokes the session.',
        response: {
          200: SessionResponse,
          401: { ...ErrorResponse, description: 'No, expired, revoked or reused refresh token' }
        }
      }
    },
    async (request, reply) => {
      const presented = app.readSessionCookie(request, 'refresh')
      if (!presented) throw unauthorized('no refresh token', 'SESSION_INVALID')
      const outcome = rotateRefreshToken(app.db, presented, app.clock())
      if (outcome.kind === 'invalid' || outcome.kind === 'reused') {
        app.clearSessionCookies(request, reply)
        if (outcome.kind === 'reused') {
          request.log.warn('refresh token reused after rotation: session revoked')
        }
        throw unauthorized(
          outcome.kind === 'reused' ? 'refresh token reused; session ended' : 'session ended',
          'SESSION_INVALID'
        )
      }
      const user = findUserById(app.db, outcome.session.userId)
      if (!user || user.status !== 'active') {
        app.clearSessionCookies(request, reply)
        throw unauthorized('session ended', 'SESSION_INVALID')
      }
      const access = app.signAccessToken(user.id, outcome.session.id)
      app.setSessionCookies(request, reply, {
        access,
        refresh: outcome.kind === 'rotated' ? outcome.refresh : undefined
      })
      return { user: toUser(user, true), accessExpiresAt: access.expiresAt.toISOString() }
    }
  )

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sessions'],
        summary: 'Log out: revokes the session and clears the cookies (idempotent)',
        response: { 204: NoContent }
      }
    },
    async (request, reply) => {
      // Works with either cookie, so an expired access token still ends the session.
      const now = app.clock()
      const refresh = app.readSessionCookie(request, 'refresh')
      const session = refresh ? findSessionByRefresh(app.db, refresh) : undefined
      if (session) revokeSession(app.db, session.id, now)
      const access = app.readSessionCookie(request, 'access')
      if (access) {
        let sid: number | undefined
        try {
          // The verifier ignores expiry (auth.ts checks it against the clock): an expired token
          // still logs out.
          sid = app.jwt.verify<{ sid: number }>(access).sid
        } catch {
          // an invalid access token has no session to end
        }
        // Outside the try: a revocation that could not be stored is no logout (503).
        if (sid !== undefined) revokeSession(app.db, sid, now)
      }
      app.clearSessionCookies(request, reply)
      return reply.status(204).send(null)
    }
  )
}
export default sessionRoutes
