import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorResponse, IdParams, NoContent } from '#schemas/common.js'
import {
  ResetLink,
  ResetLinkInfo,
  type ResetLinkMail,
  ResetPasswordBody,
  ResetTokenBody
} from '#schemas/password-reset.js'
import { badRequest } from '#src/errors.js'
import { perMinute } from '#plugins/external/rate-limit.js'
import { hashPassword, passwordProblem } from '#src/services/password.js'
import { createMailer } from '#src/services/mailer.js'
import {
  createResetLink,
  redeemResetLink,
  RESET_LINK_MINUTES,
  resetLinkUser,
  resetUrl
} from '#src/repositories/password-resets.js'
import { findUserById } from '#src/repositories/users.js'

export interface PasswordResetOptions {
  publicUrl?: string
  smtpUrl?: string
  smtpFrom: string
}

/** How long the admin's request waits for the mail's outcome before answering `sending`. */
export const MAIL_ANSWER_WAIT_MS = 3000

const Invalid = { ...ErrorResponse, description: 'Unknown, used or expired link; or invalid input' }

/**
 * Password reset links: an admin creates one for a member (and it is mailed when SMTP is
 * configured); the member sets a new password with it, which ends all their sessions.
 */
const passwordResetRoutes: FastifyPluginAsyncTypebox<PasswordResetOptions> = async (
  app,
  options
) => {
  const mailer = options.smtpUrl ? createMailer(options.smtpUrl, options.smtpFrom) : null
  app.addHook('onClose', async () => mailer?.close())

  app.post(
    '/users/:id/reset-link',
    {
      config: { access: 'admin', rateLimit: perMinute(10) },
      schema: {
        tags: ['users'],
        summary: 'Create a one-time password reset link for a member (admin)',
        description:
          `The link works once, for ${RESET_LINK_MINUTES} minutes; only its hash is stored and ` +
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
        now
      )
      // Without PUBLIC_URL (then there is no SMTP_URL either, src/config.ts) the link is only shown
      // to the admin, who sees the address the request came to.
      const url = resetUrl(options.publicUrl ?? `${request.protocol}://${request.host}`, token)
      let mail: ResetLinkMail = 'not-configured'
      if (mailer && !user.email) mail = 'no-email'
      else if (mailer && user.email) {
        const settings = app.appSettings.get()
        const admin = findUserById(app.db, request.user.id)?.displayName ?? 'Ein Admin'
        // Sent in the background: the answer waits a moment for the outcome, never for a slow
        // server; a later outcome is logged.
        let answered = false
        const sending = mailer
          .send({
            to: user.email,
            subject: `${settings.appName}: neues Passwort setzen`,
            text:
              `Hallo ${user.displayName},\n\n${admin} hat dir einen Link geschickt, mit dem du ` +
              `ein neues Passwort für ${settings.appName} (${settings.bandName}) setzt:\n\n` +
              `${url}\n\nDer Link gilt ${RESET_LINK_MINUTES} Minuten und nur einmal. Danach ` +
              'bist du auf allen Geräten abgemeldet und meldest dich mit dem neuen Passwort an.\n'
          })
          .then(
            () => {
              if (answered) request.log.info('reset link mail sent')
              return 'sent' as const
            },
            (error: unknown) => {
              request.log.warn({ err: error }, 'reset link mail not sent')
              return 'failed' as const
            }
          )
        let timer: NodeJS.Timeout | undefined
        mail = await Promise.race([
          sending,
          new Promise<'sending'>((resolve) => {
            timer = setTimeout(() => resolve('sending'), MAIL_ANSWER_WAIT_MS)
          })
        ])
        clearTimeout(timer)
        answered = true
      }
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
      const { user, expiresAt } = resetLinkUser(app.db, request.body.token, app.clock())
      return { username: user.username, displayName: user.displayName, expiresAt }
    }
  )

  app.post(
    '/password-reset',
    {
      config: { access: 'public', rateLimit: perMinute(5) },
      schema: {
        tags: ['sessions'],
        summary: 'Set a new password with a reset link; ends all sessions of the member',
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
      const problem = passwordProblem(newPassword, user.username)
      if (problem) throw badRequest('WEAK_PASSWORD', problem)
      const passwordHash = await app.passwordWork(request, () => hashPassword(newPassword))
      redeemResetLink(app.db, token, passwordHash, app.clock())
      return reply.status(204).send(null)
    }
  )
}
export default passwordResetRoutes
