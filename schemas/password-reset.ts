import { Type, type Static } from '@sinclair/typebox'
import { Instant, StrictObject, StringEnum } from './common.js'
import { Password } from './users.js'
import { LINK_KINDS } from '#shared/enums.js'

const Token = Type.String({
  minLength: 20,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'the token from the link (after #token=)'
})

export const ResetLink = Type.Object({
  userId: Type.Integer(),
  url: Type.String({
    description: 'give it to the member; works once, until expiresAt (only shown here)'
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

export const LinkKind = StringEnum(LINK_KINDS, {
  description: 'reset: a new password; invite: a new member chooses their first one'
})

export const ResetLinkInfo = Type.Object({
  username: Type.String(),
  displayName: Type.String(),
  expiresAt: Instant,
  kind: LinkKind
})

/** The invitation in the answer to POST /users without a password. */
export const InviteLink = Type.Object({
  url: Type.String({
    description: 'give it to the member; works once, until expiresAt (only shown here)'
  }),
  expiresAt: Instant,
  mail: ResetLink.properties.mail
})
