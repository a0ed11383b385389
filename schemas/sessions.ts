import { Type, type Static } from '@sinclair/typebox'
import { Instant, StrictObject } from './common.js'
import { Password, User } from './users.js'

export const LoginBody = StrictObject({
  username: Type.String({ minLength: 1, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 1024 })
})
export type LoginBodyType = Static<typeof LoginBody>

export const SessionResponse = Type.Object({ user: User, accessExpiresAt: Instant })

export const SessionInfo = Type.Object({
  id: Type.Integer(),
  current: Type.Boolean(),
  createdAt: Instant,
  lastSeenAt: Instant,
  expiresAt: Instant,
  userAgent: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()])
})

export const ChangePasswordBody = StrictObject({ currentPassword: Password, newPassword: Password })
export type ChangePasswordBodyType = Static<typeof ChangePasswordBody>
