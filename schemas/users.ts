import { Type, type Static } from '@sinclair/typebox'
import { Instant, LiteralUnion, Role, StrictObject } from './common.js'
import { USER_STATUSES } from '#shared/enums.js'
import { Nullable } from './nullable.js'
import { PASSWORD_LIMITS, USER_LIMITS } from '#shared/limits.js'

export const Username = Type.String({
  minLength: 3,
  maxLength: USER_LIMITS.username,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$'
})
const POLICY =
  `${PASSWORD_LIMITS.min}–${PASSWORD_LIMITS.max} characters, not common, not the username`
export const Password = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: `policy: ${POLICY}`
})
export const Instruments = Type.Array(
  Type.String({ minLength: 1, maxLength: USER_LIMITS.instrument }),
  { maxItems: USER_LIMITS.instruments }
)
const DisplayName = Type.String({ minLength: 1, maxLength: USER_LIMITS.displayName })
export const Email = Type.String({ format: 'email', maxLength: USER_LIMITS.email })

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  displayName: Type.String(),
  email: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'only for admins and the user themself'
    })
  ),
  role: Role,
  status: LiteralUnion(USER_STATUSES),
  isMusician: Type.Boolean(),
  isSinger: Type.Boolean(),
  occasional: Type.Boolean({
    description: 'a sub: mailed about and counted for only the gigs an editor asks them for'
  }),
  instruments: Type.Array(Type.String()),
  passwordChangeRequired: Type.Optional(
    Type.Boolean({
      description:
        'only for admins and the user themself: the user must choose a new password ' +
        '(PUT /change_password) before any other route answers'
    })
  ),
  createdAt: Instant
})
export type UserType = Static<typeof User>

export const ProfileUpdate = StrictObject(
  {
    displayName: Type.Optional(DisplayName),
    email: Type.Optional(Nullable(Email)),
    instruments: Type.Optional(Instruments),
    isSinger: Type.Optional(Type.Boolean())
  },
  { minProperties: 1 }
)
export type ProfileUpdateType = Static<typeof ProfileUpdate>

export const UserCreate = StrictObject({
  username: Username,
  displayName: DisplayName,
  email: Type.Optional(Nullable(Email)),
  role: Role,
  password: Type.Optional(
    Type.String({
      ...Password,
      description:
        `an initial password (policy: ${POLICY}), which ` +
        'the user must change at first login; leave it out to get an invite link instead'
    })
  ),
  isMusician: Type.Optional(Type.Boolean()),
  isSinger: Type.Optional(Type.Boolean()),
  occasional: Type.Optional(Type.Boolean({
    description: 'a sub: mailed about and counted for only the gigs an editor asks them for'
  })),
  instruments: Type.Optional(Instruments),
  passwordChangeRequired: Type.Optional(
    Type.Boolean({
      description:
        'kept for older clients: a password set by an admin always has to be changed first'
    })
  )
})
export type UserCreateType = Static<typeof UserCreate>

export const UserPatch = StrictObject(
  {
    displayName: Type.Optional(DisplayName),
    email: Type.Optional(Nullable(Email)),
    role: Type.Optional(Role),
    status: Type.Optional(LiteralUnion(USER_STATUSES)),
    isMusician: Type.Optional(Type.Boolean()),
    isSinger: Type.Optional(Type.Boolean()),
    occasional: Type.Optional(Type.Boolean()),
    instruments: Type.Optional(Instruments),
    password: Type.Optional(Password),
    passwordChangeRequired: Type.Optional(
      Type.Boolean({
        description:
          'true: the user must choose a new password at their next request (always so when ' +
          'you set the password of someone else)'
      })
    )
  },
  { minProperties: 1 }
)
export type UserPatchType = Static<typeof UserPatch>

export const UserListQuery = Type.Object({
  status: Type.Optional(
    LiteralUnion(USER_STATUSES, {
      description: 'only users with this status'
    })
  )
})
export type UserListQueryType = Static<typeof UserListQuery>
