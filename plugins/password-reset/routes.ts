import { forgetInitialAdminPassword } from '#src/bootstrap.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import {
  ResetLink,
  ResetLinkInfo,
  ResetPasswordBody,
  ResetTokenBody
} from '#schemas/password-reset.js'
import { weakPassword } from '#src/errors.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import { hashPassword, passwordWeakness } from '#src/auth/password.js'
import type { LinkMail } from './link-mail.js'
import {
  ADMIN_RESET_LINK_HOURS,
  createResetLink,
  redeemResetLink,
  resetLinkUser
} from '#src/repositories/password-resets.js'

export { MAIL_ANSWER_WAIT_MS } from './link-mail.js'

export interface PasswordResetOptions {
  links: LinkMail
  /** ADMIN_RESET_LINK_HOURS */
  adminLinkHours: number
  /** DATA_DIR: the kept first admin password goes when that admin sets a new one by link. */
  dataDir?: string
}

const Invalid = { ...ErrorResponse, description: 'Unknown, used or expired link; or invalid input' }

/**
 * Password reset links: an admin creates one for a member (and it is mailed when SMTP is
 * configured); the member sets a new password with it, which ends all their sessions.
 */
const passwordResetRoutes: FastifyPluginAsyncTypebox<PasswordResetOptions> = async (
  app,
  options
) => {
  const { links, adminLinkHours } = options

  app.post(
    '/users/:id/reset-link',
    {
      config: { access: 'admin', rateLimit: perMinute(10) },
      schema: {
        tags: ['users'],
        summary: 'Create a one-time password reset link for a member (admin)',
        description:
          'The link works once, for ADMIN_RESET_LINK_HOURS (default ' +
          `${ADMIN_RESET_LINK_HOURS}) hours; only its hash is stored and ` +
          'an earlier unused link of the member stops working. Inactive users: 409 ' +
          'USER_INACTIVE. At most 5 links per member and hour (429). With SMTP_URL the link ' +
          'is also mailed to the member (see `mail`).',
        params: IdParams,
        response: { 201: ResetLink, 404: ErrorResponse, 409: ErrorResponse }
      }
    },
    async (request, reply) => {
      const now = app.clock()
      const { token, expiresAt, user } = createResetLink(
        app.db,
        request.params.id,
        request.user.id,
        now,
        adminLinkHours * 60
      )
      const url = links.url(request, token)
      const mail = await links.send(app, request, { user, url, kind: 'reset', expiresAt })
      return reply
        .status(201)
        .send({ userId: user.id, url, expiresAt: expiresAt.toISOString(), mail })
    }
  )

  app.post(
    '/password-reset/verify',
    {
      config: { access: 'public', rateLimit: perMinute(10) },
      schema: {
        tags: ['sessions'],
        summary: 'Check a reset link before asking for the new password: whose it is, until when',
        body: ResetTokenBody,
        response: { 200: ResetLinkInfo, 400: Invalid }
      }
    },
    async (request) => {
      const { user, expiresAt, kind } = resetLinkUser(app.db, request.body.token, app.clock())
      return { username: user.username, displayName: user.displayName, expiresAt, kind }
    }
  )

  app.post(
    '/password-reset',
    {
      config: { access: 'public', rateLimit: perMinute(5) },
      schema: {
        tags: ['sessions'],
        summary: 'Set a new password with a reset or invite link; ends all sessions of the member',
        description:
          'The new password follows the policy (400 WEAK_PASSWORD). An unknown, used or ' +
          'expired link, or one of a user deactivated meanwhile, is 400 RESET_TOKEN_INVALID. ' +
          'Log in afterwards with POST /login.',
        body: ResetPasswordBody,
        response: { 204: NoContent, 400: Invalid }
      }
    },
    async (request, reply) => {
      const { token, newPassword } = request.body
      const { user } = resetLinkUser(app.db, token, app.clock())
      const weakness = passwordWeakness(newPassword, user.username)
      if (weakness) throw weakPassword(weakness)
      const passwordHash = await app.passwordWork(request, () => hashPassword(newPassword))
      const changed = redeemResetLink(app.db, token, passwordHash, app.clock())
      if (options.dataDir) forgetInitialAdminPassword(options.dataDir, changed.username)
      return reply.status(204).send(null)
    }
  )
}
export default passwordResetRoutes
