import { Type } from '@sinclair/typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import { ChangePasswordBody, SessionInfo } from '#schemas/sessions.js'
import { ProfileUpdate, User } from '#schemas/users.js'
import { ApiError, notFound, unauthorized, weakPassword } from '#src/errors.js'
import { hashPassword, passwordWeakness, verifyPassword } from '#src/auth/password.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import { listLiveSessions, revokeSession, revokeUserSessions } from '#src/repositories/sessions.js'
import { findUserById, toUser, updateUser } from '#src/repositories/users.js'
import { forgetInitialAdminPassword } from '#src/bootstrap.js'
import { endResetLinks } from '#src/repositories/password-resets.js'

/** The signed-in user: profile, own sessions, own password (docs/api.md → Sessions and users). */
export interface MeRoutesOptions {
  /** DATA_DIR: its initial-admin-password file goes at the first admin's password change. */
  dataDir?: string
}

const meRoutes: FastifyPluginAsyncTypebox<MeRoutesOptions> = async (app, options) => {
  // The session was checked live in onRequest; a user row can still vanish in between (deleted via
  // SQL).
  const currentUser = (id: number) => {
    const row = findUserById(app.db, id)
    if (!row) throw unauthorized('session ended', 'SESSION_INVALID')
    return row
  }

  app.get(
    '/me',
    {
      config: { access: 'member', duringPasswordChange: true },
      schema: {
        tags: ['sessions'],
        summary: 'The current user (with email and passwordChangeRequired)',
        response: { 200: User }
      }
    },
    async (request) => toUser(currentUser(request.user.id), true)
  )

  app.get(
    '/me/sessions',
    {
      config: { access: 'member' },
      schema: {
        tags: ['sessions'],
        summary: 'Own live sessions (devices), most recently used first; `current` marks this one',
        response: { 200: Type.Array(SessionInfo) }
      }
    },
    async (request) =>
      listLiveSessions(app.db, request.user.id, app.clock()).map((s) => ({
        id: s.id,
        current: s.id === request.user.sessionId,
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        expiresAt: s.expiresAt,
        userAgent: s.userAgent,
        ip: s.ip
      }))
  )

  app.delete(
    '/me/sessions/:id',
    {
      config: { access: 'member' },
      schema: {
        tags: ['sessions'],
        summary:
          'End one of your own sessions (log out a device); ending the current one ' +
          'also clears the cookies',
        description:
          'A session of another user answers 404 like an unknown id, so session ids ' +
          'reveal nothing.',
        params: IdParams,
        response: { 204: NoContent, 404: ErrorResponse }
      }
    },
    async (request, reply) => {
      const { id } = request.params
      if (!revokeSession(app.db, id, app.clock(), request.user.id)) throw notFound('session', id)
      if (id === request.user.sessionId) app.clearSessionCookies(request, reply)
      return reply.status(204).send(null)
    }
  )

  app.put(
    '/update_user',
    {
      config: { access: 'member', rateLimit: perMinute(10) },
      schema: {
        tags: ['sessions'],
        summary:
          'Edit your own profile (displayName, email, instruments, isSinger); anything ' +
          'else is a 400',
        body: ProfileUpdate,
        response: { 200: User }
      }
    },
    async (request) => {
      currentUser(request.user.id)
      const row = updateUser(app.db, request.user.id, request.body, app.clock())
      if (!row) throw unauthorized('session ended', 'SESSION_INVALID')
      return toUser(row, true)
    }
  )

  app.put(
    '/change_password',
    {
      config: { access: 'member', rateLimit: perMinute(5), duringPasswordChange: true },
      schema: {
        tags: ['sessions'],
        summary: 'Change your password; ends every other session of yours',
        description:
          'Wrong current password: 403 WRONG_PASSWORD. New password against the policy ' +
          '(15–256 characters, ' +
          'not containing the username, not a common password): 400 WEAK_PASSWORD with the ' +
          'reason. Clears `passwordChangeRequired`; while it is set, the new password must ' +
          'differ from the current one (400 WEAK_PASSWORD).',
        body: ChangePasswordBody,
        response: { 204: NoContent }
      }
    },
    async (request, reply) => {
      const user = currentUser(request.user.id)
      const { currentPassword, newPassword } = request.body
      const right = await app.passwordWork(request, () =>
        verifyPassword(currentPassword, user.passwordHash)
      )
      if (!right) {
        throw new ApiError('WRONG_PASSWORD', 'the current password is wrong')
      }
      const weakness = passwordWeakness(newPassword, user.username)
      if (weakness) throw weakPassword(weakness)
      // "Change your initial password" means a new one; compared as hashed (NFC), so another
      // spelling of the same characters is the same password.
      if (user.passwordChangeRequired &&
        newPassword.normalize('NFC') === currentPassword.normalize('NFC')) {
        throw weakPassword({
          reason: 'unchanged',
          message: 'the new password must differ from the current one'
        })
      }
      const passwordHash = await app.passwordWork(request, () => hashPassword(newPassword))
      const now = app.clock()
      app.db.transaction(() => {
        updateUser(app.db, user.id, { passwordHash, passwordChangeRequired: false }, now)
        revokeUserSessions(app.db, user.id, now, request.user.sessionId)
        endResetLinks(app.db, user.id, now)
      })
      if (options.dataDir) forgetInitialAdminPassword(options.dataDir, user.username)
      return reply.status(204).send(null)
    }
  )
}
export default meRoutes
