import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import type Nodemailer from 'nodemailer'

// E-mail through the band's SMTP server (SMTP_URL), with nodemailer: the maintained standard for
// SMTP in Node (no dependencies of its own, STARTTLS and SMTPS, authentication, connection URLs).
// `smtp://` to another host must upgrade with STARTTLS (`requireTLS`): a reset link is a password,
// and a man in the middle that strips the STARTTLS offer must not get it in clear text. Every
// send has an overall deadline: a server that answers a byte at a time resets the socket timeout
// forever (45 s seen), the deadline does not.

export interface MailMessage {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): void
}

export const MAIL_TIMEOUTS = {
  connectionTimeout: 5000,
  greetingTimeout: 5000,
  socketTimeout: 10000,
  /** The whole send, connecting to the last answer. */
  deadlineMs: 30_000
}

/** localhost, 127.0.0.0/8, ::1: a relay on the same machine needs no TLS. */
export function isLoopbackHost (host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return bare === '::1' || bare === '::ffff:127.0.0.1'
}

export function createMailer (
  smtpUrl: string,
  from: string,
  deadlineMs = MAIL_TIMEOUTS.deadlineMs
) {
  const url = new URL(smtpUrl)
  const requireTLS = url.protocol === 'smtp:' && !isLoopbackHost(url.hostname)
  const { deadlineMs: _, ...timeouts } = MAIL_TIMEOUTS
  // Loaded only when mail is configured: nodemailer's ~1 MB of sources and 2 MB of RSS stay out
  // of a server without SMTP_URL (the resilience bench's RSS bound, docs/performance.md).
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer
  const transport = nodemailer.createTransport({ url: smtpUrl, requireTLS, ...timeouts }, { from })
  // Closing aborts what is still being sent (a shutdown does not wait for a slow server).
  const closing = new AbortController()
  const mailer: Mailer & { requireTLS: boolean } = {
    requireTLS,
    async send (message) {
      const signal = AbortSignal.any([closing.signal, AbortSignal.timeout(deadlineMs)])
      await transport.sendMail({ ...message, signal })
    },
    close: () => {
      closing.abort()
      transport.close()
    }
  }
  return mailer
}
