import type { Role, User } from '$lib/api/types'
import { splitList } from '$lib/lists'

/**
 * The profile an admin edits, as the form holds it (instruments as one comma-separated text): the
 * same fields in the "New user" form and on a user's page (UserProfileFields).
 */
export interface ProfileValues {
  displayName: string
  email: string
  role: Role
  isMusician: boolean
  isSinger: boolean
  /** A sub: mailed about and counted for only the gigs an editor asks them for. */
  occasional: boolean
  instruments: string
}

/** A new account's profile: a musician member. */
export const blankProfile = (): ProfileValues => ({
  displayName: '',
  email: '',
  role: 'member',
  isMusician: true,
  isSinger: false,
  occasional: false,
  instruments: ''
})

export const profileOf = (user: User): ProfileValues => ({
  displayName: user.displayName,
  email: user.email ?? '',
  role: user.role,
  isMusician: user.isMusician,
  isSinger: user.isSinger,
  occasional: user.occasional,
  instruments: user.instruments.join(', ')
})

/** The request body's profile fields (POST /users and PATCH /users/{id} alike). */
export const profileBody = (values: ProfileValues) => ({
  displayName: values.displayName.trim(),
  email: values.email.trim() || null,
  role: values.role,
  isMusician: values.isMusician,
  isSinger: values.isSinger,
  occasional: values.occasional,
  instruments: splitList(values.instruments)
})
