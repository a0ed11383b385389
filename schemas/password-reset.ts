import { Type, type Static } from '@sinclair/typebox'
import { Instant, StrictObject, StringEnum } from './common.js'
import { Password } from './users.js'

const Token = Type.String({
  minLength: 20,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'the token from the link (after #token=)'
})

export const ResetLink = Type.Object({
  userId: Type.Integer(),
  url: Type.String({
    description: 'give it to the member; works once, for 15 minutes (only shown here)'
  }),
  expiresAt: Instant,
  mail: StringEnum(['sent', 'sending', 'failed', 'not-configured', 'no-email'], {
    description:
      'whether the link was also mailed: not-configured without SMTP_URL, no-email when the ' +
      'member has no address, failed when the mail server refused or did not answer, sending ' +
      'when it had not answered within 3 s (the mail goes on in the background, up to 30 s; ' +
      'its outcome is logged)'
  })
})
export type ResetLinkMail = Static<typeof ResetLink>['mail']

export const ResetTokenBody = StrictObject({ token: Token })
export const ResetPasswordBody = StrictObject({ token: Token, newPassword: Password })

export const ResetLinkInfo = Type.Object({
  username: Type.String(),
  displayName: Type.String(),
  expiresAt: Instant
})
