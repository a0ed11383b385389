import { createRequire } from 'node:module'
import type Nodemailer from 'nodemailer'
import { isLoopbackHost, MAIL_TIMEOUTS } from '#plugins/password-reset/mailer.js'

// The members' mail goes through one pooled SMTP connection: a new gig mailed to a band of 20 is
// one connection and 20 transactions, not 20 handshakes (and no flood a provider throttles).

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
  messageId: string
  ics?: string
  unsubscribe?: string
}

export interface PooledTransport {
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

const CALENDAR_TYPE = 'text/calendar; charset=utf-8'

/** Messages one pooled connection carries before it is renewed. */
const MESSAGES_PER_CONNECTION = 500

export function createPooledTransport (smtpUrl: string, from: string): PooledTransport {
  const url = new URL(smtpUrl)
  const requireTLS = url.protocol === 'smtp:' && !isLoopbackHost(url.hostname)
  const { deadlineMs, ...timeouts } = MAIL_TIMEOUTS
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer
  const transport = nodemailer.createTransport(
    {
      url: smtpUrl,
      pool: true,
      maxConnections: 1,
      maxMessages: MESSAGES_PER_CONNECTION,
      requireTLS,
      ...timeouts
    },
    { from }
  )
  const closing = new AbortController()
  return {
    async send (mail) {
      const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(deadlineMs)])
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        signal,
        ...(mail.unsubscribe
          ? {
              headers: {
                'List-Unsubscribe': `<${mail.unsubscribe}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click'
              }
            }
          : {}),
        attachments: mail.ics
          ? [{ filename: 'event.ics', content: mail.ics, contentType: CALENDAR_TYPE }]
          : []
      })
    },
    close: () => {
      closing.abort()
      transport.close()
    }
  }
}

/**
 * Whether an SMTP failure may pass (retry later): a 4xx reply, or no reply at all (connection
 * refused, timeout). A 5xx reply is final (unknown recipient, refused sender).
 */
export function isTemporary (error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode
  return !(typeof code === 'number' && code >= 500)
}
