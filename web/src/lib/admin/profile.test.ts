import { describe, expect, it } from 'vitest'
import type { User } from '$lib/api/types'
import { blankProfile, profileBody, profileOf } from './profile'

const user: User = {
  id: 7,
  username: 'jonas',
  displayName: 'Jonas',
  email: null,
  role: 'editor',
  status: 'active',
  isMusician: true,
  isSinger: false,
  occasional: false,
  instruments: ['Drums', 'Percussion'],
  createdAt: '2026-11-26T19:00:00.000Z'
}

describe('the profile fields of the New user form and a user\'s page', () => {
  it('a new account starts as a musician member with nothing filled in', () => {
    expect(blankProfile()).toEqual({
      displayName: '',
      email: '',
      role: 'member',
      isMusician: true,
      isSinger: false,
      occasional: false,
      instruments: ''
    })
    // Each form gets its own object: clearing one never clears another.
    expect(blankProfile()).not.toBe(blankProfile())
  })

  it('a user becomes form values and back without a change', () => {
    const values = profileOf(user)
    const same = {
      displayName: 'Jonas', role: 'editor', isMusician: true, isSinger: false, occasional: false
    }
    expect(values).toEqual({ ...same, email: '', instruments: 'Drums, Percussion' })
    const instruments = ['Drums', 'Percussion']
    expect(profileBody(values)).toEqual({ ...same, email: null, instruments })
  })

  it('the body trims the texts and splits the instruments at commas', () => {
    const body = profileBody({
      ...blankProfile(),
      displayName: '  Mia ',
      email: ' mia@example.org ',
      instruments: ' Bass,, Keys '
    })
    expect(body.displayName).toBe('Mia')
    expect(body.email).toBe('mia@example.org')
    expect(body.instruments).toEqual(['Bass', 'Keys'])
  })
})
