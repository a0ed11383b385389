import nodemailer from 'nodemailer'

// E-mail through the band's SMTP server (SMTP_URL), with nodemailer: the maintained standard for
// SMTP in Node (no dependencies of its own, STARTTLS and SMTPS, authentication, connection URLs).
// Sending is awaited with short timeouts: the caller reports whether the mail went out.

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
  socketTimeout: 10000
}

export function createMailer (smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...MAIL_TIMEOUTS }, { from })
  return {
    async send (message) {
      await transport.sendMail(message)
    },
    close: () => transport.close()
  }
}
