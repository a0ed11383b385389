import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ResetLinkMail } from '#schemas/password-reset.js'
import type { UserRow } from '#src/db/schema.js'
import type { LinkKind } from '#shared/enums.js'
import { createMailer } from './mailer.js'
import { resetUrl } from '#src/repositories/password-resets.js'
import { findUserById } from '#src/repositories/users.js'
import { documentLanguage } from '#src/documents/labels.js'
import { LINK_MAIL_LABELS } from './labels.js'

// The address of a one-time link and its mail, shared by reset links (POST /users/{id}/reset-link)
// and invitations (POST /users without a password): one mailer for both.

export interface LinkMailOptions {
  publicUrl?: string
  smtpUrl?: string
  smtpFrom: string
}

/** How long the admin's request waits for the mail's outcome before answering `sending`. */
export const MAIL_ANSWER_WAIT_MS = 3000

export interface LinkMail {
  url(request: FastifyRequest, token: string): string
  send(
    app: FastifyInstance,
    request: FastifyRequest & { user: { id: number } },
    link: { user: UserRow; url: string; kind: LinkKind; expiresAt: Date }
  ): Promise<ResetLinkMail>
  close(): void
}

export function createLinkMail (options: LinkMailOptions): LinkMail {
  const mailer = options.smtpUrl ? createMailer(options.smtpUrl, options.smtpFrom) : null
  return {
    // Without PUBLIC_URL (then there is no SMTP_URL either, src/config.ts) the link is only shown
    // to the admin, who sees the address the request came to.
    url: (request, token) =>
      resetUrl(options.publicUrl ?? `${request.protocol}://${request.host}`, token),
    close: () => mailer?.close(),
    async send (app, request, { user, url, kind, expiresAt }) {
      if (!mailer) return 'not-configured'
      if (!user.email) return 'no-email'
      const settings = app.appSettings.get()
      // The band's language, as its documents: German for `de-*`, else English.
      const words = LINK_MAIL_LABELS[documentLanguage(settings.locale)]
      const facts = {
        appName: settings.appName,
        bandName: settings.bandName,
        displayName: user.displayName,
        username: user.username,
        admin: findUserById(app.db, request.user.id)?.displayName ?? words.admin,
        url,
        life: words.life(expiresAt.getTime() - app.clock().getTime())
      }
      const message = { subject: words[kind].subject(facts), text: words[kind].text(facts) }
      // Sent in the background: the answer waits a moment for the outcome, never for a slow
      // server; a later outcome is logged.
      let answered = false
      const sending = mailer.send({ to: user.email, ...message }).then(
        () => {
          if (answered) request.log.info(`${kind} link mail sent`)
          return 'sent' as const
        },
        (error: unknown) => {
          request.log.warn({ err: error }, `${kind} link mail not sent`)
          return 'failed' as const
        }
      )
      let timer: NodeJS.Timeout | undefined
      const mail = await Promise.race([
        sending,
        new Promise<'sending'>((resolve) => {
          timer = setTimeout(() => resolve('sending'), MAIL_ANSWER_WAIT_MS)
        })
      ])
      clearTimeout(timer)
      answered = true
      return mail
    }
  }
}
