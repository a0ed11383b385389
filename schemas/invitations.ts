import { Type, type Static } from '@sinclair/typebox'
import { User } from './users.js'
import { InviteLink } from './password-reset.js'

/** POST /users answers the user, and their invitation when no password was given. */
export const UserCreated = Type.Object({
  ...User.properties,
  invite: Type.Optional(InviteLink)
})
export type UserCreatedType = Static<typeof UserCreated>
