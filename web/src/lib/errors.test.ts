import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ApiFailure, type ApiErrorDetail } from './api/client'
import { explainError } from './errors'
import { i18n, loadLanguage } from './i18n/index.svelte'

/** A 400 VALIDATION_ERROR in the agreed shape: `details` with Ajv's keyword and params. */
function invalid (...details: ApiErrorDetail[]): ApiFailure {
  return new ApiFailure(400, 'VALIDATION_ERROR', 'body/name must …', details)
}

function detail (
  field: string,
  keyword: string,
  params: Record<string, unknown> = {},
  message = 'the server’s own words'
): ApiErrorDetail {
  return { field, keyword, params, message }
}

// German is loaded on demand (i18n/index.svelte.ts); these tests switch to it directly.
beforeAll(() => loadLanguage('de'))

afterEach(() => {
  i18n.language = 'en'
})

describe('explainError: validation details by keyword', () => {
  it('puts each keyword in words, with the limit from params', () => {
    const explained = explainError(
      invalid(
        detail('body.name', 'maxLength', { limit: 120 }),
        detail('body.venue.city', 'minLength', { limit: 2 }),
        detail('body.songIds', 'maxItems', { limit: 300 }),
        detail('body.sets', 'minItems', { limit: 1 }),
        detail('body.bpm', 'minimum', { comparison: '>=', limit: 20 }),
        detail('body.durationSeconds', 'maximum', { comparison: '<=', limit: 3600 }),
        detail('body.title', 'required', { missingProperty: 'title' }),
        detail('body.startsAt', 'pattern', { pattern: '^\\d{4}' }),
        detail('body.email', 'format', { format: 'email' }),
        detail('body.status', 'enum', { allowedValues: ['a', 'b'] }),
        detail('body.extra', 'additionalProperties', { additionalProperty: 'extra' }),
        detail('body.tags', 'uniqueItems', { i: 1, j: 0 }),
        detail('querystring.limit', 'type', { type: 'integer' })
      )
    )
    expect(explained.message).toBe('Please check the highlighted fields.')
    expect(explained.fields).toEqual({
      name: 'At most 120 characters.',
      'venue.city': 'At least 2 characters.',
      songIds: 'At most 300 entries.',
      sets: 'At least 1 entries.',
      bpm: 'At least 20.',
      durationSeconds: 'At most 3600.',
      title: 'Required.',
      startsAt: 'Not in the expected format.',
      email: 'Not in the expected format.',
      status: 'Choose one of the offered values.',
      extra: 'This field is not accepted.',
      tags: 'Each entry only once.',
      limit: 'Enter a whole number.'
    })
  })

  it('speaks German when the app does', () => {
    i18n.language = 'de'
    const explained = explainError(
      invalid(
        detail('body.name', 'maxLength', { limit: 120 }),
        detail('body.title', 'required', { missingProperty: 'title' })
      )
    )
    expect(explained.message).toBe('Bitte prüf die markierten Felder.')
    expect(explained.fields).toEqual({ name: 'Höchstens 120 Zeichen.', title: 'Pflichtfeld.' })
  })

  it('never reads the English message: a keyword decides even when the text says otherwise', () => {
    const explained = explainError(
      invalid(detail('body.name', 'maxLength', { limit: 80 }, 'must have required property x'))
    )
    expect(explained.fields).toEqual({ name: 'At most 80 characters.' })
  })

  it('shows the server’s message for a keyword it does not know, or none at all', () => {
    const explained = explainError(
      invalid(
        detail('body.kind', 'const', { allowedValue: 'gig' }, 'must be equal to constant'),
        { field: 'body.notes', message: 'is invalid' },
        detail('params.id', 'type', {}, 'must be a finite number'),
        detail('body.title', 'type', { type: 'string' }, 'must be string')
      )
    )
    expect(explained.fields).toEqual({
      kind: 'must be equal to constant',
      notes: 'is invalid',
      id: 'must be a finite number',
      title: 'must be string'
    })
  })

  it('keeps the first message of a field named twice', () => {
    const explained = explainError(
      invalid(detail('body.name', 'minLength', { limit: 1 }), detail('body.name', 'pattern'))
    )
    expect(explained.fields).toEqual({ name: 'At least 1 characters.' })
  })

  it('has no field messages, and the code’s message, when details are empty', () => {
    const explained = explainError(new ApiFailure(400, 'VALIDATION_ERROR', 'status or rating'))
    expect(explained).toEqual({ message: 'Please check the highlighted fields.', fields: {} })
  })
})

describe('explainError: WEAK_PASSWORD by reason', () => {
  const weak = (reason: string | null) =>
    explainError(new ApiFailure(400, 'WEAK_PASSWORD', 'password is too common', [], null, reason))

  it('names each reason, with the policy’s limits', () => {
    expect(weak('too_short').message).toBe(
      'The new password needs at least 15 characters — a few words in a row work well.'
    )
    expect(weak('too_long').message).toBe('The new password can have at most 256 characters.')
    expect(weak('contains_username').message).toBe('The password must not contain the username.')
    expect(weak('too_similar').message).toBe('The password must not contain the username.')
    expect(weak('too_common').message).toBe(
      'This password is on the list of common passwords. Please pick another one.'
    )
  })

  it('in German too', () => {
    i18n.language = 'de'
    expect(weak('too_long').message).toBe('Das neue Passwort darf höchstens 256 Zeichen haben.')
  })

  it('falls back to the general message for a missing or unknown reason', () => {
    expect(weak(null).message).toBe('This password cannot be used.')
    expect(weak('unchanged').message).toBe('This password cannot be used.')
    expect(weak('too_blue').message).toBe('This password cannot be used.')
  })
})

describe('explainError: by code and status', () => {
  it('uses the code’s message, else the status’s, else a general one', () => {
    expect(explainError(new ApiFailure(404, 'GIG_NOT_FOUND', 'x')).message).toBe(
      'This gig does not exist (any more).'
    )
    expect(explainError(new ApiFailure(409, 'SOMETHING_NEW', 'x')).message).toBe(
      'Someone changed this in the meantime. Reload and try again.'
    )
    expect(explainError(new ApiFailure(502, 'HTTP_502', 'x')).message).toBe(
      'The server had a problem. Please try again.'
    )
    expect(explainError(new ApiFailure(418, 'HTTP_418', 'x')).message).toBe(
      'Something unexpected went wrong. Please try again.'
    )
    expect(explainError(new Error('boom'))).toEqual({
      message: 'Something unexpected went wrong. Please try again.',
      fields: {}
    })
  })

  it('counts the wait of a 429 in seconds, or minutes from 90 seconds on', () => {
    const limited = (seconds: number | null) =>
      explainError(new ApiFailure(429, 'RATE_LIMITED', 'x', [], seconds)).message
    expect(limited(1)).toBe('Too many attempts. Please wait 1 second and try again.')
    expect(limited(89)).toBe('Too many attempts. Please wait 89 seconds and try again.')
    expect(limited(90)).toBe('Too many attempts. Please wait 2 minutes and try again.')
    expect(limited(null)).toBe('Too many attempts. Please wait 60 seconds and try again.')
  })
})
